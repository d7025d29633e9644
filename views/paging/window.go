package paging

// window is a run of loaded items starting at list position start, kept as
// the pages it was made of. Pages are never copied into one growing slice:
// that left up to a quarter of its capacity unused (~26 bytes per loaded
// tag at 10⁶, measured) and copied every item again at each growth.
type window[T any] struct {
	start  int
	n      int // items held
	chunks []chunk[T]
	next   string // token to continue after the last item; "" when it is the end
}

// chunk is one page of a window, from offset at within the window.
type chunk[T any] struct {
	at    int
	items []T
}

func newWindow[T any](start int, items []T, next string) window[T] {
	w := window[T]{start: start, next: next}
	if len(items) > 0 {
		w.chunks = []chunk[T]{{items: items}}
		w.n = len(items)
	}
	return w
}

func (w *window[T]) end() int { return w.start + w.n }

// chunkAt is the index of the chunk holding offset i (0 <= i < w.n).
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

// item is the item at offset i.
func (w *window[T]) item(i int) *T {
	c := &w.chunks[w.chunkAt(i)]
	return &c.items[i-c.at]
}

// appendAfter adds the items of b that lie past w's end (b touches or
// overlaps w) and takes b's token when b reaches further.
func (w *window[T]) appendAfter(b *window[T]) {
	drop := w.end() - b.start
	if drop >= b.n {
		return
	}
	for _, c := range b.chunks {
		items := c.items
		if drop >= len(items) {
			drop -= len(items)
			continue
		}
		items, drop = items[drop:], 0
		w.chunks = append(w.chunks, chunk[T]{at: w.n, items: items})
		w.n += len(items)
	}
	w.next = b.next
}

// removeAt drops the item at offset i. The chunk is copied, not shifted in
// place: a snapshot being read in a command keeps the old version.
func (w *window[T]) removeAt(i int) {
	k := w.chunkAt(i)
	c := &w.chunks[k]
	j := i - c.at
	if len(c.items) == 1 {
		w.chunks = append(w.chunks[:k:k], w.chunks[k+1:]...)
	} else {
		c.items = append(c.items[:j:j], c.items[j+1:]...)
		k++
	}
	for ; k < len(w.chunks); k++ {
		w.chunks[k].at--
	}
	w.n--
}

// replaceAt puts it at offset i in a copy of its chunk (see removeAt).
func (w *window[T]) replaceAt(i int, it T) {
	c := &w.chunks[w.chunkAt(i)]
	items := append([]T(nil), c.items...)
	items[i-c.at] = it
	c.items = items
}

// each calls fn with every item and its list position until fn returns false.
func (w *window[T]) each(fn func(pos int, it *T) bool) bool {
	for _, c := range w.chunks {
		for i := range c.items {
			if !fn(w.start+c.at+i, &c.items[i]) {
				return false
			}
		}
	}
	return true
}
