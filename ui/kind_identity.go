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
func identityKind() spec[api.Identity] {
	return spec[api.Identity]{of: resource.Identity,
		vars:     func(_ *env, id *api.Identity, _ any) plugin.Vars { return plugin.Vars{"Email": id.Email} },
		inFolder: identityNodes,
		list:     colIdentities, byName: true,
		page:   detail.IdentityPage(),
		name:   func(i *api.Identity) string { return i.Name },
		uid:    func(i *api.Identity) string { return i.UID },
		folder: func(i *api.Identity) string { return api.ParentUID(i.UID) },
		whole: func(e *env) (safe.Text, api.ListOptions) {
			return "identities of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
		},
		table:   identitiesTable,
		hasNode: true, hasCollection: true,
		create: newIdentity,
		edits: func(c *api.Client, it *api.Identity) []edit {
			id := *it
			return append([]edit{{mask: api.FieldDescription, sends: api.Identities.Patch(id.UID, api.FieldDescription), name: id.Name, noun: "identity",
				fields: []form.Field{{Key: "description", Label: "description", Value: id.Description, Validate: description, Max: api.DescriptionMax}},
				patch: func(ctx context.Context, v map[string]string) (any, error) {
					next := id
					next.Description = v["description"]
					return c.PatchIdentity(ctx, next, api.FieldDescription)
				}}}, claimEdits(c, id)...)
		},
		del:  (*api.Client).DeleteIdentity,
		find: (*api.Client).ListIdentities,
		get:  (*api.Client).GetIdentity,
		lost: func(e *env, cfg *dialog.Config, ids []*api.Identity) {
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
		},
		// Its bindings go with it.
		related: func(r *registry, i *api.Identity) []views.Change {
			return []views.Change{kindFor[api.RoleBinding](r).changedIn(api.ParentUID(i.UID))}
		},
		bind: func(e *env, i *api.Identity) tea.Cmd { return e.bindFlow([]bind.Identity{identityOf(i)}, nil, nil) },
		updated: func(n *tree.Node, _, i *api.Identity) {
			n.Item = i
			if i.ClaimMatch != nil {
				n.Note = safe.Of(i.ClaimMatch.Subject)
			}
		},
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
	return table.New(e.common, table.Config[api.Identity]{Title: title, Columns: columns.IdentitiesIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colIdentities),
		Loaded: loadedIn(e, opts, api.IdentityKey),
		List:   paging.New(ctx, src, api.IdentityKey), Key: api.IdentityKey,
		Orders: columns.Orders(), Open: pageOf[api.Identity](e), Copy: uidCopy(api.IdentityKey), Edit: editOf[api.Identity](ctx, e),
		Bind:   e.bindIdentities,
		New:    func() tea.Cmd { return newIdentity(e, scopeOf(opts), whereOf(string(title))) },
		Watch:  kindFor[api.Identity](e.kinds).watched,
		Delete: rowDelete[api.Identity](e)})
}

// identityNodes is a folder's identities, each noting its subject.
func identityNodes(b builder, parent *tree.Node, group string) *tree.Node {
	return folderNodes(b, parent, group, b.client.ListIdentities, func(id *api.Identity) (safe.Text, safe.Text) {
		return safe.Of(id.Name), identity.Subject(id)
	})
}
