package cli

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"canopy/api"
	"canopy/cli/exit"
)

// defaultMaxItems is the most items canopy list reads of one collection
// (--max-items): generous for a real organization, finite for a server
// whose pages never end.
const defaultMaxItems = 1_000_000

// pages walks a collection in opts' order, following nextPageToken to the
// end (it never needs a total, which the service may leave out), and hands
// each page's new items to emit as the page arrives. A server whose pages
// never end is stopped: when it has sent more than its own total (with a
// tenth and a page of slack, for items added meanwhile) or max items, the
// page is emitted and the walk ends with an error that says why. n is the
// items emitted.
//
// The next page is fetched while emit prints this one (a goroutine reads
// the pages ahead, one waiting at most while it reads the next): printing
// a page of JSON costs about as much as fetching it, and done one after
// the other they took up to twice as long as a walk. The fetcher stops where the walk stops, so it asks for no page
// more than the walk needs; it ends before pages returns, and with ctx.
func pages[T any](ctx context.Context, noun string, list api.Lister[T], key func(*T) string, opts api.ListOptions, maxItems int,
	emit func([]T) error) (n int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	// Depth 1: at most three pages are held, the one printed, the one
	// waiting and the one being read.
	fetched := make(chan fetchedPage[T], 1)
	go fetchPages(ctx, noun, list, key, opts, maxItems, fetched)
	defer func() {
		cancel()
		for range fetched { // the fetcher's last sends, until it has ended
		}
	}()
	for f := range fetched {
		if err := emit(f.items); err != nil {
			return n, err
		}
		n += len(f.items)
		if f.err != nil {
			return n, f.err
		}
	}
	return n, nil
}

// fetchedPage is a page's new items, cut at the ceiling, and the error
// that ends the walk once they are emitted, if any.
type fetchedPage[T any] struct {
	items []T
	err   error
}

// repeatWindow is how many of the last items read canopy list checks a
// new one against: about 1.5 MB, whatever the collection's size.
const repeatWindow = 100_000

// fetchPages reads the pages of pages' walk into out, and closes it when
// the walk is over: the last page read, or an error (sent, after the items
// read before it).
func fetchPages[T any](ctx context.Context, noun string, list api.Lister[T], key func(*T) string, opts api.ListOptions, maxItems int,
	out chan<- fetchedPage[T]) {
	defer close(out)
	// The cursor keeps what it read as 64-bit hashes of the keys, to drop
	// repeats and see a restart: only the last repeatWindow, so that what
	// a walk keeps does not grow with the items (a server that shifts its
	// pages repeats what it sent a page or two before).
	c := api.NewCursor(list, opts, key)
	c.Window(repeatWindow)
	n, longest := 0, 0
	for !c.Done() {
		p, err := c.Next(ctx)
		if err != nil {
			out <- fetchedPage[T]{err: err}
			return
		}
		if p == nil {
			return
		}
		items := p.Items
		longest = max(longest, len(items))
		capped := n+len(items) > maxItems
		if capped {
			items = items[:maxItems-n]
		}
		n += len(items)
		total, known := c.Total()
		f := fetchedPage[T]{items: items}
		switch {
		case c.Done() && !capped:
		case known && total > 0 && int64(n) > total+total/10+int64(longest):
			f.err = fmt.Errorf("the server kept sending %s past its own total of %d: stopped after %d", noun, total, n)
		case capped || n >= maxItems:
			of := ""
			if known && total > int64(n) {
				of = fmt.Sprintf(" of the %d it counts", total)
			}
			f.err = fmt.Errorf("stopped after %d %s%s, the most canopy list reads of a collection (--max-items raises it)", n, noun, of)
		}
		out <- f
		if f.err != nil {
			return
		}
	}
}

// walk reads a collection as pages does and returns its items; when the
// server refuses the order (it does not sort this collection that way)
// before anything was emitted, walk says so once on stderr and reads the
// collection again in the server's default order: a script gets every row
// rather than none.
func walk[T any](ctx context.Context, r listRequest, noun string, list api.Lister[T], key func(*T) string, opts api.ListOptions,
	emit func([]T) error) error {
	list, ignored := noticing(list)
	defer func() {
		if f := ignored(); len(f) > 0 {
			exit.Sayf(r.notes, "canopy list: the server ignored the %s filter of %s: the rows are those canopy kept itself", and(f), noun)
		}
	}()
	n, err := pages(ctx, noun, list, key, opts, r.maxItems, emit)
	if err != nil && n == 0 && opts.OrderBy != "" && api.RefusedOrder(err) {
		exit.Sayf(r.notes, "canopy list: the server does not sort %s %s; listed in its default order", noun, orderWords(opts.OrderBy))
		opts.OrderBy = ""
		_, err = pages(ctx, noun, list, key, opts, r.maxItems, emit)
	}
	switch {
	case err == nil:
		return nil
	case api.NotOnServer(err):
		return fmt.Errorf("list %s: this server does not serve them: %w", noun, err)
	}
	return fmt.Errorf("list %s: %w", noun, err)
}

// noticing is list, and what it saw: the filters its pages said the
// server ignored (Page.Ignored). The pages are read in a goroutine.
func noticing[T any](list api.Lister[T]) (api.Lister[T], func() []string) {
	var mu sync.Mutex
	var seen []string
	return func(ctx context.Context, o api.ListOptions) (*api.Page[T], error) {
			p, err := list(ctx, o)
			if p != nil {
				mu.Lock()
				for _, f := range p.Ignored {
					if !slices.Contains(seen, f) {
						seen = append(seen, f)
					}
				}
				mu.Unlock()
			}
			return p, err
		}, func() []string {
			mu.Lock()
			defer mu.Unlock()
			return slices.Clone(seen)
		}
}

// collect reads every item of a collection (at most maxItems) into a slice,
// for what needs them all before it prints anything.
func collect[T any](ctx context.Context, r listRequest, noun string, list api.Lister[T], key func(*T) string, opts api.ListOptions) ([]T, error) {
	var all []T
	err := walk(ctx, r, noun, list, key, opts, func(items []T) error {
		all = append(all, items...)
		return nil
	})
	return all, err
}

// orderWords says an order as a sentence does: "by name", "newest first".
func orderWords(orderBy string) string {
	switch orderBy {
	case api.OrderName:
		return "by name"
	case api.OrderNameDesc:
		return "by name, descending"
	case api.OrderCreated:
		return "oldest first"
	case api.OrderCreatedDesc:
		return "newest first"
	case api.OrderUpdated:
		return "least recently updated first"
	case api.OrderUpdatedDesc:
		return "recently updated first"
	}
	return fmt.Sprintf("by %q", orderBy)
}
