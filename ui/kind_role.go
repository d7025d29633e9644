package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/bind"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/table"
)

// roleKind: a set of capabilities, built in or the organization's own.
type roleKind struct{ is[api.Role] }

func (roleKind) of() string            { return resource.Role }
func (roleKind) shape() shape          { return shape{list: colRoles} }
func (roleKind) page(*env) detail.Page { return detail.RolePage() }
func (roleKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "roles", api.ListOptions{DescendantsOf: e.org.UID}
}
func (roleKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return rolesTable(e, ctx, title, o)
}
func (roleKind) bind(e *env, r *api.Role) tea.Cmd {
	return e.bindFlow(nil, &bind.Choice{UID: r.UID, Name: r.Name}, nil)
}

func rolesTable(e *env, ctx context.Context, title safe.Text, opts api.ListOptions) views.Screen {
	src := source(e.client.ListRoles, opts)
	orders := columns.Orders()[:2]
	if opts.DescendantsOf != "" && opts.DescendantsOf == e.org.UID {
		// Every role that may be bound here, built-in ones included
		// whether or not the server lists them under a filter: gathered
		// whole (roles are few), built-in first.
		src = rolesOf(e.client, opts.DescendantsOf)
		orders = []table.Order{{Label: "built-in first"}}
	}
	return table.New(e.common, table.Config[api.Role]{Title: title, Columns: columns.Roles(e.common), Refused: e.orders.of(colRoles),
		List: paging.New(ctx, src, api.RoleKey), Key: api.RoleKey,
		Orders: orders, Open: pageOf[api.Role](e), Copy: uidCopy(api.RoleKey),
		Bind: func(rs []*api.Role) tea.Cmd { return bindOne(e, rs, "role") }})
}

// rolesOf is a source of one page: the roles of an organization
// (api.Client.RolesOf), in its order whatever order is asked.
func rolesOf(c *api.Client, org string) paging.Source[api.Role] {
	return func(ctx context.Context, req paging.Request) (paging.Result[api.Role], error) {
		if req.Token != "" || req.Skip > 0 {
			return paging.Result[api.Role]{}, nil // one page holds them all
		}
		roles, err := c.RolesOf(ctx, org)
		if err != nil {
			return paging.Result[api.Role]{}, listError(err, req)
		}
		return paging.Result[api.Role]{Items: roles, Total: int64(len(roles))}, nil
	}
}

// roleNamed is the uid of the role of that name (or uid) among those that
// may be bound in the organization, built-in ones included; a name no
// role has is refused beside the form's field key, naming a few roles.
func roleNamed(ctx context.Context, c *api.Client, org, key, name string) (string, error) {
	roles, err := c.RolesOf(ctx, org)
	if err != nil {
		return "", fmt.Errorf("list roles: %w", err)
	}
	names := make([]string, 0, len(roles))
	for _, r := range roles {
		if r.Name == name || r.UID == name {
			return r.UID, nil
		}
		names = append(names, r.Name)
	}
	if len(names) > 5 {
		names = append(names[:5], "…")
	}
	return "", &fieldError{key: key, why: "no role is named " + strconv.Quote(safe.String(name)) + " (" + safe.String(strings.Join(names, ", ")) + ")"}
}
