package ui

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/bind"
	"canopy/views/identity"
	"canopy/views/picker"
	"canopy/views/tree"
)

// firstRoles are offered first, in this order, so `b 1` binds viewer.
func firstRoles() []string { return []string{"viewer", "editor", "owner"} }

// bindFlow opens the binding flow with what is already chosen.
func (e *env) bindFlow(ids []bind.Identity, role, group *bind.Choice) tea.Cmd {
	// The loaders run in commands: they get the organization now, not
	// from env (which only Update touches).
	org := *e.org
	return e.open(func(ctx context.Context) views.Screen {
		return bind.New(ctx, e.common, bind.Config{Identities: ids, Role: role, Group: group,
			LoadIdentities: func(ctx context.Context) ([]picker.Option, error) { return e.identityOptions(ctx, org) },
			LoadRoles:      func(ctx context.Context) ([]picker.Option, error) { return e.roleOptions(ctx, org) },
			LoadGroups:     func(ctx context.Context) ([]picker.Option, error) { return e.groupChoices(ctx, org) },
			Bind:           e.bindOne, Many: e.bindMany, Outcome: e.outcomeOf("bound"),
			Bindings: kindFor[api.RoleBinding](e.kinds).changedIn})
	})
}

// bindOne binds role to identity on group in a request of its own; label
// says it (for :changes). A lost answer is looked up: a binding found is
// returned with the error that says how it was learnt.
func (e *env) bindOne(ctx context.Context, group, identity, role, label string) (*api.RoleBinding, error) {
	n := &api.Note{What: "bind " + label}
	b, err := e.client.CreateRoleBinding(api.WithNote(ctx, n), group, api.CreateRoleBinding{IdentityUID: identity, RoleUID: role})
	if err == nil {
		e.changes.answered(n, b)
	}
	if !api.MaybeMade(err) {
		return b, err
	}
	// The answer was lost: does the server have the binding?
	found, lookErr := e.client.FindRoleBinding(ctx, group, identity, role)
	if found != nil {
		return found, e.lookedUp(n, err, true, "the server has it: bound", "bound", nil)
	}
	return nil, e.lookedUp(n, err, false, "the server does not have it", "bound", lookErr)
}

// bindItem starts the flow from a resource: an identity, a group or a role.
func (e *env) bindItem(item any) tea.Cmd {
	if k := e.kinds.of(item); k != nil && k.bind != nil {
		return k.bind(e, item)
	}
	return nil
}

// bindNode starts the flow from a tree node.
func (e *env) bindNode(n *tree.Node) tea.Cmd { return e.bindItem(n.Item) }

func identityOf(id *api.Identity) bind.Identity {
	return bind.Identity{UID: id.UID, Name: id.Name, Group: api.ParentUID(id.UID)}
}

// bindIdentities starts the flow for identities marked in a table.
func (e *env) bindIdentities(ids []*api.Identity) tea.Cmd {
	out := make([]bind.Identity, len(ids))
	for i, id := range ids {
		out[i] = identityOf(id)
	}
	return e.bindFlow(out, nil, nil)
}

// roleOptions lists every role of the organization, viewer, editor and
// owner first, then the other built-in roles, then the custom ones.
func (e *env) roleOptions(ctx context.Context, org api.Group) ([]picker.Option, error) {
	// Built-in roles come whether or not the server lists them under a
	// filter (RolesOf).
	roles, err := e.client.RolesOf(ctx, org.UID)
	if err != nil {
		return nil, fmt.Errorf("list roles: %w", err)
	}
	first := firstRoles()
	rank := func(r api.Role) int {
		if i := slices.Index(first, r.Name); i >= 0 {
			return i
		}
		if api.ParentUID(r.UID) == "" {
			return len(first) // other built-in roles
		}
		return len(first) + 1
	}
	slices.SortStableFunc(roles, func(a, b api.Role) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a.Name, b.Name))
	})
	opts := make([]picker.Option, len(roles))
	for i, r := range roles {
		opts[i] = picker.Option{Label: safe.Of(r.Name),
			Detail: safe.Of(r.Description) + safe.Of(fmt.Sprintf(" · %d capabilities", len(r.Capabilities))),
			Value:  bind.Choice{UID: r.UID, Name: r.Name}}
	}
	return opts, nil
}

// groupChoices lists the organization and its folders by path.
func (e *env) groupChoices(ctx context.Context, org api.Group) ([]picker.Option, error) {
	groups, err := e.groups(ctx, org)
	if err != nil {
		return nil, err
	}
	opts := groupOptions(groups)
	for i := range opts {
		uid := opts[i].Value.(string)
		opts[i].Value = bind.Choice{UID: uid, Name: string(opts[i].Label)}
	}
	return opts, nil
}

// identityOptions lists the organization's identities.
func (e *env) identityOptions(ctx context.Context, org api.Group) ([]picker.Option, error) {
	var opts []picker.Option
	// By name, as people look for them (the API's default order is by uid).
	cur := api.NewCursor(e.client.ListIdentities, api.ListOptions{DescendantsOf: org.UID, PageSize: api.MaxPageSize,
		OrderBy: api.OrderName}, api.IdentityKey)
	for id, err := range cur.All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("list identities: %w", err)
		}
		// Whose tokens assume it (a subject, a pattern marked "~"), else
		// what it is for.
		detail := identity.Subject(&id)
		if detail == "" {
			detail = safe.Of(id.Description)
		}
		opts = append(opts, picker.Option{Label: safe.Of(id.Name), Detail: detail, Value: identityOf(&id)})
	}
	return opts, nil
}

// bindOne starts the flow from a marked folder or role: a binding is on
// one folder, of one role.
func bindOne[T any](e *env, items []*T, noun string) tea.Cmd {
	if len(items) > 1 {
		return views.FlashError(fmt.Sprintf("%s binds on one %s at a time and %d are marked: %s unmarks them",
			e.common.Key(keymap.Bind), noun, len(items), e.common.Key(keymap.Back)))
	}
	return e.bindItem(items[0])
}

// newBinding is `n` in a bindings table: the flow, on the table's folder
// when it shows one folder's bindings.
func (e *env) newBinding(opts api.ListOptions, where string) tea.Cmd {
	if st := e.common.Change(keymap.New); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	if opts.ChildrenOf != "" {
		return e.bindFlow(nil, nil, &bind.Choice{UID: opts.ChildrenOf, Name: where})
	}
	return e.bindFlow(nil, nil, nil)
}

// bindingsOff are the keys a bindings table cannot honour, and why.
func bindingsOff(keys *keymap.KeyMap) []keymap.State {
	return []keymap.State{
		keymap.Off(keymap.Bind, keys.Key(keymap.Bind)+" binds from an identity, a folder or a role; here "+
			keys.Key(keymap.New)+" makes a new binding"),
	}
}
