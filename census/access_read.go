package census

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"canopy/api"
)

// MaxAccessItems bounds each listing an access review reads (folders,
// identities, role bindings): an organization past it is answered in
// part, and the answers say so.
const MaxAccessItems = 50_000

// ReadAccess lists what an access review of org needs: its folders, its
// roles (the built-in ones too), identities and role bindings, each in
// pages of the largest size. A part the token may not read is named in
// Unread and the rest is answered; any other failure is returned.
func ReadAccess(ctx context.Context, c *api.Client, org api.Group, stale time.Duration, now time.Time) (*Access, error) {
	a := &Access{Layout: &Layout{Org: org.UID, Folders: map[string]string{org.UID: org.Name}}, Roles: map[string]api.Role{},
		Identities: map[string]api.Identity{}, Stale: stale, Now: now}
	unread := func(part string, err error) error {
		if api.IsPermissionDenied(err) {
			a.Unread = append(a.Unread, part+": not readable with this token")
			return nil
		}
		return fmt.Errorf("%s: %w", part, err)
	}
	groups, cut, err := listAll(ctx, c.ListGroups, api.ListOptions{DescendantsOf: org.UID}, api.GroupKey)
	if err != nil {
		if err := unread("folders", err); err != nil {
			return nil, err
		}
	}
	a.Truncated = a.Truncated || cut
	for _, g := range groups {
		a.Layout.Folders[g.UID] = g.Name
	}
	roles, err := c.RolesOf(ctx, org.UID)
	if err != nil {
		if err := unread("roles", err); err != nil {
			return nil, err
		}
	}
	for _, r := range roles {
		a.Roles[r.UID] = r
	}
	ids, cut, err := listAll(ctx, c.ListIdentities, api.ListOptions{DescendantsOf: org.UID}, api.IdentityKey)
	if err != nil {
		if err := unread("identities", err); err != nil {
			return nil, err
		}
	}
	a.Truncated = a.Truncated || cut
	for _, id := range ids {
		a.Identities[id.UID] = id
	}
	a.Bindings, cut, err = listAll(ctx, c.ListRoleBindings, api.ListOptions{DescendantsOf: org.UID}, api.RoleBindingKey)
	if err != nil {
		if err := unread("role bindings", err); err != nil {
			return nil, err
		}
	}
	a.Truncated = a.Truncated || cut
	return a, nil
}

// listAll lists a collection whole, at most MaxAccessItems (cut: more).
func listAll[T any](ctx context.Context, list api.Lister[T], o api.ListOptions, key func(*T) string) (out []T, cut bool, err error) {
	o.PageSize = api.MaxPageSize
	for it, err := range api.NewCursor(list, o, key).All(ctx) {
		if err != nil {
			return nil, false, err
		}
		if len(out) == MaxAccessItems {
			return out, true, nil
		}
		out = append(out, it)
	}
	return out, false, nil
}

// Partial says why the answers may miss something, "" when they do not.
func (a *Access) Partial() string {
	why := slices.Clone(a.Unread)
	if a.Truncated {
		why = append(why, fmt.Sprintf("a listing stopped at %d items", MaxAccessItems))
	}
	return strings.Join(why, "; ")
}
