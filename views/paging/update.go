package paging

import (
	"slices"
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
	// What the last page added is this message's to say (nothing, unless
	// it is a page that is placed).
	l.added, l.addedRuns, l.addedClean = span{}, nil, false
	if msg.err != nil && l.ctx.Err() != nil {
		return false, nil
	}
	if l.refreshed(msg) {
		return true, nil // failed: the rows from before stay, stale
	}
	if msg.err != nil {
		if r, ok := asRefused(msg.err); ok && msg.req.OrderBy != "" && msg.req.OrderBy == l.order {
			// The server does not sort this collection so: fall back to its
			// default order, and tell the owner once (TakeRefusal).
			if l.refused == nil {
				l.refused = map[string]bool{}
			}
			l.refused[l.order] = true
			l.refusal = r
			return true, l.Reset("")
		}
		l.err, l.errAt, l.errEnd = msg.err, msg.at, msg.at+max(msg.req.Size, 1)
		return true, nil
	}
	items, _ := msg.items.([]T)
	if msg.req.Token == "" && msg.req.Skip > 0 && msg.skip < msg.req.Skip && len(items) > 0 {
		// Asked to skip, the server says it skipped less, or nothing (it
		// ignores skip, answering from the top; or it leaves skipped out,
		// and where the page belongs cannot be known): walk by token from
		// now on. The page is not placed: its place is not known.
		l.noSkip = true
		return true, l.fruitlessPage(msg.req)
	}
	l.partial = msg.partial
	for _, f := range msg.ignored {
		if !slices.Contains(l.ignored, f) {
			l.ignored = append(l.ignored, f)
		}
	}
	if !msg.noTotal {
		l.total, l.exact = int(msg.total), true
	} else if l.total < 0 {
		l.total = 0
	}
	at := msg.at
	if msg.req.Token == "" {
		at = msg.skip
	} else if l.restarted(items) {
		// The token expired and the server began again at position 0: ask
		// once more for this position with skip (a server that ignores
		// skip cannot be asked: the walk stops, r starts it again).
		if cmd := l.fruitlessPage(msg.req); l.err != nil || l.noSkip {
			return true, cmd
		}
		return true, l.fetch(Request{Skip: msg.at, Size: msg.req.Size, OrderBy: l.order}, msg.at)
	}
	if at == 0 && len(items) > 0 {
		l.read.LearnHead(items)
	}
	l.learnPageSize(len(items), msg.req.Size, msg.next)
	w := l.take(at, items, msg.next)
	fresh := w.n // the positions the page fills: its items not read before
	if fresh > 0 {
		l.fruitless = nil // the list moved on: nothing asked before is a loop
	}
	if l.err != nil && at <= l.errAt && at+len(items) >= l.errEnd {
		l.err = nil // what failed has loaded since
	}
	runs := w.runs(nil)
	l.addedClean = l.insert(w) && fresh > 0
	l.added = span{at, at + fresh}
	if l.addedClean {
		l.addedRuns = runs
	}
	if l.watch != nil {
		total := int(msg.total)
		if msg.noTotal {
			total = -1
		}
		l.watch(items, total)
	}
	if l.total < l.endOfLast() {
		l.total = l.endOfLast()
	}
	if !msg.noTotal || l.exact {
		if fresh == 0 && msg.dropped == 0 && msg.next != "" {
			// More promised, nothing brought: not asked again in a loop.
			return true, l.fruitlessPage(msg.req)
		}
		l.stale = 0
		return true, nil
	}
	return true, l.boundTail(at+fresh, fresh+msg.dropped, msg.next)
}

// take makes the window of a page's items not read before, placed from at:
// a copy of exactly those (the page as decoded may have spare capacity,
// and the source's slice is not ours to keep), or, while the list is
// thinned, of those keep takes.
func (l *List[T]) take(at int, items []T, next string) window[T] {
	if l.keep != nil {
		return l.takeThin(at, items, next)
	}
	fresh := make([]T, 0, len(items))
	for i := range items {
		if l.read.Add(&items[i]) {
			fresh = append(fresh, items[i])
		}
	}
	if len(fresh) < cap(fresh) {
		fresh = append([]T(nil), fresh...)
	}
	return newWindow(at, fresh, next)
}

// fruitlessPage notes a request that brought nothing new: it is not sent
// again (until r), and after maxStalePages such pages in a row the list
// stops with ErrStuck. It returns nil: what comes next is the owner's
// Ensure, which will not repeat it.
func (l *List[T]) fruitlessPage(req Request) tea.Cmd {
	r := req
	l.fruitless = &r
	l.stale++
	if l.stale >= maxStalePages {
		end := l.endOfLast()
		l.err, l.errAt, l.errEnd = ErrStuck, end, max(l.total, end+1)
	}
	return nil
}

// maxStalePages bounds the pages in a row, each with a token to go on, that
// bring nothing new: a server that never gets anywhere is not followed forever.
const maxStalePages = 8

// boundTail keeps the lower bound of a list without a total: the last
// page (no token) fixes the end; otherwise one more position past what is
// known stands for the rest. A page with a token that brought nothing is
// followed at once (it moved no row closer), up to maxStalePages in a row.
func (l *List[T]) boundTail(end, fresh int, next string) tea.Cmd {
	if end < l.endOfLast() {
		return nil // a page inside what is known: the tail is as it was
	}
	if next == "" {
		l.total, l.exact = l.endOfLast(), true
		return nil
	}
	l.total = max(l.total, l.endOfLast()+1)
	if fresh > 0 {
		l.stale = 0
		return nil
	}
	l.stale++
	if l.stale >= maxStalePages {
		l.err, l.errAt, l.errEnd = ErrStuck, l.endOfLast(), l.endOfLast()+1
		return nil
	}
	// A new token after an empty page: follow it at once (AIP-158 allows
	// empty pages); the same token again goes nowhere: stop.
	req := Request{Token: next, Size: l.size, OrderBy: l.order}
	if l.fruitless != nil && *l.fruitless == req {
		l.err, l.errAt, l.errEnd = ErrStuck, l.endOfLast(), l.endOfLast()+1
		return nil
	}
	cmd := l.fetch(req, l.endOfLast())
	r := req
	l.fruitless = &r // asked once: the same again would be a loop
	return cmd
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
func (l *List[T]) insert(w window[T]) (clean bool) {
	if w.n == 0 {
		// An empty page still tells where the end is.
		if prev := l.windowEndingAt(w.start); prev != nil {
			prev.next = w.next
		}
		return true
	}
	k := sort.Search(len(l.windows), func(k int) bool { return l.windows[k].start >= w.start })
	// A page that overlaps what is loaded loses rows to it, or takes
	// theirs: more changed than its own rows.
	clean = (k == 0 || l.windows[k-1].end() <= w.start) && (k == len(l.windows) || w.end() <= l.windows[k].start)
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
	return clean
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

// learnPageSize follows the pages the server serves: one shorter than
// asked that is not the last says the server (or the user's --page-size)
// serves at most that many, and asking for more would land a jump's page
// short of where it was meant to (G would then walk the rest by token).
// The largest such page is kept: a server may also send a short page now
// and then, which says nothing of its size.
func (l *List[T]) learnPageSize(got, asked int, next string) {
	if got <= 0 || got >= asked || next == "" {
		return
	}
	l.served = max(l.served, got)
	l.size = min(l.size, l.served)
}
