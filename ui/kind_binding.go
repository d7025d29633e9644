package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/bind"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/tree"
)

// bindingKind: a role granted to an identity on a folder (and below it).
type bindingKind struct{ is[api.RoleBinding] }

func (bindingKind) of() string { return resource.Binding }
func (bindingKind) shape() shape {
	return shape{list: colBindings, node: true, collection: true}
}
func (bindingKind) page(*env) detail.Page { return detail.BindingPage() }
func (bindingKind) inFolder(b builder, parent *tree.Node, group string) *tree.Node {
	return bindingNodes(b, parent, group)
}
func (bindingKind) title(b *api.RoleBinding) safe.Text {
	return "binding " + safe.Of(bindingLabel(b))
}
func (bindingKind) label(b *api.RoleBinding) string  { return bindingLabel(b) }
func (bindingKind) folder(b *api.RoleBinding) string { return api.ParentUID(b.UID) }
func (bindingKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "role bindings of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (bindingKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return bindingsTable(e, ctx, title, o)
}
func (bindingKind) create(e *env, group, groupName string) tea.Cmd {
	return e.bindFlow(nil, nil, &bind.Choice{UID: group, Name: groupName})
}

// access: w on a binding is its identity's access.
func (bindingKind) access(_ *env, b *api.RoleBinding) (whoseAccess, safe.Text) {
	if b.Identity == nil {
		return whoseAccess{}, ""
	}
	return whoseAccess{identity: b.Identity.UID}, "access of " + safe.Of(b.Identity.Name)
}
func (bindingKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteRoleBinding(ctx, uid)
}
func (bindingKind) get(c *api.Client, ctx context.Context, uid string) (*api.RoleBinding, error) {
	return c.GetRoleBinding(ctx, uid)
}
func (bindingKind) lost(_ *env, cfg *dialog.Config, bs []*api.RoleBinding) {
	if len(bs) > 1 {
		cfg.Lines = append(cfg.Lines, "Each identity loses that role on that folder (and below it), unless another binding grants it.")
		return
	}
	role, who, group := bindingNames(bs[0])
	cfg.Lines = append(cfg.Lines, safe.Of(who+" loses "+role+" on "+group+" (and below it), unless another binding grants it."))
}

// related: a binding shows in its identity's detail.
func (bindingKind) related(_ *registry, b *api.RoleBinding) []views.Change {
	if b.Identity != nil {
		return []views.Change{views.Changed(b.Identity.UID)}
	}
	return nil
}

func bindingsTable(e *env, ctx context.Context, title safe.Text, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.RoleBinding]{Title: title, Columns: columns.BindingsIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colBindings),
		Loaded: loadedIn(e, opts, api.RoleBindingKey),
		List:   paging.New(ctx, source(e.client.ListRoleBindings, opts), api.RoleBindingKey), Key: api.RoleBindingKey,
		Orders: columns.BindingOrders(), Open: pageOf[api.RoleBinding](e), Copy: uidCopy(api.RoleBindingKey), Edit: editOf[api.RoleBinding](ctx, e),
		Watch:  kindFor[api.RoleBinding](e.kinds).watched,
		Holds:  func(b *api.RoleBinding) bool { return api.Allows(opts, b) },
		New:    func() tea.Cmd { return e.newBinding(opts, whereOf(string(title))) },
		Off:    bindingsOff(e.common.Keys),
		Delete: rowDelete[api.RoleBinding](e)})
}

// bindingNames are a hydrated binding's role, identity and group names,
// safe to print ("?" for a part the server did not send).
func bindingNames(b *api.RoleBinding) (role, who, group string) {
	role, who, group = "?", "?", "?"
	if b.Role != nil {
		role = safe.String(b.Role.Name)
	}
	if b.Identity != nil {
		who = safe.String(b.Identity.Name)
	}
	if b.Group != nil {
		group = safe.String(b.Group.Name)
	}
	return role, who, group
}

// bindingLabel is "viewer → ci-bot on platform".
func bindingLabel(b *api.RoleBinding) string {
	role, who, group := bindingNames(b)
	return role + " → " + who + " on " + group
}

// bindingNodes is a folder's role bindings: who, noting the role.
func bindingNodes(b builder, parent *tree.Node, group string) *tree.Node {
	return folderNodes(b, parent, group, b.client.ListRoleBindings, func(rb *api.RoleBinding) (safe.Text, safe.Text) {
		who, role := "?", "?"
		if rb.Identity != nil {
			who = rb.Identity.Name
		}
		if rb.Role != nil {
			role = rb.Role.Name
		}
		return safe.Of(who), safe.Of(role)
	})
}
