package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/safe"
	"canopy/views"
	"canopy/views/bind"
	"canopy/views/form"
	"canopy/views/picker"
	"canopy/views/tree"
)

// A binding's role changed in place: `e` on a binding (its row, its tree
// node, its page) opens the bind flow's role picker on the role it has;
// the role chosen opens the edit's form, which previews the PATCH of
// role_uid and sends it. The binding keeps its uid; u gives it its old
// role back; a lost answer is looked up (the binding read again) before
// anything is sent again, as every edit's is.

// edits: a binding has one, its role.
func (bindingKind) edits(c *api.Client, b *api.RoleBinding) []edit { return bindingEdits(c, b) }

// updated: the node of a binding notes its role.
func (bindingKind) updated(n *tree.Node, _, b *api.RoleBinding) {
	n.Item = b
	if b.Role != nil {
		n.Note = safe.Of(b.Role.Name)
	}
}

// bindingEdits is the role of b, by name (the value its form shows, and
// what :changes and the status line say); the uid sent is the role's of
// that name among those the edit knows (the role b has, and the one
// chosen), else the organization's role of that name.
func bindingEdits(c *api.Client, b *api.RoleBinding) []edit {
	var role api.Ref
	if b.Role != nil {
		role = *b.Role
	}
	_, who, group := bindingNames(b)
	ed := edit{mask: api.FieldRoleUID, sends: api.RoleBindings.Patch(b.UID, api.FieldRoleUID), name: who + " on " + group,
		noun: "role binding", fields: []form.Field{{Key: "role", Label: "role", Value: role.Name}},
		patch: rolePatch(c, b.UID, map[string]string{role.Name: role.UID})}
	it := *b
	ed.choose = func(e *env, ed edit) tea.Cmd { return e.rebind(ed, &it) }
	return []edit{ed}
}

// rolePatch sends the role named by a form's values to the binding uid.
func rolePatch(c *api.Client, uid string, known map[string]string) func(ctx context.Context, v map[string]string) (any, error) {
	return func(ctx context.Context, v map[string]string) (any, error) {
		role, ok := known[v["role"]]
		if !ok || role == "" {
			var err error
			if role, err = roleNamed(ctx, c, api.RootUID(uid), "role", v["role"]); err != nil {
				return nil, err
			}
		}
		return c.PatchRoleBinding(ctx, uid, role)
	}
}

// rebind is the flow that changes b's role: the role picker (on the role
// it has), then the form of the edit ed with the role chosen, whose
// choices are that role and the one it has.
func (e *env) rebind(ed edit, b *api.RoleBinding) tea.Cmd {
	if b.Identity == nil || b.Role == nil {
		return views.FlashError(fmt.Sprintf("the server did not say who %s binds or to which role: r reads it again", safe.String(ed.name)))
	}
	org, c := *e.org, e.client
	current := bind.Choice{UID: b.Role.UID, Name: b.Role.Name}
	_, _, group := bindingNames(b)
	return e.open(func(ctx context.Context) views.Screen {
		return bind.New(ctx, e.common, bind.Config{
			Identities: []bind.Identity{{UID: b.Identity.UID, Name: b.Identity.Name, Group: api.ParentUID(b.Identity.UID)}},
			Group:      &bind.Choice{UID: api.ParentUID(b.UID), Name: group}, Current: &current,
			LoadRoles: func(ctx context.Context) ([]picker.Option, error) { return e.roleOptions(ctx, org) },
			Edit: func(role bind.Choice) form.Config {
				next := ed
				next.choose = nil
				next.start = map[string]string{"role": role.Name}
				choices := []string{role.Name}
				if role.Name != current.Name {
					choices = append(choices, current.Name)
				}
				next.fields = []form.Field{{Key: "role", Label: "role", Value: current.Name, Choices: choices}}
				next.patch = rolePatch(c, b.UID, map[string]string{current.Name: current.UID, role.Name: role.UID})
				cfg := e.formOf(ctx, next)
				cfg.Page = true
				return cfg
			}})
	})
}
