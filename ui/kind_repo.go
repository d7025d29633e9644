package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/plugin"
	"canopy/resource"
	"canopy/safe"
	"canopy/saved"
	"canopy/text"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/tree"
)

// repoKind: an image repository, in a folder, holding tags.
type repoKind struct{ is[api.Repo] }

func (repoKind) of() string { return resource.Repo }
func (repoKind) shape() shape {
	return shape{list: colRepos, byName: true, node: true, collection: true, flags: true}
}

// page: a repo's page reads its readme with e's client, rendered within
// e's budget, and counts its tags and advisories from what e's caches
// hold of them, keeping there what it counts.
func (repoKind) page(e *env) detail.Page {
	return detail.RepoPage(detail.RepoSources{
		Readme: func(ctx context.Context, uid string) (string, error) {
			r, err := e.client.GetRepoReadme(ctx, uid)
			if err != nil {
				return "", fetchError("readme", err)
			}
			return r.Content, nil
		},
		ReadmeBudget: e.renderBudget,
		Resolved:     e.resolvedSources(),
		Stats:        e.repoStats,
		KnownStats:   e.knownStats,
		Counted:      e.counted,
		EditReadme:   e.editReadme,
	})
}
func (repoKind) vars(e *env, r *api.Repo, _ any) plugin.Vars {
	return plugin.Vars{"Repo": r.Name, "Image": registryHost + "/" + e.org.Name + "/" + r.Name}
}
func (repoKind) inFolder(b builder, parent *tree.Node, group string) *tree.Node {
	return repoNodes(b, parent, group)
}
func (repoKind) folder(r *api.Repo) string { return api.ParentUID(r.UID) }
func (repoKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "repos of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (repoKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return reposTable(e, ctx, title, o)
}
func (repoKind) create(e *env, parent, parentName string) tea.Cmd {
	return newRepo(e, parent, parentName)
}
func (repoKind) inside(e *env, n *tree.Node) tea.Cmd { return tagForm(e, n.ID, string(n.Label)) }
func (repoKind) childTable(e *env, ctx context.Context, n *tree.Node) views.Screen {
	return tagsTable(e, ctx, "tags of "+n.Label, api.ListOptions{ChildrenOf: n.ID}, string(n.Label))
}
func (repoKind) childView(_ *env, n *tree.Node) *saved.View {
	if r, ok := n.Item.(*api.Repo); ok {
		return &saved.View{Of: resource.Must(resource.Tag).Command, In: r.Name}
	}
	return nil
}
func (repoKind) children() string                        { return "tags" }
func (repoKind) edits(c *api.Client, r *api.Repo) []edit { return repoEdits(c, r) }

// access: w on a repo is who holds what in its folder (bindings are on
// folders: a repo holds what its folder does).
func (repoKind) access(_ *env, r *api.Repo) (whoseAccess, safe.Text) {
	return accessOfFolder(r.UID, r.Name), "access to " + safe.Of(r.Name) + " (its folder's)"
}
func (repoKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteRepo(ctx, uid)
}
func (repoKind) find(c *api.Client, ctx context.Context, o api.ListOptions) (*api.Page[api.Repo], error) {
	return c.ListRepos(ctx, o)
}
func (repoKind) get(c *api.Client, ctx context.Context, uid string) (*api.Repo, error) {
	return c.GetRepo(ctx, uid)
}
func (repoKind) lost(e *env, cfg *dialog.Config, repos []*api.Repo) {
	uids, c, many := uidsOf(repos, api.RepoKey), e.client, len(repos) > 1
	cfg.Facts = func(ctx context.Context) ([]safe.Text, error) {
		n, err := sum(ctx, uids, func(ctx context.Context, uid string) (api.Count, error) {
			return total(ctx, c.ListTags, api.ListOptions{ChildrenOf: uid,
				IncludeReferrers: true, IncludeEpochs: true, IncludeDates: true})
		})
		if err != nil {
			return nil, fmt.Errorf("count tags: %w", err)
		}
		return []safe.Text{safe.Of(goWith(n, many, "tag", "tags", ": pulls by any of their names stop working.", ": pulls by its name stop working."))}, nil
	}
}

// forget: r on a repo's page counts its tags and advisories again.
func (repoKind) forget(e *env, r *api.Repo) {
	if e.org != nil {
		e.caches().Tags.Forget(r.UID)
		e.caches().Advisories.Forget(r.Name)
	}
}
func (repoKind) advisories(e *env, r *api.Repo) tea.Cmd { return e.repoAdvisories(r.Name) }

// notes: a collapsed repo's row notes its advisories; an open one has its
// tags' counts there, and its page the advisories.
func (repoKind) notes(e *env, r *api.Repo, expanded bool) []safe.Text {
	if c, _, ok := e.caches().Advisories.Get(r.Name); ok && !expanded {
		return adviceNotes(c)
	}
	return nil
}
func (repoKind) renamed(e *env, r *api.Repo) { e.repoNamer.renamed(r.UID, r.Name) }
func (repoKind) updated(n *tree.Node, _, r *api.Repo) {
	n.Item, n.Label = r, safe.Of(r.Name)
}

// newRepo is the form of a new repo in a folder.
func newRepo(e *env, parent, parentName string) tea.Cmd {
	c := e.client
	return e.createForm("repo", parentName, creation{parent: parent, sends: api.Repos.Create(parent), named: "name",
		fields: []form.Field{
			{Key: "name", Label: "name", Validate: matching(api.RepoName, "lower-case letters, digits, . _ - /, at most 128"), Max: api.RepoName.Max()},
			{Key: "description", Label: "description", Validate: description, Max: api.DescriptionMax},
			{Key: "catalogTier", Label: "tier", Choices: tiers(), ChoiceLabel: tierLabel},
		},
		submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateRepo(ctx, parent, api.Repo{Name: v["name"], Description: v["description"], CatalogTier: v["catalogTier"]})
		},
		find: func(ctx context.Context, v map[string]string) (any, error) {
			return found(c.FindRepo(ctx, parent, v["name"]))
		}})
}

func reposTable(e *env, ctx context.Context, title safe.Text, opts api.ListOptions) views.Screen {
	advisories := func(r *api.Repo) tea.Cmd { return e.repoAdvisories(r.Name) }
	return table.New(e.common, table.Config[api.Repo]{Title: title, Columns: columns.ReposIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colRepos),
		Loaded: loadedIn(e, opts, api.RepoKey),
		List:   paging.New(ctx, source(e.client.ListRepos, opts), api.RepoKey), Key: api.RepoKey,
		Orders: columns.Orders(), Copy: uidCopy(api.RepoKey), Edit: editOf[api.Repo](ctx, e), Advisories: advisories,
		New:    func() tea.Cmd { return newRepo(e, scopeOf(opts), whereOf(string(title))) },
		Watch:  kindFor[api.Repo](e.kinds).watched,
		Delete: rowDelete[api.Repo](e),
		Server: &table.ServerFilter[api.Repo]{Chip: columns.RepoNameChip, List: func(p string) *paging.List[api.Repo] {
			o := opts
			o.Name = p
			return paging.New(ctx, source(e.client.ListRepos, o), api.RepoKey)
		}},
		Page: pageOf[api.Repo](e),
		Open: func(r *api.Repo) tea.Cmd {
			uid, name := r.UID, safe.String(r.Name)
			return e.open(func(ctx context.Context) views.Screen {
				return tagsTable(e, ctx, "tags of "+safe.Of(name), api.ListOptions{ChildrenOf: uid}, name)
			})
		}})
}

// repoEdits: a repo's description, tier, bundles and aliases; a synced
// repo takes all but its description from its source (the server refuses
// changes to them).
func repoEdits(c *api.Client, it *api.Repo) []edit {
	r := *it
	send := func(ctx context.Context, mask string, set func(*api.Repo)) (any, error) {
		next := r
		set(&next)
		return c.PatchRepo(ctx, next, mask)
	}
	eds := []edit{
		{mask: api.FieldDescription, sends: api.Repos.Patch(r.UID, api.FieldDescription), name: r.Name, noun: "repo",
			fields: []form.Field{{Key: "description", Label: "description", Value: r.Description, Validate: description, Max: api.DescriptionMax}},
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				return send(ctx, api.FieldDescription, func(x *api.Repo) { x.Description = v["description"] })
			}},
		{mask: api.FieldCatalogTier, sends: api.Repos.Patch(r.UID, api.FieldCatalogTier), name: r.Name, noun: "repo",
			fields: []form.Field{{Key: "catalogTier", Label: "tier", Value: r.CatalogTier, Choices: tiers(), ChoiceLabel: tierLabel}},
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				return send(ctx, api.FieldCatalogTier, func(x *api.Repo) { x.CatalogTier = v["catalogTier"] })
			}},
		{mask: api.FieldBundles, sends: api.Repos.Patch(r.UID, api.FieldBundles), name: r.Name, noun: "repo",
			fields: []form.Field{{Key: "bundles", Label: "bundles", Value: joined(r.Bundles), Placeholder: "comma separated"}},
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				return send(ctx, api.FieldBundles, func(x *api.Repo) { x.Bundles = list(v["bundles"]) })
			}},
		{mask: api.FieldAliases, sends: api.Repos.Patch(r.UID, api.FieldAliases), name: r.Name, noun: "repo",
			fields: []form.Field{{Key: "aliases", Label: "aliases", Value: joined(r.Aliases), Placeholder: "comma separated"}},
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				return send(ctx, api.FieldAliases, func(x *api.Repo) { x.Aliases = list(v["aliases"]) })
			}},
	}
	if r.SyncConfig != nil {
		return eds[:1]
	}
	return eds
}

// repoNodes is a folder's repos, each with its tags.
func repoNodes(b builder, parent *tree.Node, group string) *tree.Node {
	n := collection(parent, kindFor[api.Repo](b.kinds), group)
	n.Children = b.list(kindFor[api.Repo](b.kinds), nodes(source(b.client.ListRepos, api.ListOptions{ChildrenOf: group}),
		func(r *api.Repo) *tree.Node { return b.repo(r, n) }))
	if b.advise != nil {
		// Each page of repos asks for their advisory counts (the rows'
		// notes); they come in the background.
		n.Children.Watch(func(items []*tree.Node, _ int) {
			names := make([]string, 0, len(items))
			for _, c := range items {
				if r, ok := c.Item.(*api.Repo); ok {
					names = append(names, r.Name)
				}
			}
			b.advise(names...)
		})
	}
	return n
}

func (b builder) repo(r *api.Repo, parent *tree.Node) *tree.Node {
	rc := *r
	n := child(parent, &tree.Node{ID: r.UID, Kind: kindFor[api.Repo](b.kinds).node, Label: safe.Of(r.Name), Item: &rc})
	o := api.ListOptions{ChildrenOf: r.UID}
	n.Children = watchTags(b.tags, b.list(kindFor[api.Tag](b.kinds), nodes(source(b.client.ListTags, o),
		func(t *api.Tag) *tree.Node {
			tc := *t
			return child(n, &tree.Node{ID: t.UID, Kind: kindFor[api.Tag](b.kinds).node, Label: safe.Of(t.Name),
				Note: safe.Of(text.Short(t.Digest, 12)), Item: &tc, Deprecated: t.Deprecated})
		})), o, func(c **tree.Node) *api.Tag {
		t, _ := (*c).Item.(*api.Tag)
		return t
	})
	return n
}
