package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/plugin"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/bind"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/identity"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/tree"
)

// identityKind: who a workload acts as, by the claims of its token.
type identityKind struct{ is[api.Identity] }

func (identityKind) of() string { return resource.Identity }
func (identityKind) shape() shape {
	return shape{list: colIdentities, byName: true, node: true, collection: true}
}

// page: an identity's page reads its role bindings with e's client.
func (identityKind) page(e *env) detail.Page {
	return detail.IdentityPageOf(func(ctx context.Context, identity string) ([]api.RoleBinding, error) {
		cur := api.NewCursor(e.client.ListRoleBindings, api.ListOptions{Identity: identity, PageSize: api.MaxPageSize}, api.RoleBindingKey)
		var out []api.RoleBinding
		for rb, err := range cur.All(ctx) {
			if err != nil {
				return out, fetchError("role bindings", err)
			}
			out = append(out, rb)
		}
		return out, nil
	}, e.profileOf)
}
func (identityKind) vars(_ *env, id *api.Identity, _ any) plugin.Vars {
	return plugin.Vars{"Email": id.Email}
}
func (identityKind) inFolder(b builder, parent *tree.Node, group string) *tree.Node {
	return identityNodes(b, parent, group)
}
func (identityKind) folder(i *api.Identity) string { return api.ParentUID(i.UID) }
func (identityKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "identities of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (identityKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return identitiesTable(e, ctx, title, o)
}
func (identityKind) create(e *env, parent, parentName string) tea.Cmd {
	return newIdentity(e, parent, parentName)
}
func (identityKind) edits(c *api.Client, it *api.Identity) []edit {
	id := *it
	return append([]edit{{mask: api.FieldDescription, sends: api.Identities.Patch(id.UID, api.FieldDescription), name: id.Name, noun: "identity",
		fields: []form.Field{{Key: "description", Label: "description", Value: id.Description, Validate: description, Max: api.DescriptionMax}},
		patch: func(ctx context.Context, v map[string]string) (any, error) {
			next := id
			next.Description = v["description"]
			return c.PatchIdentity(ctx, next, api.FieldDescription)
		}}}, claimEdits(c, id)...)
}

// access: w on an identity is its access in each folder.
func (identityKind) access(_ *env, it *api.Identity) (whoseAccess, safe.Text) {
	return whoseAccess{identity: it.UID}, "access of " + safe.Of(it.Name)
}
func (identityKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteIdentity(ctx, uid)
}
func (identityKind) find(c *api.Client, ctx context.Context, o api.ListOptions) (*api.Page[api.Identity], error) {
	return c.ListIdentities(ctx, o)
}
func (identityKind) get(c *api.Client, ctx context.Context, uid string) (*api.Identity, error) {
	return c.GetIdentity(ctx, uid)
}
func (identityKind) lost(e *env, cfg *dialog.Config, ids []*api.Identity) {
	uids, c, many := uidsOf(ids, api.IdentityKey), e.client, len(ids) > 1
	cfg.Facts = func(ctx context.Context) ([]safe.Text, error) {
		n, err := sum(ctx, uids, func(ctx context.Context, uid string) (api.Count, error) {
			return total(ctx, c.ListRoleBindings, api.ListOptions{Identity: uid})
		})
		if err != nil {
			return nil, fmt.Errorf("count role bindings: %w", err)
		}
		return []safe.Text{safe.Of(goWith(n, many, "role binding", "role bindings", ": what they grant ends.", ": what it grants ends."))}, nil
	}
	if many {
		cfg.Lines = append(cfg.Lines, "Workloads whose tokens match their claims can no longer act as them.")
	} else {
		cfg.Lines = append(cfg.Lines, "Workloads whose tokens match its claims can no longer act as it.")
	}
}

// related: its bindings go with it.
func (identityKind) related(r *registry, i *api.Identity) []views.Change {
	return []views.Change{kindFor[api.RoleBinding](r).changedIn(api.ParentUID(i.UID))}
}
func (identityKind) bind(e *env, i *api.Identity) tea.Cmd {
	return e.bindFlow([]bind.Identity{identityOf(i)}, nil, nil)
}
func (identityKind) updated(n *tree.Node, _, i *api.Identity) {
	n.Item = i
	if i.ClaimMatch != nil {
		n.Note = safe.Of(i.ClaimMatch.Subject)
	}
}

// newIdentity is the form of a new identity in a folder.
func newIdentity(e *env, parent, parentName string) tea.Cmd {
	c := e.client
	return e.createForm("identity", parentName, creation{parent: parent, sends: api.Identities.Create(parent), named: "name",
		fields: []form.Field{
			{Key: "name", Label: "name", Validate: matching(api.IdentityName, "3 to 63 of a-z 0-9 space . _ -"), Max: api.IdentityName.Max()},
			{Key: "description", Label: "description", Validate: description, Max: api.DescriptionMax},
			{Key: "claimMatch.issuer", Label: "issuer", Placeholder: "https://token.actions.githubusercontent.com", Validate: issuerURL},
			{Key: "claimMatch.subject", Label: "subject", Placeholder: "repo:org/app:ref:refs/heads/main", Validate: required},
		},
		submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateIdentity(ctx, parent, api.Identity{Name: v["name"], Description: v["description"],
				ClaimMatch: &api.ClaimMatch{Issuer: v["claimMatch.issuer"], Subject: v["claimMatch.subject"]}})
		},
		find: func(ctx context.Context, v map[string]string) (any, error) {
			return found(c.FindIdentity(ctx, parent, v["name"]))
		}})
}

func identitiesTable(e *env, ctx context.Context, title safe.Text, opts api.ListOptions) views.Screen {
	return identitiesTableWhere(e, ctx, title, opts, nil)
}

// identitiesTableWhere is a table of the identities keep accepts (nil:
// all of them).
func identitiesTableWhere(e *env, ctx context.Context, title safe.Text, opts api.ListOptions, keep func(*api.Identity) bool) views.Screen {
	src := source(e.client.ListIdentities, opts)
	if keep != nil {
		src = kept(src, keep)
	}
	return identitiesTableFrom(e, ctx, title, opts, src, kindFor[api.Identity](e.kinds).watched)
}

// identitiesTableFrom is a table of identities read from src (opts is
// what it lists), loaded again on the changes watch names.
func identitiesTableFrom(e *env, ctx context.Context, title safe.Text, opts api.ListOptions, src paging.Source[api.Identity],
	watch func(views.Change) bool) views.Screen {
	return table.New(e.common, table.Config[api.Identity]{Title: title, Columns: columns.IdentitiesIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colIdentities),
		Loaded: loadedIn(e, opts, api.IdentityKey),
		List:   paging.New(ctx, src, api.IdentityKey), Key: api.IdentityKey,
		Orders: columns.Orders(), Open: pageOf[api.Identity](e), Copy: uidCopy(api.IdentityKey), Edit: editOf[api.Identity](ctx, e),
		Bind:   e.bindIdentities,
		New:    func() tea.Cmd { return newIdentity(e, scopeOf(opts), whereOf(string(title))) },
		Watch:  watch,
		Delete: rowDelete[api.Identity](e)})
}

// identityNodes is a folder's identities, each noting its subject.
func identityNodes(b builder, parent *tree.Node, group string) *tree.Node {
	return folderNodes(b, parent, group, b.client.ListIdentities, func(id *api.Identity) (safe.Text, safe.Text) {
		return safe.Of(id.Name), identity.Subject(id)
	})
}
