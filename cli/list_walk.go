package cli

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"

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
func pages[T any](ctx context.Context, noun string, list api.Lister[T], key func(*T) string, opts api.ListOptions, maxItems int,
	emit func([]T) error) (n int, err error) {
	c := api.NewCursor(list, opts, compactKey(key))
	longest := 0
	for !c.Done() {
		p, err := c.Next(ctx)
		if err != nil {
			return n, err
		}
		if p == nil {
			break
		}
		items := p.Items
		longest = max(longest, len(items))
		capped := n+len(items) > maxItems
		if capped {
			items = items[:maxItems-n]
		}
		if err := emit(items); err != nil {
			return n, err
		}
		n += len(items)
		total, known := c.Total()
		switch {
		case c.Done() && !capped:
			return n, nil
		case known && total > 0 && int64(n) > total+total/10+int64(longest):
			return n, fmt.Errorf("the server kept sending %s past its own total of %d: stopped after %d", noun, total, n)
		case capped || n >= maxItems:
			of := ""
			if known && total > int64(n) {
				of = fmt.Sprintf(" of the %d it counts", total)
			}
			return n, fmt.Errorf("stopped after %d %s%s, the most canopy list reads of a collection (--max-items raises it)", n, noun, of)
		}
	}
	return n, nil
}

// compactKey is key as the cursor keeps it for every item read (to drop
// repeats and see a restart): 8 bytes, a hash of the uid under a seed of
// this walk, rather than the uid's 60 or so: at --max-items' default the
// set holds some 70 MB instead of 115. The seed is random, so a server cannot aim
// at a collision (which would drop an item as a repeat); by chance one
// comes about once in 10^7 walks of a million items.
func compactKey[T any](key func(*T) string) func(*T) string {
	seed := maphash.MakeSeed()
	return func(t *T) string {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], maphash.String(seed, key(t)))
		return string(b[:])
	}
}

// walk reads a collection as pages does and returns its items; when the
// server refuses the order (it does not sort this collection that way)
// before anything was emitted, walk says so once on stderr and reads the
// collection again in the server's default order: a script gets every row
// rather than none.
func walk[T any](ctx context.Context, r listRequest, noun string, list api.Lister[T], key func(*T) string, opts api.ListOptions,
	emit func([]T) error) error {
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
