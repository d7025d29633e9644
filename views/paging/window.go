package paging

import "sort"

// window is a run of list positions read, starting at list position start,
// kept as the pages it was made of. Pages are never copied into one growing
// slice: that left up to a quarter of its capacity unused (~26 bytes per
// loaded tag at 10⁶, measured) and copied every item again at each growth.
// A page read while the list is thinned (Thin) holds only the items kept:
// its positions are read, and At has nothing at the others.
type window[T any] struct {
	start  int
	n      int // positions read
	chunks []chunk[T]
	next   string // token to continue after the last item; "" when it is the end
}

// chunk is one page of a window, from offset at within the window.
type chunk[T any] struct {
	at    int
	items []T
	// span > 0 marks a thinned page: it covers span positions and holds
	// only the items kept, at offsets offs (from at, ascending). A whole
	// page (span 0) holds an item at every position.
	span int
	offs []int32
	// next is the token that goes on after the page's last position (""
	// when none was given): a window cut in parts keeps the way on from
	// each part (thicken).
	next string
}

// size is the positions the chunk covers.
func (c *chunk[T]) size() int {
	if c.span > 0 {
		return c.span
	}
	return len(c.items)
}

// index is the index in items of the item at offset j, -1 when the
// chunk does not hold it.
func (c *chunk[T]) index(j int) int {
	if c.span == 0 {
		return j
	}
	k := sort.Search(len(c.offs), func(k int) bool { return int(c.offs[k]) >= j })
	if k < len(c.offs) && int(c.offs[k]) == j {
		return k
	}
	return -1
}

// from is the chunk without its first d positions (0 < d < size), sharing
// its items.
func (c chunk[T]) from(d int) chunk[T] {
	if c.span == 0 {
		c.items = c.items[d:]
		return c
	}
	k := sort.Search(len(c.offs), func(k int) bool { return int(c.offs[k]) >= d })
	offs := make([]int32, len(c.offs)-k)
	for i, o := range c.offs[k:] {
		offs[i] = o - int32(d)
	}
	c.items, c.offs, c.span = c.items[k:], offs, c.span-d
	return c
}

func newWindow[T any](start int, items []T, next string) window[T] {
	w := window[T]{start: start, next: next}
	if len(items) > 0 {
		w.chunks = []chunk[T]{{items: items, next: next}}
		w.n = len(items)
	}
	return w
}

func (w *window[T]) end() int { return w.start + w.n }

// chunkAt is the index of the chunk covering offset i (0 <= i < w.n).
func (w *window[T]) chunkAt(i int) int {
	lo, hi := 0, len(w.chunks)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if w.chunks[mid].at <= i {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// item is the item at offset i, if held.
func (w *window[T]) item(i int) (*T, bool) {
	c := &w.chunks[w.chunkAt(i)]
	k := c.index(i - c.at)
	if k < 0 {
		return nil, false
	}
	return &c.items[k], true
}

// appendAfter adds the positions of b that lie past w's end (b touches or
// overlaps w) and takes b's token when b reaches further.
func (w *window[T]) appendAfter(b *window[T]) {
	drop := w.end() - b.start
	if drop >= b.n {
		return
	}
	for _, c := range b.chunks {
		size := c.size()
		if drop >= size {
			drop -= size
			continue
		}
		if drop > 0 {
			c = c.from(drop)
			drop = 0
		}
		c.at = w.n
		w.chunks = append(w.chunks, c)
		w.n += c.size()
	}
	w.next = b.next
}

// removeAt drops the item at offset i (held). The chunk is copied, not
// shifted in place: a snapshot being read in a command keeps the old
// version.
func (w *window[T]) removeAt(i int) {
	k := w.chunkAt(i)
	c := &w.chunks[k]
	j := c.index(i - c.at)
	if c.size() == 1 {
		w.chunks = append(w.chunks[:k:k], w.chunks[k+1:]...)
	} else {
		c.items = append(c.items[:j:j], c.items[j+1:]...)
		if c.span > 0 {
			offs := append(c.offs[:j:j], c.offs[j+1:]...)
			for o := j; o < len(offs); o++ {
				offs[o]--
			}
			c.offs, c.span = offs, c.span-1
		}
		k++
	}
	for ; k < len(w.chunks); k++ {
		w.chunks[k].at--
	}
	w.n--
}

// replaceAt puts it at offset i (held) in a copy of its chunk (see
// removeAt).
func (w *window[T]) replaceAt(i int, it T) {
	c := &w.chunks[w.chunkAt(i)]
	items := append([]T(nil), c.items...)
	items[c.index(i-c.at)] = it
	c.items = items
}

// each calls fn with every item held and its list position until fn
// returns false.
func (w *window[T]) each(fn func(pos int, it *T) bool) bool {
	for _, c := range w.chunks {
		for i := range c.items {
			off := i
			if c.span > 0 {
				off = int(c.offs[i])
			}
			if !fn(w.start+c.at+off, &c.items[i]) {
				return false
			}
		}
	}
	return true
}
