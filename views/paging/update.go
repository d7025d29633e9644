package paging

import (
	"hash/maphash"
	"sort"

	tea "charm.land/bubbletea/v2"
)

// Owns reports whether msg answers a request of this list (even a stale one).
func (l *List[T]) Owns(msg PageMsg) bool { return msg.owner == any(l) }

// Update takes an answer. It returns whether the list changed and, when a
// restarted page must be asked for again, the command to do so.
func (l *List[T]) Update(msg PageMsg) (bool, tea.Cmd) {
	if msg.owner != any(l) {
		return false, nil
	}
	if msg.gen != l.gen {
		return false, nil
	}
	l.dropPending(msg.at)
	if msg.err != nil {
		if l.ctx.Err() != nil {
			return false, nil
		}
		l.err, l.errAt, l.errEnd = msg.err, msg.at, msg.at+max(msg.req.Size, 1)
		return true, nil
	}
	items, _ := msg.items.([]T)
	l.total = int(msg.total)
	at := msg.at
	if msg.req.Token == "" {
		at = msg.skip
	} else if l.restarted(items) {
		// The token expired and the server began again at position 0: ask
		// once more for this position with skip.
		return true, l.fetch(Request{Skip: msg.at, Size: msg.req.Size, OrderBy: l.order}, msg.at)
	}
	l.added = span{}
	if at == 0 && len(items) > 0 {
		l.firstKey = l.key(&items[0])
	}
	// A copy of exactly the new items: the page as decoded may have spare
	// capacity, and the source's slice is not ours to keep.
	fresh := make([]T, 0, len(items))
	for i := range items {
		if l.seen.Add(maphash.String(l.seed, l.key(&items[i]))) {
			fresh = append(fresh, items[i])
		}
	}
	if len(fresh) < cap(fresh) {
		fresh = append([]T(nil), fresh...)
	}
	if l.err != nil && at <= l.errAt && at+len(items) >= l.errEnd {
		l.err = nil // what failed has loaded since
	}
	l.insert(newWindow(at, fresh, msg.next))
	l.added = span{at, at + len(fresh)}
	if l.total < l.endOfLast() {
		l.total = l.endOfLast()
	}
	return true, nil
}

func (l *List[T]) restarted(items []T) bool {
	if len(items) == 0 {
		return false
	}
	k := l.key(&items[0])
	if l.firstKey != "" && k == l.firstKey {
		return true
	}
	return l.seen.Has(maphash.String(l.seed, k))
}

func (l *List[T]) endOfLast() int {
	if len(l.windows) == 0 {
		return 0
	}
	return l.windows[len(l.windows)-1].end()
}

func (l *List[T]) dropPending(at int) {
	for i, s := range l.pending {
		if s.start == at {
			l.pending = append(l.pending[:i], l.pending[i+1:]...)
			return
		}
	}
}

// insert adds a window and merges it with the windows it touches.
func (l *List[T]) insert(w window[T]) {
	if w.n == 0 {
		// An empty page still tells where the end is.
		if prev := l.windowEndingAt(w.start); prev != nil {
			prev.next = w.next
		}
		return
	}
	k := sort.Search(len(l.windows), func(k int) bool { return l.windows[k].start >= w.start })
	l.windows = append(l.windows, window[T]{})
	copy(l.windows[k+1:], l.windows[k:])
	l.windows[k] = w
	// Merge with the window before when it reaches this one.
	if k > 0 && l.windows[k-1].end() >= w.start {
		k--
		l.merge(k)
	}
	// Merge with the windows after while they touch.
	for k+1 < len(l.windows) && l.windows[k].end() >= l.windows[k+1].start {
		l.merge(k)
	}
}

// merge joins windows k and k+1 (which touch or overlap) into k.
func (l *List[T]) merge(k int) {
	l.windows[k].appendAfter(&l.windows[k+1])
	l.windows = append(l.windows[:k+1], l.windows[k+2:]...)
}

func (l *List[T]) windowEndingAt(p int) *window[T] {
	for i := range l.windows {
		if l.windows[i].end() == p {
			return &l.windows[i]
		}
	}
	return nil
}
