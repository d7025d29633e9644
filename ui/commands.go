package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/plugin"
	"canopy/resource"
	"canopy/safe"
	"canopy/saved"
	"canopy/text"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/picker"
	"canopy/views/table"
)

// shellCommand is a `:` command with what it does: the list that help,
// completion and the command line show and the running read the same
// entries, so none is listed that does not run, nor runs unlisted.
type shellCommand struct {
	cmdline.Command
	// orgWide: it runs on the organization open, not before one is.
	orgWide bool
	run     func(m *Model, args []string) tea.Cmd
}

// shellCommands are the `:` commands: each kind's table, the others, then
// the user's plugins and saved views.
func shellCommands(keys *keymap.KeyMap, r *registry, plugins []plugin.Plugin, views []saved.View) []shellCommand {
	var out []shellCommand
	for _, k := range r.all {
		if k.command != nil {
			c := *k.command
			c.Args = "[filter]" // kept as the table's fuzzy filter
			out = append(out, shellCommand{Command: c, orgWide: true, run: func(m *Model, args []string) tea.Cmd {
				cmd, err := m.env.commandScreen(c.Name, strings.Join(args, " "))
				if err != nil {
					return m.setFlash(err.Error(), true)
				}
				return cmd
			}})
		}
	}
	out = append(out,
		shellCommand{Command: cmdline.Command{Name: "org", Aliases: []string{"orgs"}, Desc: "switch to another organization"},
			run: func(m *Model, _ []string) tea.Cmd { return m.resolveOrgPicker() }},
		shellCommand{Command: cmdline.Command{Name: "group", Aliases: []string{"folder", "cd"}, Desc: "jump to a folder in the tree (fuzzy)"},
			orgWide: true, run: func(m *Model, args []string) tea.Cmd { return m.env.groupPicker(strings.Join(args, " ")) }},
		shellCommand{Command: cmdline.Command{Name: "overview", Aliases: []string{"ov", "glance"},
			Desc: "the organization at a glance: deprecated tags, identities to look at, role bindings, advisories per repo"},
			orgWide: true, run: func(m *Model, _ []string) tea.Cmd { return m.env.overviewScreen() }},
		shellCommand{Command: cmdline.Command{Name: "access", Aliases: []string{"who", "rbac"}, Args: "[folder path]",
			Desc: "who can do what: identities × capability groups at the organization or a folder (apps/web); enter shows the grants behind a row, D the flagged rows"},
			orgWide: true, run: func(m *Model, args []string) tea.Cmd { return m.env.accessCommand(args) }},
		shellCommand{Command: cmdline.Command{Name: "deprecated", Aliases: []string{"eol", "dep"}, Desc: "deprecated tags of every repo in the folder of what is selected"},
			orgWide: true, run: func(m *Model, _ []string) tea.Cmd {
				uid, name := m.currentGroup()
				return m.env.deprecatedScreen(uid, name)
			}},
		shellCommand{Command: cmdline.Command{Name: "changes", Aliases: []string{"log", "history"}, Desc: "the changes made in this session (" +
			keys.Key(keymap.Open) + " opens one, " + keys.Key(keymap.Copy) + " copies it as curl)"},
			orgWide: true, run: func(m *Model, _ []string) tea.Cmd { return m.env.openCommand(m.env.changesTable) }},
		shellCommand{Command: cmdline.Command{Name: "tree", Aliases: []string{"home"}, Desc: "close every table and go back to the tree"},
			run: func(m *Model, _ []string) tea.Cmd { m.popAll(); return nil }},
		shellCommand{Command: cmdline.Command{Name: "save", Args: "<name>", Desc: "save this table as a view (its order, server filter, columns, filter) in the config file: :<name> opens it"},
			orgWide: true, run: func(m *Model, args []string) tea.Cmd { return m.saveView(args) }},
		shellCommand{Command: cmdline.Command{Name: "help", Desc: "show the keys"},
			run: func(m *Model, _ []string) tea.Cmd { m.openHelp(); return nil }},
		shellCommand{Command: cmdline.Command{Name: "quit", Aliases: []string{"q", "exit"}, Desc: "quit canopy"},
			run: func(*Model, []string) tea.Cmd { return tea.Quit }},
	)
	out = append(out, selfCommands()...)
	return append(append(out, pluginCommands(plugins)...), viewCommands(views)...)
}

// commands lists the `:` commands as the command line and help show them.
func commands(keys *keymap.KeyMap, r *registry, plugins []plugin.Plugin, views []saved.View) []cmdline.Command {
	var out []cmdline.Command
	for _, c := range shellCommands(keys, r, plugins, views) {
		out = append(out, c.Command)
	}
	return out
}

// commandScreen opens the table a `:` command names, over the whole
// organization (or feed), its rows filtered by filter as if typed; for a
// kind held by another (tags), filter names the holder (:tags python).
func (e *env) commandScreen(name, filter string) (tea.Cmd, error) {
	k := e.kinds.byCommand[name]
	if k == nil || k.table == nil {
		return nil, fmt.Errorf("no table for :%s", name)
	}
	if hk := e.kinds.byNoun(k.heldBy); filter != "" && hk != nil && hk.find != nil {
		return e.openTable(k, table.Setup{}, saved.View{Of: name, In: filter}, true), nil
	}
	return e.openTable(k, table.Setup{Filter: filter}, saved.View{Of: name}, false), nil
}

// groups walks the organization and its folders.
func (e *env) groups(ctx context.Context, org api.Group) ([]api.Group, error) {
	out := []api.Group{org}
	cur := api.NewCursor(e.client.ListGroups, api.ListOptions{DescendantsOf: org.UID, PageSize: api.MaxPageSize}, api.GroupKey)
	for g, err := range cur.All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("list folders: %w", err)
		}
		out = append(out, g)
	}
	return out, nil
}

// groupPicker is the :group picker, narrowed by query: it lists the
// folders itself, and enter shows the one chosen in the tree.
func (e *env) groupPicker(query string) tea.Cmd {
	org := *e.org
	return e.open(func(ctx context.Context) views.Screen {
		return picker.New(e.common, "Jump to which folder?", nil, true, func(o picker.Option) tea.Msg {
			return gotoMsg{uid: o.Value.(string)}
		}).Filter(query).Load(ctx, "listing folders…", func(ctx context.Context) ([]picker.Option, error) {
			groups, err := e.groups(ctx, org)
			return groupOptions(groups), err
		})
	})
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
		opts = append(opts, picker.Option{Label: safe.Of(label), Detail: safe.Of(g.Description), Value: g.UID})
	}
	// As the tree has them: the organization, then by path, a folder's
	// subfolders right after it.
	org := func(o picker.Option) bool { return api.ParentUID(o.Value.(string)) == "" }
	slices.SortStableFunc(opts, func(a, b picker.Option) int {
		switch oa, ob := org(a), org(b); {
		case oa != ob && oa:
			return -1
		case oa != ob:
			return 1
		}
		return comparePaths(string(a.Label), string(b.Label))
	})
	return opts
}

// comparePaths orders folder paths by their parts, so that "data/ml"
// comes right after "data", before "data-lake".
func comparePaths(a, b string) int {
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := range min(len(pa), len(pb)) {
		if c := strings.Compare(strings.ToLower(pa[i]), strings.ToLower(pb[i])); c != 0 {
			return c
		}
	}
	return len(pa) - len(pb)
}

// deprecatedScreen lists the deprecated tags under a group: every tag of its
// repos, scanned a few pages at a time, deprecated ones shown as found. A
// group whose path is not known yet ("") is asked for it first, so that
// the title names it.
func (e *env) deprecatedScreen(groupUID, groupName string) tea.Cmd {
	if groupName != "" {
		return e.openCommand(e.deprecatedUnder(groupUID, groupName))
	}
	ctx, c, org := e.ctx, e.client, *e.org
	return tea.Sequence(views.Flash("looking up the folder…"), func() tea.Msg {
		path, err := lookupPath(ctx, c, org, groupUID)
		if err != nil {
			path = "folder " + safe.String(text.Short(groupUID[strings.LastIndexByte(groupUID, '/')+1:], 8))
		}
		return openMsg{screenAsk{command: true, build: e.deprecatedUnder(groupUID, path)}}
	})
}

// lookupPath asks the server for the names of a folder and the folders
// above it, up to the organization: its path ("platform/base-images").
func lookupPath(ctx context.Context, c *api.Client, org api.Group, uid string) (string, error) {
	var parts []string
	for u := uid; u != "" && u != org.UID && len(parts) < maxFolderDepth; u = api.ParentUID(u) {
		g, err := c.GetGroup(ctx, u)
		if err != nil {
			return "", fmt.Errorf("folder %s: %w", u, err)
		}
		parts = append([]string{safe.String(g.Name)}, parts...)
	}
	if len(parts) == 0 {
		return safe.String(org.Name), nil
	}
	return strings.Join(parts, "/"), nil
}

// maxFolderDepth bounds the folders lookupPath asks for.
const maxFolderDepth = 16

// deprecatedUnder builds the table of the deprecated tags under a group.
func (e *env) deprecatedUnder(groupUID, groupName string) func(ctx context.Context) views.Screen {
	title := "tags under " + safe.Of(groupName) // "deprecated " while only those show
	return func(ctx context.Context) views.Screen {
		return tagsTableOf(e, ctx, title, api.ListOptions{DescendantsOf: groupUID}, "", true)
	}
}

// noCommand is why a name a user may type for a kind is no `:` command
// (:versions, :ecosystems), in the kind's descriptor's words; "" for a
// name no kind goes by.
func noCommand(name string) string {
	for _, d := range resource.Kinds() {
		if d.NoCommand == "" {
			continue
		}
		words := strings.Fields(d.Nouns)
		if name == d.Noun || name == d.Nouns || name == words[len(words)-1] {
			return d.NoCommand
		}
	}
	return ""
}
