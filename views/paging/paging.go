// Package paging is canopy's paged cursor over a collection: loaded items
// kept as sparse windows of list positions, the next token of each window,
// the total count, what is in flight and the last error.
//
// A List never blocks and never touches HTTP: it returns tea.Cmds that call
// its Source (built by the ui shell from the API client) and takes the
// answers back through Update. It asks for the next page when the cursor
// comes within a screen of a window's end, so steady scrolling never waits,
// and jumps (G, a far scroll) fetch the page at the target with one skip
// request instead of walking every cursor. Items are de-duplicated by uid, and
// a page that restarts from the beginning (an expired token) is detected and
// re-asked for with skip instead of duplicating rows.
package paging

import (
	"context"
	"hash/maphash"
	"sort"

	tea "charm.land/bubbletea/v2"
)

// DefaultPageSize is the page size canopy asks for: the API's maximum.
const DefaultPageSize = 200

// Request asks a Source for one page.
type Request struct {
	Token   string // continue after the end of a window ("" for a skip request)
	Skip    int    // without Token: the list position of the first item wanted
	Size    int
	OrderBy string
}

// Result is one page as the Source got it.
type Result[T any] struct {
	Items   []T
	Next    string // token for the page after this one; "" on the last page
	Total   int64
	Skipped int
}

// Source fetches one page. It is called inside a tea.Cmd, off the UI loop.
type Source[T any] func(ctx context.Context, req Request) (Result[T], error)

// PageMsg is the answer to one request of a List; only that List (and only
// while it has not been reset since) accepts it.
type PageMsg struct {
	owner any
	gen   int
	req   Request
	at    int // list position the request was for
	items any // []T
	next  string
	total int64
	skip  int
	err   error
}

// span is a range of positions a request in flight will fill.
type span struct{ start, end int }

// List is the paged cursor of one collection in one order.
type List[T any] struct {
	ctx   context.Context
	src   Source[T]
	key   func(*T) string
	size  int
	order string
	gen   int

	windows  []window[T]
	total    int // -1 until the first answer
	pending  []span
	err      error
	errAt    int
	seed     maphash.Seed
	seen     keySet
	firstKey string
	requests int
	added    span // the positions the last accepted page filled
}

// New makes a list over src with page size 200; ctx bounds every request
// (the shell cancels it when the screen closes); key gives an item's uid.
func New[T any](ctx context.Context, src Source[T], key func(*T) string) *List[T] {
	return &List[T]{ctx: ctx, src: src, key: key, size: DefaultPageSize, total: -1,
		seed: maphash.MakeSeed()}
}

// SetPageSize changes the page size used by later requests.
func (l *List[T]) SetPageSize(n int) {
	if n > 0 {
		l.size = n
	}
}

// SetOrder sets the order_by of the first request; later changes go
// through Reset.
func (l *List[T]) SetOrder(order string) { l.order = order }

// Gen counts the resets: positions of one generation mean nothing in
// another.
func (l *List[T]) Gen() int { return l.gen }

// Order is the current server order_by ("" for the server's default).
func (l *List[T]) Order() string { return l.order }

// Reset drops everything loaded, switches to order, and asks for the first
// page. Answers to earlier requests are ignored from now on.
func (l *List[T]) Reset(order string) tea.Cmd {
	l.gen++
	l.order = order
	l.windows, l.pending, l.err = nil, nil, nil
	l.total = -1
	l.firstKey = ""
	l.seen.Reset()
	return l.fetch(Request{Size: l.size, OrderBy: order}, 0)
}

// Start asks for the first page unless something is loaded or loading.
func (l *List[T]) Start() tea.Cmd {
	if len(l.windows) > 0 || len(l.pending) > 0 || l.total >= 0 {
		return nil
	}
	return l.Reset(l.order)
}

// Total is the total count the server gave, or -1 before the first answer.
func (l *List[T]) Total() int { return l.total }

// Len is the number of rows to show: the total when known, else what is
// loaded.
func (l *List[T]) Len() int {
	if l.total >= 0 {
		return l.total
	}
	return l.Loaded()
}

// Loaded counts the items held.
func (l *List[T]) Loaded() int {
	n := 0
	for i := range l.windows {
		n += l.windows[i].n
	}
	return n
}

// Contiguous is the number of items loaded from position 0 without a gap.
func (l *List[T]) Contiguous() int {
	if len(l.windows) == 0 || l.windows[0].start != 0 {
		return 0
	}
	return l.windows[0].end()
}

// Requests counts the requests sent since New.
func (l *List[T]) Requests() int { return l.requests }

// Busy reports whether a request is in flight.
func (l *List[T]) Busy() bool { return len(l.pending) > 0 }

// Err is the error of the last failed request, and the position it was for.
func (l *List[T]) Err() (error, int) { return l.err, l.errAt }

// Done reports whether every item is loaded.
func (l *List[T]) Done() bool {
	return l.total >= 0 && len(l.windows) == 1 && l.windows[0].start == 0 && l.windows[0].end() >= l.total
}

// At returns the item at list position i, if loaded.
func (l *List[T]) At(i int) (*T, bool) {
	w := l.windowAt(i)
	if w == nil {
		return nil, false
	}
	return w.item(i - w.start), true
}

// Each calls fn with every loaded item and its position, in order, until fn
// returns false.
func (l *List[T]) Each(fn func(pos int, it *T) bool) {
	for wi := range l.windows {
		if !l.windows[wi].each(fn) {
			return
		}
	}
}

// Loading reports whether position i is being fetched.
func (l *List[T]) Loading(i int) bool {
	for _, s := range l.pending {
		if i >= s.start && i < s.end {
			return true
		}
	}
	return false
}

// windowAt is the window holding position i.
func (l *List[T]) windowAt(i int) *window[T] {
	k := sort.Search(len(l.windows), func(k int) bool { return l.windows[k].end() > i })
	if k < len(l.windows) && l.windows[k].start <= i {
		return &l.windows[k]
	}
	return nil
}

// Ensure makes sure the rows from cursor-ahead to cursor+ahead are loaded or
// on their way: called after every cursor move with ahead = one screen.
// It sends at most one request per gap and none for what is in flight or
// failed (Retry clears a failure).
func (l *List[T]) Ensure(cursor, ahead int) tea.Cmd {
	if l.total < 0 || l.err != nil {
		return nil
	}
	var cmds []tea.Cmd
	for _, p := range []int{cursor, cursor + ahead, cursor - ahead} {
		if p < 0 || p >= l.total {
			continue
		}
		cmds = append(cmds, l.ensureAt(p))
	}
	return tea.Batch(cmds...)
}

// ensureAt fetches the page that covers position p when it is missing.
func (l *List[T]) ensureAt(p int) tea.Cmd {
	if l.windowAt(p) != nil || l.Loading(p) {
		return nil
	}
	// The gap around p: from the end of the window before it to the start
	// of the window after it.
	k := sort.Search(len(l.windows), func(k int) bool { return l.windows[k].start > p })
	gapStart, gapEnd := 0, l.total
	var prev *window[T]
	if k > 0 {
		prev = &l.windows[k-1]
		gapStart = prev.end()
	}
	if k < len(l.windows) {
		gapEnd = l.windows[k].start
	}
	for _, s := range l.pending {
		if s.end <= p && s.end > gapStart {
			gapStart = s.end
		}
		if s.start > p && s.start < gapEnd {
			gapEnd = s.start
		}
	}
	switch {
	case prev != nil && prev.next != "" && gapStart == prev.end() && p-gapStart < l.size && l.firstKey != "":
		// Walking forward: follow the window's token. Only once the first
		// item is known: that is how a token that expired (and restarted the
		// list from the top) is recognised. Before, a skip request does.
		return l.fetch(Request{Token: prev.next, Size: min(l.size, gapEnd-gapStart), OrderBy: l.order}, gapStart)
	case gapEnd-p <= l.size/2 && gapEnd < l.total || gapEnd == l.total && gapEnd-p < l.size:
		// Near the end of the gap (scrolling up into it, or a jump to the
		// end): one page that finishes exactly where the gap does.
		start := max(gapStart, gapEnd-l.size)
		return l.fetch(Request{Skip: start, Size: gapEnd - start, OrderBy: l.order}, start)
	default:
		start := max(gapStart, p-l.size/4)
		return l.fetch(Request{Skip: start, Size: min(l.size, gapEnd-start), OrderBy: l.order}, start)
	}
}

// Retry clears the last error and fetches again around cursor.
func (l *List[T]) Retry(cursor, ahead int) tea.Cmd {
	if l.total < 0 {
		return l.Reset(l.order)
	}
	l.err = nil
	return l.Ensure(cursor, ahead)
}

// fetch returns the command for one request and marks its span in flight.
func (l *List[T]) fetch(req Request, at int) tea.Cmd {
	if req.Size <= 0 {
		return nil
	}
	l.pending = append(l.pending, span{at, at + req.Size})
	l.requests++
	ctx, src, owner, gen := l.ctx, l.src, any(l), l.gen
	return func() tea.Msg {
		res, err := src(ctx, req)
		return PageMsg{owner: owner, gen: gen, req: req, at: at, items: res.Items,
			next: res.Next, total: res.Total, skip: res.Skipped, err: err}
	}
}

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
		l.err, l.errAt = msg.err, msg.at
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
