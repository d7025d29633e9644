package api

import (
	"context"
	"errors"
	"fmt"
)

// Finding what a change left behind when its answer was lost
// (OutcomeUnknown): before a create is offered again, the caller looks up
// whether the server has the resource, by what identifies it under its
// parent (a name; a sink; an identity, role and group). Each Find returns
// the resource, nil when the server certainly does not have it, or an
// error when that cannot be told: "not there" must be sure, since it is
// what allows sending again, so a listing that does not end within
// findPages pages (a server that ignores the filter) is an error, not
// "not there".

// findPages bounds the pages read to find one resource: a filtered list
// is one short page; a server that ignores the filter is not read to its
// end.
const findPages = 10

// ErrFindIncomplete is the cause of a Find that stopped before the end of
// the listing: whether the resource is there is not known.
var ErrFindIncomplete = errors.New("the listing did not end within the pages read: cannot tell")

// find walks list with opts, at most findPages pages, for the first item
// that match keeps (every item is checked: the server's filter is not
// trusted to be exact).
func find[T any](ctx context.Context, list Lister[T], opts ListOptions, match func(*T) bool) (*T, error) {
	opts.PageSize = MaxPageSize
	seen := map[string]bool{}
	for range findPages {
		p, err := list(ctx, opts)
		if err != nil {
			return nil, err
		}
		for i := range p.Items {
			if match(&p.Items[i]) {
				return &p.Items[i], nil
			}
		}
		if p.Last() {
			return nil, nil
		}
		if seen[p.NextPageToken] {
			return nil, fmt.Errorf("%w (%w)", ErrFindIncomplete, ErrPagingStuck)
		}
		seen[p.NextPageToken] = true
		opts.PageToken = p.NextPageToken
	}
	return nil, ErrFindIncomplete
}

// FindRepo finds the repo named name directly in group.
func (c *Client) FindRepo(ctx context.Context, group, name string) (*Repo, error) {
	r, err := find(ctx, c.ListRepos, ListOptions{ChildrenOf: group, Name: name}, func(r *Repo) bool {
		return r.Name == name && ParentUID(r.UID) == group
	})
	if err != nil {
		return nil, fmt.Errorf("find repo %q in %s: %w", name, group, err)
	}
	return r, nil
}

// FindGroup finds the folder named name directly under parent.
func (c *Client) FindGroup(ctx context.Context, parent, name string) (*Group, error) {
	g, err := find(ctx, c.ListGroups, ListOptions{ChildrenOf: parent, Name: name}, func(g *Group) bool {
		return g.Name == name && ParentUID(g.UID) == parent
	})
	if err != nil {
		return nil, fmt.Errorf("find folder %q in %s: %w", name, parent, err)
	}
	return g, nil
}

// FindIdentity finds the identity named name directly in group.
func (c *Client) FindIdentity(ctx context.Context, group, name string) (*Identity, error) {
	id, err := find(ctx, c.ListIdentities, ListOptions{ChildrenOf: group, Name: name}, func(id *Identity) bool {
		return id.Name == name && ParentUID(id.UID) == group
	})
	if err != nil {
		return nil, fmt.Errorf("find identity %q in %s: %w", name, group, err)
	}
	return id, nil
}

// FindTag finds the tag named name of a repo, of whatever kind (referrer,
// epoch and dated tags included).
func (c *Client) FindTag(ctx context.Context, repo, name string) (*Tag, error) {
	t, err := find(ctx, c.ListTags, ListOptions{ChildrenOf: repo, Name: name,
		IncludeReferrers: true, IncludeEpochs: true, IncludeDates: true}, func(t *Tag) bool {
		return t.Name == name && ParentUID(t.UID) == repo
	})
	if err != nil {
		return nil, fmt.Errorf("find tag %q of %s: %w", name, repo, err)
	}
	return t, nil
}

// FindSubscription finds a subscription of group to sink. Subscriptions
// have no name to filter by: the group's are listed and compared.
func (c *Client) FindSubscription(ctx context.Context, group, sink string) (*Subscription, error) {
	s, err := find(ctx, c.ListSubscriptions, ListOptions{ChildrenOf: group}, func(s *Subscription) bool {
		return s.Sink == sink && ParentUID(s.UID) == group
	})
	if err != nil {
		return nil, fmt.Errorf("find subscription of %s to %s: %w", group, sink, err)
	}
	return s, nil
}

// FindRoleBinding finds the binding of role to identity on group.
func (c *Client) FindRoleBinding(ctx context.Context, group, identity, role string) (*RoleBinding, error) {
	b, err := find(ctx, c.ListRoleBindings, ListOptions{Group: group, Identity: identity, Role: role}, func(b *RoleBinding) bool {
		return b.Group != nil && b.Group.UID == group && b.Identity != nil && b.Identity.UID == identity &&
			b.Role != nil && b.Role.UID == role
	})
	if err != nil {
		return nil, fmt.Errorf("find binding of role %s to %s on %s: %w", role, identity, group, err)
	}
	return b, nil
}
