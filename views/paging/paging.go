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
	"sort"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
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
	Items []T
	Next  string // token for the page after this one; "" on the last page
	// Total counts every item of the collection, unless NoTotal: the
	// server may leave it out, and then only the pages tell where the end is.
	Total   int64
	NoTotal bool
	Skipped int
	// Ignored names the filters the server was seen to ignore: the source
	// kept the matching items itself (and gives no total).
	Ignored []string
	// Dropped counts the items of the page the source dropped as the
	// filter would have: the page got somewhere though it brings none.
	Dropped int
	// Partial says why the items may miss some ("" when they do not): a
	// part the source could not read.
	Partial string
}

// Source fetches one page. It is called inside a tea.Cmd, off the UI loop.
type Source[T any] func(ctx context.Context, req Request) (Result[T], error)

// PageMsg is the answer to one request of a List; only that List (and only
// while it has not been reset since) accepts it.
type PageMsg struct {
	owner   any
	gen     int
	req     Request
	at      int // list position the request was for
	items   any // []T
	next    string
	total   int64
	noTotal bool
	skip    int
	ignored []string
	partial string
	dropped int
	err     error
}

// span is a range of positions a request in flight will fill.
type span struct{ start, end int }

// List is the paged cursor of one collection in one order.
type List[T any] struct {
	ctx  context.Context
	src  Source[T]
	key  func(*T) string
	size int
	// served is the largest page the server sent short of what was asked
	// with more to follow (see learnPageSize).
	served int
	order  string
	gen    int

	windows []window[T]
	// total is -1 until the first answer. When exact it is the server's
	// count (or the end of the last page); when the server gives no count
	// it is a lower bound: what is known, and one more row while a page
	// token says more follow (that row loads by following the token).
	total int
	exact bool
	stale int // pages in a row that brought nothing new (with more to come)
	// noSkip: the server ignored a skip (it answered from the top): the
	// list walks by page token from then on, never jumping.
	noSkip bool
	// ignored are the filters the server ignored, whose matches the source
	// kept itself (Result.Ignored), for as long as the list lives;
	// partial is the last page's Result.Partial.
	ignored []string
	partial string
	// fruitless is the last request that brought nothing new: it is not
	// sent again until Retry (r) or a Reset, so that no screen asks the same
	// fruitless question in a loop.
	fruitless *Request
	// refreshing: a Refresh's first page is on its way; the rows shown
	// until it comes are the ones from before.
	refreshing bool
	refusal    *OrderRefused
	refused    map[string]bool // orders the server refused for this list
	pending    []span
	err        error
	errAt      int
	errEnd     int // the failed request's span is errAt..errEnd
	// read knows the list's first page and the items loaded: it drops
	// duplicates and recognises a page that restarted from the top.
	read     api.RestartDetector[T]
	requests int
	added    span // the positions the last accepted page filled
	// addedRuns are the items it holds, when it overlapped nothing loaded;
	// addedClean says it did.
	addedRuns  []Run[T]
	addedClean bool
	// keep, while the list is thinned (Thin), is what it holds of the
	// items it reads; passed are the keys of the last of those it
	// dropped (read knows the ones it holds).
	keep   func(pos int, it *T) bool
	passed *api.RestartDetector[T]
	watch  func(items []T, total int)
}

// New makes a list over src with page size 200; ctx bounds every request
// (the shell cancels it when the screen closes); key gives an item's uid.
func New[T any](ctx context.Context, src Source[T], key func(*T) string) *List[T] {
	return &List[T]{ctx: ctx, src: src, key: key, size: DefaultPageSize, total: -1,
		read: api.NewRestartDetector(key)}
}

// SetPageSize changes the page size used by later requests.
func (l *List[T]) SetPageSize(n int) {
	if n > 0 {
		l.size = n
	}
}

// Watch has f told, in Update, of the items of each page the list takes
// and of the collection's total as the server gave it (-1: none): the
// shell learns what a screen loads (a repo's tags) without writing from
// the command that fetched it.
func (l *List[T]) Watch(f func(items []T, total int)) { l.watch = f }

// SetOrder sets the order_by of the first request; later changes go
// through Reset.
func (l *List[T]) SetOrder(order string) { l.order = order }

// Gen counts the resets: positions of one generation mean nothing in
// another.
func (l *List[T]) Gen() int { return l.gen }

// Order is the current server order_by ("" for the server's default).
func (l *List[T]) Order() string { return l.order }

// Reset drops everything loaded, switches to order, and asks for the first
// page. Answers to earlier requests are ignored from now on. An order the
// server refused for this list is not asked for again: the server's
// default order ("") is.
func (l *List[T]) Reset(order string) tea.Cmd {
	if l.refused[order] {
		order = ""
	}
	l.gen++
	l.order = order
	l.windows, l.pending, l.err, l.refreshing = nil, nil, nil, false
	l.total, l.exact, l.stale, l.fruitless = -1, false, 0, nil
	l.forgetRead()
	return l.fetch(Request{Size: l.size, OrderBy: order}, 0)
}

// Start asks for the first page unless something is loaded or loading.
func (l *List[T]) Start() tea.Cmd {
	if len(l.windows) > 0 || len(l.pending) > 0 || l.total >= 0 {
		return nil
	}
	return l.Reset(l.order)
}

// Total is the number of positions the list has, or -1 before the first
// answer: the server's count, or, when the server gives none, what is
// known so far plus one position to load more from while more follow
// (Count says which).
func (l *List[T]) Total() int { return l.total }

// Count is how many items the collection holds, as far as is known: the
// server's total (exact), or, when it gives none, the items up to the end
// of what is loaded, exact only once the last page came. -1 before the
// first answer.
func (l *List[T]) Count() (n int, exact bool) {
	if l.total < 0 || l.exact {
		return l.total, l.exact
	}
	return l.endOfLast(), false
}

// Exact reports whether Total is the collection's size (the server said,
// or the last page came), not a lower bound.
func (l *List[T]) Exact() bool { return l.exact }

// Ignored are the filters the server was seen to ignore for this list:
// its rows are those canopy kept itself.
func (l *List[T]) Ignored() []string { return l.ignored }

// Partial is why the items may miss some, as the last page said ("" for
// nothing missing).
func (l *List[T]) Partial() string { return l.partial }

// Len is the number of rows to show: the total when known, else what is
// loaded.
func (l *List[T]) Len() int {
	if l.total >= 0 {
		return l.total
	}
	return l.Loaded()
}

// Loaded counts the positions read: the items held, and while the list is
// thinned the items read and not kept too.
func (l *List[T]) Loaded() int {
	n := 0
	for i := range l.windows {
		n += l.windows[i].n
	}
	return n
}

// Contiguous is the number of positions read from position 0 without a gap.
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

// Refreshing reports whether a Refresh's first page is on its way: when it
// comes, it starts the list anew rather than adding to it.
func (l *List[T]) Refreshing() bool { return l.refreshing }

// Err is the error of the last failed request, and the position it was for.
func (l *List[T]) Err() (error, int) { return l.err, l.errAt }

// FailedAt reports whether position p is in the span whose request failed
// last (shown as a failed row until r; elsewhere the list goes on loading).
func (l *List[T]) FailedAt(p int) bool { return l.err != nil && p >= l.errAt && p < l.errEnd }

// Done reports whether every position is read (held, or dropped by Thin).
func (l *List[T]) Done() bool {
	return l.total >= 0 && len(l.windows) == 1 && l.windows[0].start == 0 && l.windows[0].end() >= l.total
}

// At returns the item at list position i, if held.
func (l *List[T]) At(i int) (*T, bool) {
	w := l.windowAt(i)
	if w == nil {
		return nil, false
	}
	return w.item(i - w.start)
}

// Each calls fn with every item held and its position, in order, until fn
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
