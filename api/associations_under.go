package api

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// A folder's own association and those of the folders below it: an
// association's uid is its folder's, and whether the service counts a
// folder among its own descendants (uidp.descendants_of) it does not say.
// A walk of them reads the folder's own by its uid and puts it first, and
// drops it from the service's pages wherever they have it, so that it is
// listed once either way; totals and skips are then those of the list it
// makes.

// underWalk is one walk's memory of the folder's own association: whether
// it has one, and whether the service's list counts it (then its totals
// and skips already do).
type underWalk struct {
	c     *Client
	mu    sync.Mutex
	group string // the folder learnt about; "" before
	own   *AccountAssociation
	// counted: the service lists the folder's own among its descendants.
	counted bool
}

// AccountAssociationsUnder lists the associations of opts.DescendantsOf
// and of every folder below it, the folder's own first, for one walk (a
// table, canopy list): what it learns on the first page serves the next.
// Without DescendantsOf it is ListAccountAssociations.
func (c *Client) AccountAssociationsUnder() Lister[AccountAssociation] {
	w := &underWalk{c: c}
	return w.list
}

func (w *underWalk) list(ctx context.Context, opts ListOptions) (*Page[AccountAssociation], error) {
	group := opts.DescendantsOf
	if group == "" {
		return w.c.ListAccountAssociations(ctx, opts)
	}
	first := opts.PageToken == "" && opts.Skip == 0
	own, counted, known := w.known(group)
	var err error
	switch {
	case first:
		if own, err = w.findOwn(ctx, group); err != nil {
			return nil, err
		}
		if own != nil && opts.PageSize > 1 {
			opts.PageSize-- // the folder's own takes the first place
		}
	case !known:
		if own, err = w.findOwn(ctx, group); err != nil {
			return nil, err
		}
		if counted, err = w.counts(ctx, group, own); err != nil {
			return nil, err
		}
		w.learnt(group, own, counted)
	}
	// A skip counts the rows before it; the first of them is the folder's
	// own, which the service does not count when it does not list it.
	shifted := !first && opts.PageToken == "" && own != nil && !counted
	if shifted {
		opts.Skip--
	}
	p, err := w.c.ListAccountAssociations(ctx, opts)
	if err != nil {
		return nil, err
	}
	listed := false
	kept := p.Items[:0]
	for _, a := range p.Items {
		if a.UID == group {
			listed = true
			continue
		}
		kept = append(kept, a)
	}
	p.Items = kept
	if first {
		// Listed, the service counts it; not listed on a last page, it
		// does not; else one more listing tells.
		counted = listed
		if own != nil && !listed && !p.Last() {
			if counted, err = w.counts(ctx, group, own); err != nil {
				return nil, err
			}
		}
		w.learnt(group, own, counted)
	}
	if own != nil && !counted {
		if p.HasTotal {
			p.Total++
		}
		if shifted {
			p.Skipped++
		}
	}
	if first && own != nil {
		p.Items = append([]AccountAssociation{*own}, p.Items...)
	}
	return p, nil
}

// known is what the walk knows of group's own association.
func (w *underWalk) known(group string) (*AccountAssociation, bool, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.own, w.counted, w.group == group
}

// learnt keeps what the walk learnt of group's own association.
func (w *underWalk) learnt(group string, own *AccountAssociation, counted bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.group, w.own, w.counted = group, own, counted
}

// findOwn reads group's own association: nil for none, and for a caller
// who may not read it (who then walks what is below it).
func (w *underWalk) findOwn(ctx context.Context, group string) (*AccountAssociation, error) {
	own, err := w.c.FindAccountAssociation(ctx, group)
	if IsPermissionDenied(err) {
		return nil, nil
	}
	return own, err
}

// counts asks whether the service lists group's own association among
// group's descendants, with one listing by its name.
func (w *underWalk) counts(ctx context.Context, group string, own *AccountAssociation) (bool, error) {
	if own == nil {
		return false, nil
	}
	p, err := w.c.ListAccountAssociations(ctx, ListOptions{DescendantsOf: group, Name: own.Name, PageSize: MaxPageSize})
	if err != nil {
		return false, fmt.Errorf("ask whether the service lists a folder's own association among its descendants: %w", err)
	}
	return slices.ContainsFunc(p.Items, func(a AccountAssociation) bool { return a.UID == group }), nil
}
