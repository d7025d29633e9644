package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/safe"
	"canopy/views/table"
	"canopy/views/tree"
)

func (e *env) groupsTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Group]{Title: title, Columns: columns.Groups(e.common), Refused: e.orders.of(colGroups),
		List: paging.New(ctx, source(e.client.ListGroups, opts), api.GroupKey), Key: api.GroupKey,
		Orders: columns.Orders(), Open: pageOf[api.Group](e), Copy: uidCopy(api.GroupKey), Edit: editOf[api.Group](ctx, e),
		Bind:   func(gs []*api.Group) tea.Cmd { return bindOne(e, gs, "folder") },
		New:    func() tea.Cmd { return e.createForm(tree.KindFolder, e.org.UID, safe.String(e.org.Name)) },
		Watch:  func(id string) bool { return id == e.org.UID || api.IsDescendant(id, e.org.UID) },
		Delete: rowDelete(e, "folder", "folders", func(g *api.Group) string { return g.Name })})
}

// spansFolders reports whether a table's rows can live in several folders
// (its scope is a whole subtree), which then shows a FOLDER column.
func spansFolders(o api.ListOptions) bool { return o.DescendantsOf != "" }

// folderColumn is the FOLDER column's resolver for a table of this scope,
// nil for a table of one folder.
func (e *env) folderColumn(o api.ListOptions) columns.Folders {
	if !spansFolders(o) {
		return nil
	}
	return columns.Folders(e.folderPaths)
}

// loadedIn asks for the folder names of rows that span folders.
func loadedIn[T any](e *env, o api.ListOptions, key func(*T) string) func([]*T) tea.Cmd {
	if !spansFolders(o) {
		return nil
	}
	return func(items []*T) tea.Cmd {
		groups := make([]string, len(items))
		for i, it := range items {
			groups[i] = api.ParentUID(key(it))
		}
		return e.folders(groups...)
	}
}

func (e *env) reposTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Repo]{Title: title, Columns: columns.ReposIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colRepos),
		Loaded: loadedIn(e, opts, api.RepoKey),
		List:   paging.New(ctx, source(e.client.ListRepos, opts), api.RepoKey), Key: api.RepoKey,
		Orders: columns.Orders(), Copy: uidCopy(api.RepoKey), Edit: editOf[api.Repo](ctx, e),
		New:    func() tea.Cmd { return e.createForm(tree.KindRepo, scopeOf(opts), whereOf(title)) },
		Watch:  prefixed("repos:"),
		Delete: rowDelete(e, "repo", "repos", func(r *api.Repo) string { return r.Name }),
		Server: &table.ServerFilter[api.Repo]{Chip: columns.RepoNameChip, List: func(p string) *paging.List[api.Repo] {
			o := opts
			o.Name = p
			return paging.New(ctx, source(e.client.ListRepos, o), api.RepoKey)
		}},
		Open: func(r *api.Repo) tea.Cmd {
			uid, name := r.UID, safe.String(r.Name)
			return e.open(func(ctx context.Context) views.Screen {
				return e.tagsTable(ctx, "tags of "+name, api.ListOptions{ChildrenOf: uid}, name)
			})
		}})
}

// tagsTable lists the tags of one repo (repoName set) or of many.
func (e *env) tagsTable(ctx context.Context, title string, opts api.ListOptions, repoName string) views.Screen {
	return e.tagsTableOf(ctx, title, opts, repoName, false)
}

// tagsTableOf is a tag table; deprecatedOnly starts it showing only
// deprecated tags (scanning every page; the title then says so). A table of
// many repos (repoName "") has a REPO column, whose names are looked up as
// rows arrive. H reloads it with the kinds of tags the API hides.
func (e *env) tagsTableOf(ctx context.Context, title string, opts api.ListOptions, repoName string, deprecatedOnly bool) views.Screen {
	var names columns.Names
	var loaded func([]*api.Tag) tea.Cmd
	if repoName == "" {
		names = e.repoResolver
		loaded = func(ts []*api.Tag) tea.Cmd {
			uids := make([]string, len(ts))
			for i, t := range ts {
				uids[i] = api.ParentUID(t.UID)
			}
			return e.need(repoNames, uids...)
		}
	}
	// withHidden is opts asking for the hidden kinds of tags too when the
	// table shows them (H); the server filter follows it.
	showHidden := false
	withHidden := func(o api.ListOptions) api.ListOptions {
		o.IncludeDates, o.IncludeEpochs, o.IncludeReferrers = showHidden, showHidden, showHidden
		return o
	}
	tags := e.client.ListTags
	// The plain pages of one repo's tags are what its tag set learns from.
	watched := func(l *paging.List[api.Tag], o api.ListOptions) *paging.List[api.Tag] {
		return watchTags(e.tags, l, o, func(t *api.Tag) *api.Tag { return t })
	}
	var counted func(int, int) tea.Cmd
	if repoName != "" {
		repoUID := opts.ChildrenOf
		counted = func(n, total int) tea.Cmd {
			return func() tea.Msg { return views.CountedMsg{ID: repoUID, Count: n, Total: total} }
		}
	}
	repo := func(t *api.Tag) string {
		if repoName != "" {
			return repoName
		}
		if n := e.repoName(api.ParentUID(t.UID)); n != "" {
			return n
		}
		return api.ParentUID(t.UID)
	}
	var create func() tea.Cmd
	var watch func(string) bool
	if repoName != "" {
		repoUID := opts.ChildrenOf
		create = func() tea.Cmd { return e.createForm(tree.KindTag, repoUID, repoName) }
		watch = func(id string) bool { return id == repoUID }
	}
	return table.New(e.common, table.Config[api.Tag]{Title: title, Columns: columns.Tags(e.common, names), New: create, Watch: watch, Refused: e.orders.of(colTags),
		List: watched(paging.New(ctx, source(tags, opts), api.TagKey), opts), Key: api.TagKey, Loaded: loaded,
		Hidden: &table.Hidden[api.Tag]{Noun: "hidden tags",
			List: func(on bool) *paging.List[api.Tag] {
				showHidden = on
				return watched(paging.New(ctx, source(tags, withHidden(opts)), api.TagKey), withHidden(opts))
			},
			Count: func() (int, error) {
				o := opts
				o.IncludeDates, o.IncludeEpochs, o.IncludeReferrers, o.PageSize = true, true, true, 1
				p, err := e.client.ListTags(ctx, o)
				if err != nil {
					return 0, fmt.Errorf("count hidden tags: %w", err)
				}
				// Without a total (it is optional) the count is unknown: -1.
				return int(p.TotalOr(-1)), nil
			}},
		Orders: columns.TagOrders(), RowKind: columns.TagRow, Open: pageOf[api.Tag](e),
		Copy:    func(t *api.Tag) (string, string) { return t.Digest, "digest" },
		CopyRef: func(t *api.Tag) (string, string) { return pullRef(e.org.Name, repo(t), t) },
		CopyMany: func(ts []*api.Tag) (string, string) {
			lines := make([]string, len(ts))
			for i, t := range ts {
				lines[i] = repo(t) + ":" + t.Name + "@" + t.Digest
			}
			return strings.Join(lines, "\n") + "\n", fmt.Sprintf("%d repo:tag@digest lines", len(ts))
		},
		Flag:         &table.Flag[api.Tag]{Name: "deprecated", Noun: "tags", Is: func(t *api.Tag) bool { return t.Deprecated }, Counted: counted},
		FlaggedFirst: deprecatedOnly,
		Delete:       rowDelete(e, "tag", "tags", func(t *api.Tag) string { return repo(t) + ":" + t.Name }),
		Server: &table.ServerFilter[api.Tag]{Chip: columns.TagNameChip, List: func(p string) *paging.List[api.Tag] {
			o := withHidden(opts)
			o.Name = p
			return paging.New(ctx, source(tags, o), api.TagKey)
		}}})
}

func (e *env) identitiesTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Identity]{Title: title, Columns: columns.IdentitiesIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colIdentities),
		Loaded: loadedIn(e, opts, api.IdentityKey),
		List:   paging.New(ctx, source(e.client.ListIdentities, opts), api.IdentityKey), Key: api.IdentityKey,
		Orders: columns.Orders(), Open: pageOf[api.Identity](e), Copy: uidCopy(api.IdentityKey), Edit: editOf[api.Identity](ctx, e),
		Bind:   e.bindIdentities,
		New:    func() tea.Cmd { return e.createForm(tree.KindIdentity, scopeOf(opts), whereOf(title)) },
		Watch:  prefixed("identities:"),
		Delete: rowDelete(e, "identity", "identities", func(i *api.Identity) string { return i.Name })})
}

func (e *env) bindingsTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	orders := []table.Order{{Label: "newest first", OrderBy: api.OrderCreatedDesc}, {Label: "oldest first", OrderBy: api.OrderCreated}}
	return table.New(e.common, table.Config[api.RoleBinding]{Title: title, Columns: columns.BindingsIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colBindings),
		Loaded: loadedIn(e, opts, api.RoleBindingKey),
		List:   paging.New(ctx, source(e.client.ListRoleBindings, opts), api.RoleBindingKey), Key: api.RoleBindingKey,
		Orders: orders, Open: pageOf[api.RoleBinding](e), Copy: uidCopy(api.RoleBindingKey),
		Watch:  prefixed("role bindings:"),
		New:    func() tea.Cmd { return e.newBinding(opts, whereOf(title)) },
		Off:    bindingsOff(e.common.Keys),
		Delete: rowDelete(e, "role binding", "role bindings", func(b *api.RoleBinding) string { return bindingLabel(b) })})
}

func (e *env) rolesTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
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

func (e *env) advisoriesTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	orders := append([]table.Order{{Label: "recently updated", OrderBy: api.OrderUpdatedDesc}}, columns.Orders()[:3]...)
	return table.New(e.common, table.Config[api.Advisory]{Title: title, Columns: columns.Advisories(e.common), Refused: e.orders.of(colAdvisories),
		List: paging.New(ctx, source(e.client.ListAdvisories, opts), api.AdvisoryKey), Key: api.AdvisoryKey,
		Orders: orders, Open: pageOf[api.Advisory](e), Copy: uidCopy(api.AdvisoryKey),
		Server: &table.ServerFilter[api.Advisory]{
			Chip: func(p string) string { chip, _ := columns.AdvisoryFilter(p); return chip },
			List: func(p string) *paging.List[api.Advisory] {
				o := opts
				if _, isID := columns.AdvisoryFilter(p); isID {
					o.AdvisoryIDs = []string{p}
				} else {
					o.Query = p
				}
				return paging.New(ctx, source(e.client.ListAdvisories, o), api.AdvisoryKey)
			}}})
}

func (e *env) subscriptionsTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Subscription]{Title: title, Columns: columns.SubscriptionsIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colSubscriptions),
		Loaded: loadedIn(e, opts, api.SubscriptionKey),
		List:   paging.New(ctx, source(e.client.ListSubscriptions, opts), api.SubscriptionKey), Key: api.SubscriptionKey,
		Orders: []table.Order{{Label: "server order"}}, Open: pageOf[api.Subscription](e), Copy: uidCopy(api.SubscriptionKey),
		New:    func() tea.Cmd { return e.createForm(tree.KindSubscription, scopeOf(opts), whereOf(title)) },
		Watch:  prefixed("subscriptions:"),
		Delete: rowDelete(e, "subscription", "subscriptions", func(s *api.Subscription) string { return s.Sink })})
}

func (e *env) artifactsTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Artifact]{Title: title, Columns: columns.Artifacts(e.common), Refused: e.orders.of(colArtifacts),
		List: paging.New(ctx, source(e.client.ListArtifacts, opts), api.ArtifactKey), Key: api.ArtifactKey,
		Orders: columns.Orders()[:2], Copy: uidCopy(api.ArtifactKey),
		Open: func(a *api.Artifact) tea.Cmd {
			uid, name := a.UID, safe.String(a.Name)
			return e.open(func(ctx context.Context) views.Screen { return e.versionsTable(ctx, "versions of "+name, uid) })
		}})
}

func (e *env) versionsTable(ctx context.Context, title, artifact string) views.Screen {
	list := func(ctx context.Context, o api.ListOptions) (*api.Page[api.ArtifactVersion], error) {
		return e.client.ListArtifactVersions(ctx, artifact, o)
	}
	return table.New(e.common, table.Config[api.ArtifactVersion]{Title: title, Columns: columns.Versions(e.common), Refused: e.orders.of(colVersions),
		List: paging.New(ctx, source(list, api.ListOptions{}), api.ArtifactVersionKey), Key: api.ArtifactVersionKey,
		Orders: columns.VersionOrders(), Open: pageOf[api.ArtifactVersion](e), Copy: uidCopy(api.ArtifactVersionKey)})
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

// editOf is a table's in-place editor: the main field of the row.
func editOf[T any](ctx context.Context, e *env) func(*T) *form.Config {
	return func(it *T) *form.Config {
		c := *it
		eds := e.edits(&c)
		if len(eds) == 0 {
			return nil
		}
		cfg := e.formOf(ctx, eds[0])
		return &cfg
	}
}

// scopeOf is the group (or repo) a table's list is scoped to.
func scopeOf(o api.ListOptions) string {
	if o.ChildrenOf != "" {
		return o.ChildrenOf
	}
	return o.DescendantsOf
}

// whereOf is the place a table's title names ("repos of platform" →
// "platform").
func whereOf(title string) string {
	if _, where, ok := strings.Cut(title, " of "); ok {
		return where
	}
	return title
}

// prefixed watches changes to collections of one kind ("repos:…").
func prefixed(prefix string) func(string) bool {
	return func(id string) bool { return strings.HasPrefix(id, prefix) }
}

// rowDelete deletes a table's rows (the marked ones together) after the
// shell's dialog; name is how the user knows a row's resource.
func rowDelete[T any](e *env, noun, nouns string, name func(*T) string) *table.Delete[T] {
	return &table.Delete[T]{Noun: noun, Nouns: nouns, Ask: func(items []*T, done func(dialog.Settled) tea.Msg) tea.Cmd {
		ds := make([]doomed, len(items))
		for i, it := range items {
			ds[i] = doomed{item: it, name: name(it)}
		}
		return e.askDelete(ds, done)
	}}
}
