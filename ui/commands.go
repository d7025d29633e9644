package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/plugin"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/picker"
	"canopy/views/safe"
)

// commands lists the `:` commands: each kind's table, the others, then
// the user's plugins.
func commands(keys *keymap.KeyMap, r *registry, plugins []plugin.Plugin) []cmdline.Command {
	var out []cmdline.Command
	for _, k := range r.all {
		if k.command != nil {
			c := *k.command
			c.Args = "[filter]" // kept as the table's fuzzy filter
			out = append(out, c)
		}
	}
	return append(append(out,
		cmdline.Command{Name: "org", Aliases: []string{"orgs"}, Desc: "switch to another organization"},
		cmdline.Command{Name: "group", Aliases: []string{"folder", "cd"}, Desc: "jump to a folder in the tree (fuzzy)"},
		cmdline.Command{Name: "deprecated", Aliases: []string{"eol", "dep"}, Desc: "deprecated tags of every repo in the folder of what is selected"},
		cmdline.Command{Name: "changes", Aliases: []string{"log", "history"}, Desc: "the changes made in this session (" +
			keys.Key(keymap.Open) + " opens one, " + keys.Key(keymap.Copy) + " copies it as curl)"},
		cmdline.Command{Name: "tree", Aliases: []string{"home"}, Desc: "close every table and go back to the tree"},
		cmdline.Command{Name: "help", Desc: "show the keys"},
		cmdline.Command{Name: "quit", Aliases: []string{"q", "exit"}, Desc: "quit canopy"},
	), pluginCommands(plugins)...)
}

// commandScreen opens the table a `:` command names, over the whole
// organization (or feed), its rows filtered by filter as if typed.
func (e *env) commandScreen(name, filter string) (tea.Cmd, error) {
	if name == "changes" {
		return e.openCommand(e.changesTable), nil
	}
	k := e.kinds.byCommand[name]
	if k == nil || k.table == nil {
		return nil, fmt.Errorf("no table for :%s", name)
	}
	if hk := e.kinds.byNoun(k.heldBy); filter != "" && hk != nil && hk.find != nil {
		return e.heldCommand(k, hk, filter), nil
	}
	title, o := k.whole(e)
	return e.openCommand(func(ctx context.Context) views.Screen {
		s := k.table(e, ctx, title, o)
		if f, ok := s.(keepsFilter); ok && filter != "" {
			f.KeepFilter(filter)
		}
		return s
	}), nil
}

// heldCommand opens the table of a kind held by another (`:tags python`):
// of the one named so, when one is; else the whole table filtered by the
// name, saying why.
func (e *env) heldCommand(k, hk *kind, name string) tea.Cmd {
	c, org := e.client, e.org.UID
	table := func(title safe.Text, o api.ListOptions, filter string) tea.Cmd {
		return func() tea.Msg {
			return openMsg{screenAsk{command: true, build: func(ctx context.Context) views.Screen {
				s := k.table(e, ctx, title, o)
				if f, ok := s.(keepsFilter); ok && filter != "" {
					f.KeepFilter(filter)
				}
				return s
			}}}
		}
	}
	return tea.Batch(views.Flash("looking up the "+hk.noun+" "+safe.String(name)+"…"), func() tea.Msg {
		items, err := hk.find(e.ctx, c, org, name)
		title, whole := k.whole(e)
		switch {
		case err != nil:
			return tea.BatchMsg{table(title, whole, name), views.FlashError(err.Error() + ": the loaded " + k.nouns + " are filtered by it")}
		case len(items) == 1:
			return tea.BatchMsg{table(safe.Of(k.nouns+" of "+name), api.ListOptions{ChildrenOf: hk.uid(items[0])}, ""),
				views.Flash(k.nouns + " of the " + hk.noun + " " + safe.String(name))}
		case len(items) == 0:
			return tea.BatchMsg{table(title, whole, name),
				views.Flash("no " + hk.noun + " is named " + safe.String(name) + ": the loaded " + k.nouns + " are filtered by it")}
		}
		return tea.BatchMsg{table(title, whole, name), views.Flash(fmt.Sprintf("%d %s are named %s (:%s %s lists them): the loaded %s are filtered by it",
			len(items), hk.nouns, safe.String(name), hk.command.Name, safe.String(name), k.nouns))}
	})
}

// keepsFilter is a screen that can start filtered (a table).
type keepsFilter interface{ KeepFilter(text string) }

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
	return opts
}

// deprecatedScreen lists the deprecated tags under a group: every tag of its
// repos, scanned a few pages at a time, deprecated ones shown as found.
func (e *env) deprecatedScreen(groupUID, groupName string) tea.Cmd {
	title := "tags under " + safe.Of(groupName) // "deprecated " while only those show
	return e.openCommand(func(ctx context.Context) views.Screen {
		return tagsTableOf(e, ctx, title, api.ListOptions{DescendantsOf: groupUID}, "", true)
	})
}
