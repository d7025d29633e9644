package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/picker"
	"canopy/views/safe"
	"canopy/views/table"
	"canopy/views/text"
	"canopy/views/tree"
)

// openMsg asks the shell to push a screen; build runs with the screen's own
// context, which the shell cancels when the screen closes.
type openMsg struct {
	build func(ctx context.Context) views.Screen
}

func open(build func(ctx context.Context) views.Screen) tea.Cmd {
	return func() tea.Msg { return openMsg{build: build} }
}

// namesMsg carries repo names for tables that span repos.
type namesMsg struct {
	names map[string]string
	err   error
}

// env is what screen builders share: the client, the common bag, the
// organization and the names learned so far. It is only touched on the UI
// loop (Update and View).
type env struct {
	ctx     context.Context
	client  *api.Client
	common  views.Common
	org     *api.Group
	names   map[string]string
	naming  bool
	changes *ChangeLog
}

func (e *env) builder(ctx context.Context) builder { return builder{ctx: ctx, client: e.client} }

// fetch is what a detail pane loads, and the binding flow it can start.
func (e *env) fetch(ctx context.Context) detail.Fetch {
	f := e.builder(ctx).fetch()
	f.Bind = e.bindItem
	f.Edits = func(item any) []form.Config {
		eds := e.edits(item)
		out := make([]form.Config, len(eds))
		for i, ed := range eds {
			out[i] = e.formOf(ctx, ed)
		}
		return out
	}
	return f
}

func (e *env) repoName(uid string) string { return e.names[uid] }

func uidCopy[T any](key func(*T) string) func(*T) (string, string) {
	return func(it *T) (string, string) { return key(it), "uid" }
}

// page opens a full-screen detail page for a resource.
func (e *env) page(item any) tea.Cmd {
	return open(func(ctx context.Context) views.Screen {
		return detail.NewPage(ctx, e.common, e.fetch(ctx), item)
	})
}

func pageOf[T any](e *env) func(*T) tea.Cmd {
	return func(it *T) tea.Cmd {
		c := *it
		return e.page(&c)
	}
}

func (e *env) groupsTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Group]{Title: title, Columns: columns.Groups(e.common),
		List: paging.New(ctx, source(e.client.ListGroups, opts), api.GroupKey), Key: api.GroupKey,
		Orders: columns.Orders(), Open: pageOf[api.Group](e), Copy: uidCopy(api.GroupKey), Edit: editOf[api.Group](ctx, e),
		Bind:  func(gs []*api.Group) tea.Cmd { return e.bindItem(gs[0]) },
		New:   func() tea.Cmd { return e.createForm(tree.KindFolder, e.org.UID, safe.String(e.org.Name)) },
		Watch: func(id string) bool { return id == e.org.UID || api.IsDescendant(id, e.org.UID) },
		Delete: &table.Delete[api.Group]{Noun: "folder",
			One: func(g *api.Group) tea.Cmd { return e.deleteDialog(g, "") }}})
}

func (e *env) reposTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Repo]{Title: title, Columns: columns.Repos(e.common),
		List: paging.New(ctx, source(e.client.ListRepos, opts), api.RepoKey), Key: api.RepoKey,
		Orders: columns.Orders(), Copy: uidCopy(api.RepoKey), Edit: editOf[api.Repo](ctx, e),
		New:    func() tea.Cmd { return e.createForm(tree.KindRepo, scopeOf(opts), whereOf(title)) },
		Watch:  prefixed("repos:"),
		Delete: rowDelete(ctx, e, "repo", func(r *api.Repo) (any, string) { return r, r.Name }),
		Server: &table.ServerFilter[api.Repo]{Chip: columns.RepoNameChip, List: func(p string) *paging.List[api.Repo] {
			o := opts
			o.Name = p
			return paging.New(ctx, source(e.client.ListRepos, o), api.RepoKey)
		}},
		Open: func(r *api.Repo) tea.Cmd {
			uid, name := r.UID, safe.String(r.Name)
			return open(func(ctx context.Context) views.Screen {
				return e.tagsTable(ctx, "tags of "+name, api.ListOptions{ChildrenOf: uid}, name)
			})
		}})
}

// tagsTable lists the tags of one repo (repoName set) or of many.
func (e *env) tagsTable(ctx context.Context, title string, opts api.ListOptions, repoName string) views.Screen {
	return e.tagsTableOf(ctx, title, opts, repoName, false)
}

// tagsTableOf is a tag table; deprecatedOnly starts it showing only
// deprecated tags (scanning every page). A table of many repos (repoName
// "") has a REPO column.
func (e *env) tagsTableOf(ctx context.Context, title string, opts api.ListOptions, repoName string, deprecatedOnly bool) views.Screen {
	var names columns.Names
	if repoName == "" {
		names = e.repoName
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
	return table.New(e.common, table.Config[api.Tag]{Title: title, Columns: columns.Tags(e.common, names), New: create, Watch: watch,
		List: paging.New(ctx, source(e.client.ListTags, opts), api.TagKey), Key: api.TagKey,
		Orders: columns.Orders(), RowKind: columns.TagRow, Open: pageOf[api.Tag](e),
		Copy:    func(t *api.Tag) (string, string) { return t.Digest, "digest" },
		CopyRef: func(t *api.Tag) (string, string) { return pullRef(e.org.Name, repo(t), t) },
		CopyMany: func(ts []*api.Tag) (string, string) {
			lines := make([]string, len(ts))
			for i, t := range ts {
				lines[i] = repo(t) + ":" + t.Name + "@" + t.Digest
			}
			return strings.Join(lines, "\n") + "\n", fmt.Sprintf("%d repo:tag@digest lines", len(ts))
		},
		Flag:         &table.Flag[api.Tag]{Name: "deprecated", Noun: "tags", Is: func(t *api.Tag) bool { return t.Deprecated }},
		FlaggedFirst: deprecatedOnly,
		Delete: &table.Delete[api.Tag]{Ctx: ctx, Noun: "tag", Outcome: outcome,
			Label: func(t *api.Tag) string {
				return safe.String(repo(t)) + ":" + safe.String(t.Name) + "  " + safe.String(text.Short(t.Digest, 12))
			},
			Run: func(ctx context.Context, t *api.Tag) error { return e.client.DeleteTag(ctx, t.UID) }},
		Server: &table.ServerFilter[api.Tag]{Chip: columns.TagNameChip, List: func(p string) *paging.List[api.Tag] {
			o := opts
			o.Name = p
			return paging.New(ctx, source(e.client.ListTags, o), api.TagKey)
		}}})
}

func (e *env) identitiesTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Identity]{Title: title, Columns: columns.Identities(e.common),
		List: paging.New(ctx, source(e.client.ListIdentities, opts), api.IdentityKey), Key: api.IdentityKey,
		Orders: columns.Orders(), Open: pageOf[api.Identity](e), Copy: uidCopy(api.IdentityKey), Edit: editOf[api.Identity](ctx, e),
		Bind:   e.bindIdentities,
		New:    func() tea.Cmd { return e.createForm(tree.KindIdentity, scopeOf(opts), whereOf(title)) },
		Watch:  prefixed("identities:"),
		Delete: rowDelete(ctx, e, "identity", func(i *api.Identity) (any, string) { return i, i.Name })})
}

func (e *env) bindingsTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	orders := []table.Order{{Label: "newest first", OrderBy: api.OrderCreatedDesc}, {Label: "oldest first", OrderBy: api.OrderCreated}}
	return table.New(e.common, table.Config[api.RoleBinding]{Title: title, Columns: columns.Bindings(e.common),
		List: paging.New(ctx, source(e.client.ListRoleBindings, opts), api.RoleBindingKey), Key: api.RoleBindingKey,
		Orders: orders, Open: pageOf[api.RoleBinding](e), Copy: uidCopy(api.RoleBindingKey),
		Delete: &table.Delete[api.RoleBinding]{Ctx: ctx, Noun: "role binding", Outcome: outcome,
			Label: func(b *api.RoleBinding) string { return bindingLabel(b) },
			Run:   func(ctx context.Context, b *api.RoleBinding) error { return e.client.DeleteRoleBinding(ctx, b.UID) }}})
}

func (e *env) rolesTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Role]{Title: title, Columns: columns.Roles(e.common),
		List: paging.New(ctx, source(e.client.ListRoles, opts), api.RoleKey), Key: api.RoleKey,
		Orders: columns.Orders()[:2], Open: pageOf[api.Role](e), Copy: uidCopy(api.RoleKey),
		Bind: func(rs []*api.Role) tea.Cmd { return e.bindItem(rs[0]) }})
}

func (e *env) advisoriesTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	orders := append([]table.Order{{Label: "recently updated", OrderBy: api.OrderUpdatedDesc}}, columns.Orders()[:3]...)
	return table.New(e.common, table.Config[api.Advisory]{Title: title, Columns: columns.Advisories(e.common),
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
	return table.New(e.common, table.Config[api.Subscription]{Title: title, Columns: columns.Subscriptions(e.common),
		List: paging.New(ctx, source(e.client.ListSubscriptions, opts), api.SubscriptionKey), Key: api.SubscriptionKey,
		Orders: columns.Orders()[2:4], Open: pageOf[api.Subscription](e), Copy: uidCopy(api.SubscriptionKey),
		New:    func() tea.Cmd { return e.createForm(tree.KindSubscription, scopeOf(opts), whereOf(title)) },
		Watch:  prefixed("subscriptions:"),
		Delete: rowDelete(ctx, e, "subscription", func(s *api.Subscription) (any, string) { return s, s.Sink })})
}

func (e *env) artifactsTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Artifact]{Title: title, Columns: columns.Artifacts(e.common),
		List: paging.New(ctx, source(e.client.ListArtifacts, opts), api.ArtifactKey), Key: api.ArtifactKey,
		Orders: columns.Orders(), Copy: uidCopy(api.ArtifactKey),
		Open: func(a *api.Artifact) tea.Cmd {
			uid, name := a.UID, safe.String(a.Name)
			return open(func(ctx context.Context) views.Screen { return e.versionsTable(ctx, "versions of "+name, uid) })
		}})
}

func (e *env) versionsTable(ctx context.Context, title, artifact string) views.Screen {
	list := func(ctx context.Context, o api.ListOptions) (*api.Page[api.ArtifactVersion], error) {
		return e.client.ListArtifactVersions(ctx, artifact, o)
	}
	return table.New(e.common, table.Config[api.ArtifactVersion]{Title: title, Columns: columns.Versions(e.common),
		List: paging.New(ctx, source(list, api.ListOptions{}), api.ArtifactVersionKey), Key: api.ArtifactVersionKey,
		Orders: columns.Orders(), Open: pageOf[api.ArtifactVersion](e), Copy: uidCopy(api.ArtifactVersionKey)})
}

// collectionTable opens a tree collection node as a table of that scope.
func (e *env) collectionTable(n *tree.Node) tea.Cmd {
	scope := ""
	if n.Parent != nil {
		scope = n.Parent.ID
	}
	where := ""
	if n.Parent != nil {
		where = " of " + n.Parent.Label
	}
	title := n.Label + where
	o := api.ListOptions{ChildrenOf: scope}
	return open(func(ctx context.Context) views.Screen {
		switch n.Kind {
		case tree.KindRepos:
			return e.reposTable(ctx, title, o)
		case tree.KindIdentities:
			return e.identitiesTable(ctx, title, o)
		case tree.KindBindings:
			return e.bindingsTable(ctx, title, o)
		case tree.KindSubscriptions:
			return e.subscriptionsTable(ctx, title, o)
		case tree.KindAdvisories:
			return e.advisoriesTable(ctx, "advisories", api.ListOptions{})
		default:
			return e.artifactsTable(ctx, "libraries", api.ListOptions{})
		}
	})
}

// nodeTable opens the children of an expandable node as a table (`t`):
// a repo's tags, a folder's repos (at any depth), an artifact's versions.
func (e *env) nodeTable(n *tree.Node) tea.Cmd {
	if n.Kind.IsCollection() {
		return e.collectionTable(n)
	}
	uid, label := n.ID, n.Label
	return open(func(ctx context.Context) views.Screen {
		switch n.Kind {
		case tree.KindRepo:
			return e.tagsTable(ctx, "tags of "+label, api.ListOptions{ChildrenOf: uid}, label)
		case tree.KindArtifact:
			return e.versionsTable(ctx, "versions of "+label, uid)
		default:
			return e.reposTable(ctx, "repos under "+label, api.ListOptions{DescendantsOf: uid})
		}
	})
}

// nodeOpen is enter in the tree: a collection opens as a table, a
// resource as a detail page.
func (e *env) nodeOpen(n *tree.Node) tea.Cmd {
	if n.Kind.IsCollection() {
		return e.collectionTable(n)
	}
	if n.Item != nil {
		return e.page(n.Item)
	}
	return nil
}

// nodeCopy is what `y` copies for a node.
// registryHost serves the organization's images.
const registryHost = "cgr.dev"

// pullRef is what `docker pull` takes for a tag, pinned to its digest.
func pullRef(org, repo string, t *api.Tag) (string, string) {
	return registryHost + "/" + org + "/" + repo + ":" + t.Name + "@" + t.Digest, "pull reference"
}

// nodeRef is a tag node's pull reference; its repo is an ancestor node.
func nodeRef(org string, n *tree.Node) (string, string) {
	t, ok := n.Item.(*api.Tag)
	if !ok || t.Digest == "" {
		return "", ""
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if r, ok := p.Item.(*api.Repo); ok {
			return pullRef(org, r.Name, t)
		}
	}
	return "", ""
}

func nodeCopy(n *tree.Node) (string, string) {
	if t, ok := n.Item.(*api.Tag); ok {
		return t.Digest, "digest"
	}
	if n.Item == nil {
		return "", ""
	}
	return n.ID, "uid"
}

// commands lists the `:` commands.
func commands() []cmdline.Command {
	return []cmdline.Command{
		{Name: "repos", Aliases: []string{"repo", "r"}, Desc: "every repo of the organization"},
		{Name: "tags", Aliases: []string{"tag"}, Desc: "every tag of the organization"},
		{Name: "groups", Aliases: []string{"folders", "group"}, Desc: "every folder of the organization"},
		{Name: "identities", Aliases: []string{"identity", "ids"}, Desc: "every identity of the organization"},
		{Name: "bindings", Aliases: []string{"rolebindings", "rb"}, Desc: "every role binding of the organization"},
		{Name: "roles", Aliases: []string{"role"}, Desc: "built-in and custom roles"},
		{Name: "advisories", Aliases: []string{"adv", "cves"}, Desc: "the advisory feed"},
		{Name: "subscriptions", Aliases: []string{"subs"}, Desc: "every event subscription of the organization"},
		{Name: "libraries", Aliases: []string{"libs", "artifacts"}, Desc: "library artifacts"},
		{Name: "org", Aliases: []string{"orgs"}, Desc: "switch to another organization"},
		{Name: "group", Aliases: []string{"folder", "cd"}, Desc: "jump to a folder in the tree (fuzzy)"},
		{Name: "deprecated", Aliases: []string{"eol", "dep"}, Desc: "deprecated tags of every repo in the selected folder"},
		{Name: "changes", Aliases: []string{"log", "history"}, Desc: "the changes made in this session (y copies one as curl)"},
		{Name: "tree", Aliases: []string{"home"}, Desc: "close every table and go back to the tree"},
		{Name: "help", Desc: "show the keys"},
		{Name: "quit", Aliases: []string{"q", "exit"}, Desc: "quit canopy"},
	}
}

// commandScreen opens the table a `:` command names, over the whole
// organization.
func (e *env) commandScreen(name string) (tea.Cmd, error) {
	org := e.org.UID
	orgName := safe.String(e.org.Name)
	whole := api.ListOptions{DescendantsOf: org}
	var build func(ctx context.Context) views.Screen
	switch name {
	case "repos":
		build = func(ctx context.Context) views.Screen { return e.reposTable(ctx, "repos of "+orgName, whole) }
	case "tags":
		build = func(ctx context.Context) views.Screen { return e.tagsTable(ctx, "tags of "+orgName, whole, "") }
	case "groups":
		build = func(ctx context.Context) views.Screen { return e.groupsTable(ctx, "folders of "+orgName, whole) }
	case "identities":
		build = func(ctx context.Context) views.Screen { return e.identitiesTable(ctx, "identities of "+orgName, whole) }
	case "bindings":
		build = func(ctx context.Context) views.Screen {
			return e.bindingsTable(ctx, "role bindings of "+orgName, whole)
		}
	case "roles":
		build = func(ctx context.Context) views.Screen { return e.rolesTable(ctx, "roles", whole) }
	case "advisories":
		build = func(ctx context.Context) views.Screen { return e.advisoriesTable(ctx, "advisories", api.ListOptions{}) }
	case "subscriptions":
		build = func(ctx context.Context) views.Screen {
			return e.subscriptionsTable(ctx, "subscriptions of "+orgName, whole)
		}
	case "libraries":
		build = func(ctx context.Context) views.Screen { return e.artifactsTable(ctx, "libraries", api.ListOptions{}) }
	case "changes":
		build = e.changesTable
	default:
		return nil, fmt.Errorf("no table for :%s", name)
	}
	cmds := []tea.Cmd{open(build)}
	if name == "tags" {
		cmds = append(cmds, e.learnNames())
	}
	return tea.Batch(cmds...), nil
}

// learnNames walks the organization's repos once, in the background, so
// that tables spanning repos can show repo names.
func (e *env) learnNames() tea.Cmd {
	if e.naming {
		return nil
	}
	e.naming = true
	ctx, client, org := e.ctx, e.client, e.org.UID
	return func() tea.Msg {
		names := map[string]string{}
		cur := api.NewCursor(client.ListRepos, api.ListOptions{DescendantsOf: org, PageSize: api.MaxPageSize}, api.RepoKey)
		for r, err := range cur.All(ctx) {
			if err != nil {
				return namesMsg{names: names, err: fmt.Errorf("repo names: %w", err)}
			}
			names[r.UID] = r.Name
		}
		return namesMsg{names: names}
	}
}

// breadcrumb joins screen titles.
func breadcrumb(titles []string) string { return strings.Join(titles, " › ") }

// groupsMsg carries every folder of the organization, for the :group picker.
type groupsMsg struct {
	groups []api.Group
	err    error
}

// groups walks the organization and its folders.
func (e *env) groups(ctx context.Context) ([]api.Group, error) {
	out := []api.Group{*e.org}
	cur := api.NewCursor(e.client.ListGroups, api.ListOptions{DescendantsOf: e.org.UID, PageSize: api.MaxPageSize}, api.GroupKey)
	for g, err := range cur.All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("list folders: %w", err)
		}
		out = append(out, g)
	}
	return out, nil
}

// listGroups lists the folders in a command, for the :group picker.
func (e *env) listGroups() tea.Cmd {
	ctx := e.ctx
	return func() tea.Msg {
		groups, err := e.groups(ctx)
		return groupsMsg{groups: groups, err: err}
	}
}

// groupOptions names each folder by its path ("platform/base-images").
func groupOptions(groups []api.Group) []picker.Option {
	names := make(map[string]string, len(groups))
	for _, g := range groups {
		names[g.UID] = g.Name
	}
	opts := make([]picker.Option, 0, len(groups))
	for _, g := range groups {
		var parts []string
		for uid := g.UID; uid != ""; uid = api.ParentUID(uid) {
			if n, ok := names[uid]; ok && api.ParentUID(uid) != "" {
				parts = append([]string{n}, parts...)
			}
		}
		label := strings.Join(parts, "/")
		if label == "" {
			label = g.Name + " (organization)"
		}
		opts = append(opts, picker.Option{Label: safe.String(label), Detail: safe.String(g.Description), Value: g.UID})
	}
	return opts
}

// deprecatedScreen lists the deprecated tags under a group: every tag of its
// repos, scanned a few pages at a time, deprecated ones shown as found.
func (e *env) deprecatedScreen(groupUID, groupName string) tea.Cmd {
	title := "deprecated tags under " + groupName
	return tea.Batch(open(func(ctx context.Context) views.Screen {
		return e.tagsTableOf(ctx, title, api.ListOptions{DescendantsOf: groupUID}, "", true)
	}), e.learnNames())
}

// bindingLabel is "viewer → ci-bot on platform".
func bindingLabel(b *api.RoleBinding) string {
	role, who, group := "?", "?", "?"
	if b.Role != nil {
		role = b.Role.Name
	}
	if b.Identity != nil {
		who = b.Identity.Name
	}
	if b.Group != nil {
		group = b.Group.Name
	}
	return safe.String(role) + " → " + safe.String(who) + " on " + safe.String(group)
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

// rowDelete deletes a table's rows (marked ones together), explaining
// refusals; item gives the resource and its name.
func rowDelete[T any](ctx context.Context, e *env, noun string, item func(*T) (any, string)) *table.Delete[T] {
	return &table.Delete[T]{Ctx: ctx, Noun: noun, Outcome: outcome,
		Label: func(it *T) string { _, name := item(it); return noun + " " + safe.String(name) },
		Run: func(ctx context.Context, it *T) error {
			res, _ := item(it)
			return e.deleteOne(ctx, res)
		},
		One: func(it *T) tea.Cmd { res, _ := item(it); return e.deleteDialog(res, "") }}
}
