package ui

import (
	"context"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/saved"
	"canopy/views"
	"canopy/views/bind"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/tree"
)

// folderKind: a group of the hierarchy, which canopy calls a folder (the
// organization is the top one).
type folderKind struct{ is[api.Group] }

func (folderKind) of() string { return resource.Folder }
func (folderKind) shape() shape {
	return shape{list: colGroups, byName: true, node: true, group: true, top: "organization"}
}
func (folderKind) page(*env) detail.Page      { return detail.GroupPage() }
func (folderKind) folder(g *api.Group) string { return g.UID }
func (folderKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "folders of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (folderKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return groupsTable(e, ctx, title, o)
}
func (folderKind) create(e *env, parent, parentName string) tea.Cmd {
	return newFolder(e, parent, parentName)
}
func (folderKind) inside(e *env, n *tree.Node) tea.Cmd { return newFolder(e, n.ID, placeOf(n)) }

// childTable: t on a folder lists every repo under it, at any depth.
func (folderKind) childTable(e *env, ctx context.Context, n *tree.Node) views.Screen {
	return reposTable(e, ctx, "repos under "+n.Label, api.ListOptions{DescendantsOf: n.ID})
}
func (folderKind) childView(e *env, n *tree.Node) *saved.View {
	if path := e.folderPathOf(n); path != "/" {
		return &saved.View{Of: resource.Must(resource.Repo).Command, Folder: path, Below: true}
	}
	return &saved.View{Of: resource.Must(resource.Repo).Command} // every repo: :repos
}
func (folderKind) children() string                         { return "folders" }
func (folderKind) edits(c *api.Client, g *api.Group) []edit { return folderEdits(c, g) }

// access: w on a folder is who holds what there.
func (folderKind) access(_ *env, g *api.Group) (whoseAccess, safe.Text) {
	return whoseAccess{folder: g.UID}, "access at " + safe.Of(g.Name)
}
func (folderKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteGroup(ctx, uid)
}
func (folderKind) find(c *api.Client, ctx context.Context, o api.ListOptions) (*api.Page[api.Group], error) {
	return c.ListGroups(ctx, o)
}
func (folderKind) get(c *api.Client, ctx context.Context, uid string) (*api.Group, error) {
	return c.GetGroup(ctx, uid)
}
func (folderKind) lost(e *env, cfg *dialog.Config, gs []*api.Group) { folderLost(e, cfg, gs) }
func (folderKind) bind(e *env, g *api.Group) tea.Cmd {
	return e.bindFlow(nil, nil, &bind.Choice{UID: g.UID, Name: g.Name})
}
func (folderKind) renamed(e *env, g *api.Group) { e.folderNamer.renamed(g.UID, g.Name) }
func (folderKind) updated(n *tree.Node, _, g *api.Group) {
	n.Item, n.Label = g, safe.Of(g.Name)
}

// newFolder is the form of a new folder in parent.
func newFolder(e *env, parent, parentName string) tea.Cmd {
	c := e.client
	return e.createForm("folder", parentName, creation{parent: parent, sends: api.Groups.Create(parent), named: "name",
		fields: []form.Field{
			{Key: "name", Label: "name", Validate: groupName, Max: api.GroupNameMax},
			{Key: "description", Label: "description", Validate: description, Max: api.DescriptionMax},
		},
		submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateGroup(ctx, parent, api.Group{Name: v["name"], Description: v["description"]})
		},
		find: func(ctx context.Context, v map[string]string) (any, error) {
			return found(c.FindGroup(ctx, parent, v["name"]))
		}})
}

func groupsTable(e *env, ctx context.Context, title safe.Text, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Group]{Title: title, Columns: columns.GroupsIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colGroups),
		Loaded: foldersLoaded(e, opts),
		List:   paging.New(ctx, source(e.client.ListGroups, opts), api.GroupKey), Key: api.GroupKey,
		Orders: columns.Orders(), Open: pageOf[api.Group](e), Copy: uidCopy(api.GroupKey), Edit: editOf[api.Group](ctx, e),
		Bind:   func(gs []*api.Group) tea.Cmd { return bindOne(e, gs, "folder") },
		New:    func() tea.Cmd { return newFolder(e, e.org.UID, safe.String(e.org.Name)) },
		Watch:  func(c views.Change) bool { return c.UID == e.org.UID || api.IsDescendant(c.UID, e.org.UID) },
		Delete: rowDelete[api.Group](e)})
}

// folderEdits: a folder's description and name.
func folderEdits(c *api.Client, g *api.Group) []edit {
	return []edit{
		{mask: api.FieldDescription, sends: api.Groups.Patch(g.UID, api.FieldDescription), name: g.Name, noun: "folder",
			fields: []form.Field{{Key: "description", Label: "description", Value: g.Description, Validate: description, Max: api.DescriptionMax}},
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				next := *g
				next.Description = v["description"]
				return c.PatchGroup(ctx, next, api.FieldDescription)
			}},
		{mask: api.FieldName, sends: api.Groups.Patch(g.UID, api.FieldName), name: g.Name, noun: "folder",
			fields: []form.Field{{Key: "name", Label: "name", Value: g.Name, Validate: groupName, Max: api.GroupNameMax}},
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				next := *g
				next.Name = v["name"]
				return c.PatchGroup(ctx, next, api.FieldName)
			}},
	}
}

// folderLost: a folder goes only empty, so the dialog says what it holds
// (one) or what the server requires (many), asks for its name typed, and
// after a refusal offers what is in the way.
func folderLost(e *env, cfg *dialog.Config, groups []*api.Group) {
	folderConfirm(cfg, groups)
	names := map[string]string{}
	for _, g := range groups {
		names[g.UID] = safe.String(g.Name)
	}
	cfg.Next = blockedNext(e, names)
	if len(groups) > 1 {
		cfg.Lines = append(cfg.Lines, "Each goes for good, with its name, description and place in the hierarchy.",
			"The server deletes only empty folders: no subfolders, repos, identities, role bindings, subscriptions or custom roles.")
		return
	}
	cfg.Lines = append(cfg.Lines, "The folder goes for good, with its name, description and place in the hierarchy.")
	uid := groups[0].UID
	cfg.Facts = func(ctx context.Context) ([]safe.Text, error) {
		lines, err := folderContents(e, ctx, uid)
		return texts(lines), err
	}
}

// folderConfirm sets what must be typed to delete folders: the name of
// one (or, when a name cannot be typed, the last part of its uid), or the
// number of folders.
func folderConfirm(cfg *dialog.Config, groups []*api.Group) {
	if len(groups) > 1 {
		cfg.Confirm = strconv.Itoa(len(groups)) + " folders"
		cfg.ConfirmWhat = "how many folders go"
		return
	}
	g := groups[0]
	if g.Name != "" && safe.String(g.Name) == g.Name && strings.TrimSpace(g.Name) == g.Name {
		cfg.Confirm = g.Name
		return
	}
	uid := g.UID
	if i := strings.LastIndex(uid, "/"); i >= 0 {
		uid = uid[i+1:]
	}
	cfg.Confirm = uid
	cfg.ConfirmWhat = "the last part of its uid (its name cannot be typed)"
}

// group is an organization or folder node: its subfolders (paged), then its
// collections.
func (b builder) group(g *api.Group, parent *tree.Node) *tree.Node {
	k := kindFor[api.Group](b.kinds)
	kind := k.node
	if api.ParentUID(g.UID) == "" {
		kind = k.top
	}
	gc := *g
	n := child(parent, &tree.Node{ID: g.UID, Kind: kind, Label: safe.Of(g.Name), Item: &gc})
	n.Children = b.list(kindFor[api.Group](b.kinds), nodes(source(b.client.ListGroups, api.ListOptions{ChildrenOf: g.UID}),
		func(c *api.Group) *tree.Node { return b.group(c, n) }))
	for _, k := range b.kinds.all {
		if k.inFolder != nil {
			n.Static = append(n.Static, k.inFolder(b, n, g.UID))
		}
	}
	return n
}

// foldersLoaded learns the names of the folders a table of many shows (the
// rows are folders: their names need no request), then asks for those of
// their parents it does not know yet, for the FOLDER column.
func foldersLoaded(e *env, o api.ListOptions) func([]*api.Group) tea.Cmd {
	parents := loadedIn(e, o, api.GroupKey)
	if parents == nil {
		return nil
	}
	return func(gs []*api.Group) tea.Cmd {
		names := make(map[string]string, len(gs))
		for _, g := range gs {
			names[g.UID] = g.Name
		}
		e.folderNamer.learn(names)
		return tea.Batch(parents(gs), func() tea.Msg { return table.NamesMsg{} })
	}
}
