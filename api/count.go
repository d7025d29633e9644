package api

import (
	"context"
	"strconv"
)

// Count is how many items a collection holds, as far as a count could
// tell: exactly when the server gave a total or every page was read, else
// at least N.
type Count struct {
	N     int64
	Exact bool
	// Own: the server ignored a filter asked (Page.Ignored), so N is what
	// canopy counted of the items it read and kept, not a total of the
	// server's; Read is how many items it read.
	Own  bool
	Read int64
}

// String is "12" for an exact count and "200+" for a lower bound.
func (c Count) String() string {
	s := strconv.FormatInt(c.N, 10)
	if !c.Exact {
		s += "+"
	}
	return s
}

// CountItems counts a collection: one small request when the server gives
// totals (totalCount is optional), else it reads up to maxPages pages of
// the largest size and says "at least" when more remain.
func CountItems[T any](ctx context.Context, list Lister[T], opts ListOptions, maxPages int) (Count, error) {
	opts.PageToken, opts.Skip, opts.PageSize = "", 0, 1
	p, err := list(ctx, opts)
	if err != nil {
		return Count{}, err
	}
	own := len(p.Ignored) > 0
	if p.HasTotal {
		return Count{N: p.Total, Exact: true}, nil
	}
	if p.Last() {
		return Count{N: int64(len(p.Items)), Exact: true, Own: own, Read: int64(len(p.Items) + p.Dropped)}, nil
	}
	// No total: read pages, following their tokens, up to maxPages.
	opts.PageSize = MaxPageSize
	var n, read int64
	for range max(maxPages, 1) {
		if p, err = list(ctx, opts); err != nil {
			return Count{}, err
		}
		n, read, own = n+int64(len(p.Items)), read+int64(len(p.Items)+p.Dropped), own || len(p.Ignored) > 0
		if p.Last() {
			return Count{N: n, Exact: true, Own: own, Read: read}, nil
		}
		opts.PageToken = p.NextPageToken
	}
	return Count{N: n, Own: own, Read: read}, nil
}
