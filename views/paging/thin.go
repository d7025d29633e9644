package paging

import "canopy/api"

// Thinning: a list read whole for a few of its items (the flagged rows a
// table shows alone) holds those and drops the rest as they come, so that
// what it keeps grows with the rows shown, not with the rows read. The
// positions stay what they are: the ones dropped count as read (Loaded,
// Done, Scan walk past them), and At has nothing there.
//
// Nor are the keys of all the items dropped kept, to tell a page sent
// again: only the last passedWindow of them. A server that shifts its
// pages under the walk (an insert, a delete) repeats an item of the page
// before, a few pages back at most; one that sends old pages again is
// still bounded by the list's positions.

// passedWindow is how many of the keys of the items a thinned list
// dropped it remembers, the last read: 16 pages of the most the API sends.
const passedWindow = 16 * DefaultPageSize

// Thin has the list hold, of the items it holds now and of every page it
// reads from now on, only those keep accepts (keep is asked in Update, with
// each item's list position). Thin(nil) ends it: the pages it thinned go,
// the items they kept with them, and their positions are a gap again,
// fetched as any other (Ensure); the whole pages held stay.
func (l *List[T]) Thin(keep func(pos int, it *T) bool) {
	if keep == nil {
		if l.keep != nil {
			l.keep, l.passed = nil, nil
			l.thicken()
		}
		return
	}
	l.keep = keep
	if l.passed == nil {
		d := api.NewRestartDetector(l.key)
		d.Window(passedWindow)
		l.passed = &d
	}
	for i := range l.windows {
		l.windows[i].thin(keep, l.pass)
	}
}

// Thinned reports whether the list drops what keep does not accept.
func (l *List[T]) Thinned() bool { return l.keep != nil }

// pass moves an item held to those dropped.
func (l *List[T]) pass(it *T) {
	l.read.Forget(l.key(it))
	l.passed.Add(it)
}

// forgetRead forgets every item read: the list begins anew.
func (l *List[T]) forgetRead() {
	l.read.Reset()
	if l.passed != nil {
		l.passed.ForgetRead()
	}
}

// restarted reports whether a page asked for with a token began the list
// again (see api.RestartDetector.Restarted), the items dropped counted
// among those read.
func (l *List[T]) restarted(items []T) bool {
	if l.read.Restarted(items) {
		return true
	}
	if l.passed == nil || len(items) == 0 {
		return false
	}
	for i := range items {
		if k := l.key(&items[i]); !l.read.Seen(k) && !l.passed.Seen(k) {
			return false
		}
	}
	return true
}

// takeThin is take for a thinned list: the items of the page not read
// before fill positions from at; those keep takes are held, the others
// dropped, their keys passed.
func (l *List[T]) takeThin(at int, items []T, next string) window[T] {
	var kept []T
	var offs []int32
	n := 0
	for i := range items {
		it := &items[i]
		if l.passed.Seen(l.key(it)) {
			continue
		}
		if !l.keep(at+n, it) {
			if l.read.Seen(l.key(it)) {
				continue
			}
			l.passed.Add(it)
			n++
			continue
		}
		if l.read.Add(it) {
			kept = append(kept, *it)
			offs = append(offs, int32(n))
			n++
		}
	}
	if len(kept) < cap(kept) {
		kept = append([]T(nil), kept...) // exactly as many
	}
	if len(kept) == n {
		return newWindow(at, kept, next)
	}
	w := window[T]{start: at, n: n, next: next}
	w.chunks = []chunk[T]{{items: kept, span: n, offs: append([]int32(nil), offs...)}}
	return w
}

// thin drops, from every chunk, the items keep rejects, handing each to
// drop. A chunk that keeps them all is left as it is; the others are made
// anew (a snapshot being read in a command keeps the old ones), without
// their token (only whole pages go on by theirs: thicken).
func (w *window[T]) thin(keep func(pos int, it *T) bool, drop func(*T)) {
	for k := range w.chunks {
		c := &w.chunks[k]
		base := w.start + c.at
		var kept []int
		for i := range c.items {
			off := i
			if c.span > 0 {
				off = int(c.offs[i])
			}
			if keep(base+off, &c.items[i]) {
				kept = append(kept, i)
			} else {
				drop(&c.items[i])
			}
		}
		if len(kept) == len(c.items) {
			continue
		}
		items, offs := make([]T, len(kept)), make([]int32, len(kept))
		for j, i := range kept {
			items[j], offs[j] = c.items[i], int32(i)
			if c.span > 0 {
				offs[j] = c.offs[i]
			}
		}
		c.span, c.items, c.offs, c.next = c.size(), items, offs, ""
	}
}

// thicken ends thinning: each window keeps its runs of whole pages, as
// windows of their own (each goes on by its last page's token), and the
// thinned pages become gaps. Only the items held now count as read: the
// ones dropped are new when they come again.
func (l *List[T]) thicken() {
	var out []window[T]
	for _, w := range l.windows {
		var cur *window[T]
		for k, c := range w.chunks {
			if k == len(w.chunks)-1 {
				c.next = w.next // an empty last page may have said more since
			}
			if c.span > 0 {
				cur = nil
				continue
			}
			if cur == nil {
				out = append(out, window[T]{start: w.start + c.at})
				cur = &out[len(out)-1]
			}
			c.at = cur.n
			cur.chunks = append(cur.chunks, c)
			cur.n += len(c.items)
			cur.next = c.next
		}
	}
	l.windows = out
	l.read.ForgetRead()
	l.Each(func(_ int, it *T) bool {
		l.read.Add(it)
		return true
	})
	l.fruitless, l.stale = nil, 0
	l.added, l.addedRuns, l.addedClean = span{}, nil, false
}
