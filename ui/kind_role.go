package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/bind"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/paging"
	"canopy/views/table"
)

// roleKind: a set of capabilities, built in or the organization's own.
// A custom one is made, changed and deleted here (role_write.go); the
// service's own are not.
type roleKind struct{ is[api.Role] }

func (roleKind) of() string   { return resource.Role }
func (roleKind) shape() shape { return shape{list: colRoles} }

// page: its capabilities by domain, and who holds it: a custom role in
// its organization; a built-in one wherever the token sees (the page is
// read in a command, which must not read the env's organization).
func (roleKind) page(e *env) detail.Page {
	c := e.client
	return detail.RolePage(detail.RoleSources{Catalogue: capabilityOptions(nil), Bindings: func(ctx context.Context, role string) ([]api.RoleBinding, error) {
		org := api.RootUID(role)
		if api.ParentUID(role) == "" {
			org = "" // built in
		}
		return roleBindings(ctx, c, org, role)
	}})
}
func (roleKind) edits(c *api.Client, r *api.Role) []edit { return roleEdits(c, r) }
func (roleKind) get(c *api.Client, ctx context.Context, uid string) (*api.Role, error) {
	return c.GetRole(ctx, uid)
}

// access: w on a role is where it is held.
func (roleKind) access(_ *env, r *api.Role) (whoseAccess, safe.Text) {
	return whoseAccess{role: r.UID}, "where " + safe.Of(r.Name) + " is held"
}
func (roleKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteRole(ctx, uid)
}

// keys on its page: n starts a custom role from its capabilities; d
// deletes a custom one; a built-in one's e and d are off, saying why.
func (roleKind) keys(e *env, r *api.Role) []keymap.State {
	out := []keymap.State{e.common.Change(keymap.New).Saying("new from it").Does(func() tea.Cmd { return newRole(e, r) })}
	if r.BuiltIn() {
		return append(out, builtInOff(e.common.Keys, r)...)
	}
	return append(out, e.common.Change(keymap.Delete).Does(func() tea.Cmd {
		return e.askDelete([]doomed{{item: r, name: r.Name}}, nil)
	}))
}

// lost: the dialog lists the bindings that hold the roles, read from the
// server. The service refuses to delete a role still bound (roles.proto);
// were it to delete one, its bindings would go with it (related).
func (roleKind) lost(e *env, cfg *dialog.Config, rs []*api.Role) {
	c, org := e.client, ""
	if e.org != nil {
		org = e.org.UID
	}
	cfg.Facts = func(ctx context.Context) ([]safe.Text, error) {
		var out []safe.Text
		bound := 0
		for _, r := range rs {
			bs, err := roleBindings(ctx, c, org, r.UID)
			if err != nil {
				return nil, fmt.Errorf("read who holds %s: %w", safe.String(r.Name), err)
			}
			bound += len(bs)
			if len(bs) > 0 {
				out = append(out, safe.Of(fmt.Sprintf("%s is held by %s: %s", r.Name, counted(api.Count{N: int64(len(bs)), Exact: true},
					"role binding", "role bindings"), heldBy(bs))))
			}
		}
		if bound == 0 && len(rs) > 1 {
			return []safe.Text{"No role binding holds them: nobody loses anything."}, nil
		}
		if bound == 0 {
			return []safe.Text{"No role binding holds it: nobody loses anything."}, nil
		}
		return append(out, "A role still bound is refused: delete its bindings first."), nil
	}
}

// related: were the service to delete a bound role, its bindings go too.
func (roleKind) related(r *registry, _ *api.Role) []views.Change {
	return []views.Change{kindFor[api.RoleBinding](r).changedIn("")}
}
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
	orders := columns.RoleOrders()
	if opts.DescendantsOf != "" && opts.DescendantsOf == e.org.UID {
		// Every role that may be bound here, built-in ones included
		// whether or not the server lists them under a filter: gathered
		// whole (roles are few), built-in first.
		src = rolesOf(e.client, opts.DescendantsOf)
		orders = columns.AllRoleOrders()
	}
	return table.New(e.common, table.Config[api.Role]{Title: title, Columns: columns.RolesIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colRoles),
		Loaded: loadedIn(e, opts, api.RoleKey),
		List:   paging.New(ctx, src, api.RoleKey), Key: api.RoleKey,
		Orders: orders, Open: pageOf[api.Role](e), Copy: uidCopy(api.RoleKey),
		Bind:   func(rs []*api.Role) tea.Cmd { return bindOne(e, rs, "role") },
		New:    func() tea.Cmd { return newRole(e, nil) },
		Edit:   editOf[api.Role](ctx, e),
		Delete: rolesDelete(e),
		RowOff: func(r *api.Role) []keymap.State { return builtInOff(e.common.Keys, r) },
		Watch:  kindFor[api.Role](e.kinds).watched})
}

// rolesDelete deletes the rows after the dialog; marked built-in roles
// are refused at once, named.
func rolesDelete(e *env) *table.Delete[api.Role] {
	d := rowDelete[api.Role](e)
	ask := d.Ask
	d.Ask = func(rs []*api.Role, done func(dialog.Settled) tea.Msg) tea.Cmd {
		for _, r := range rs {
			if r.BuiltIn() {
				return views.FlashError(builtInWhy(e.common.Keys, r, "deleted") + ": unmark it")
			}
		}
		return ask(rs, done)
	}
	return d
}

// roleBindings are the role bindings of a role in the organization org
// ("": wherever the token sees).
func roleBindings(ctx context.Context, c *api.Client, org, role string) ([]api.RoleBinding, error) {
	var out []api.RoleBinding
	cur := api.NewCursor(c.ListRoleBindings, api.ListOptions{Role: role, DescendantsOf: org, PageSize: api.MaxPageSize}, api.RoleBindingKey)
	for b, err := range cur.All(ctx) {
		if err != nil {
			return out, fetchError("role bindings", err)
		}
		// The filters are the server's, checked here too: a built-in role
		// is bound in every organization.
		if b.Role != nil && b.Role.UID != role || org != "" && (b.Group == nil || b.Group.UID != org && !api.IsDescendant(b.Group.UID, org)) {
			continue
		}
		out = append(out, b)
	}
	return out, nil
}

// heldBy names a few bindings: "alice → acme, bob → platform, and 3 more".
func heldBy(bs []api.RoleBinding) string {
	var parts []string
	for _, b := range bs[:min(len(bs), 3)] {
		who, where := "?", "?"
		if b.Identity != nil {
			who = b.Identity.Name
		}
		if b.Group != nil {
			where = b.Group.Name
		}
		parts = append(parts, who+" → "+where)
	}
	if len(bs) > 3 {
		parts = append(parts, fmt.Sprintf("and %d more", len(bs)-3))
	}
	return strings.Join(parts, ", ")
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
