package ui

// Tables opened by `:` commands and saved views (the config's views:),
// and `:save`, which writes the table on screen as a view.

import (
	"context"
	"errors"
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
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/table"
)

// viewCommands are the saved views' `:` commands.
func viewCommands(vs []saved.View) []shellCommand {
	out := make([]shellCommand, 0, len(vs))
	for _, v := range vs {
		out = append(out, shellCommand{Command: cmdline.Command{Name: v.Name, Desc: "view: " + v.Says()},
			orgWide: true, run: func(m *Model, args []string) tea.Cmd {
				if len(args) > 0 {
					return m.setFlash(":"+v.Name+" takes no argument: it opens the view as saved", true)
				}
				return m.openView(v)
			}})
	}
	return out
}

// startable is a table that can start set up (a saved view) and say how
// it shows its rows now (:save).
type startable interface {
	Start(table.Setup) error
	Shown() table.Setup
}

// CheckViews says what is wrong with saved views before the screen
// changes: a name that is one of canopy's commands or a plugin's, a table
// canopy does not have, an order, column or filter the table does not
// have. The error starts with the view's name; the caller adds its line.
func CheckViews(vs []saved.View, plugins []plugin.Plugin) (saved.View, error) {
	if len(vs) == 0 {
		// Nothing to check: the kinds and commands are not built for
		// nothing before the first frame (a few ms of every start).
		return saved.View{}, nil
	}
	r := kinds(nil)
	builtin := commands(keymap.Default(), r, plugins, nil)
	for _, v := range vs {
		for _, c := range builtin {
			if c.Name == v.Name || slices.Contains(c.Aliases, v.Name) {
				return v, fmt.Errorf("name %q is the command :%s; name the view otherwise", v.Name, c.Name)
			}
		}
		k := r.byCommand[v.Of]
		if k == nil || k.table == nil || k.command == nil {
			return v, fmt.Errorf("of %q: not a table (want one of %s)", v.Of, strings.Join(tableCommands(r), ", "))
		}
		if v.In != "" && k.heldBy == "" {
			return v, fmt.Errorf("in: %s are not held by another resource (only :tags takes a repo)", k.nouns)
		}
		if err := checkFolderView(k, v); err != nil {
			return v, err
		}
		if err := probe(k, setupOf(v)); err != nil {
			return v, err
		}
	}
	return saved.View{}, nil
}

// tableCommands are the `:` commands that open tables.
func tableCommands(r *registry) []string {
	var out []string
	for _, k := range r.all {
		if k.command != nil && k.table != nil {
			out = append(out, k.command.Name)
		}
	}
	return out
}

// probe checks a setup against a table of k, made and dropped without a
// request.
func probe(k *kind, s table.Setup) error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// An organization of some uid: the table is the whole organization's,
	// with its FOLDER column.
	e := &env{kinds: kinds(nil), org: &api.Group{UID: strings.Repeat("0", api.RootUIDLen), Name: "probe"}, repoNamer: newNamer(repoNames), folderNamer: newNamer(folderNames),
		tags: newTagSets(), orders: &refusedOrders{}, common: views.Common{Keys: keymap.Default()}}
	e.details = e.kinds.detailsIn(e)
	title, o := k.whole(e)
	st, ok := k.table(e, ctx, title, o).(startable)
	if !ok {
		return fmt.Errorf("of %q: its table keeps no view", k.command.Name)
	}
	return st.Start(s)
}

// setupOf is how a view's table starts.
func setupOf(v saved.View) table.Setup {
	return table.Setup{Order: v.Order, Server: v.Server, Columns: v.Columns, Filter: v.Filter, Flagged: v.Deprecated}
}

// openTable opens the table of k: over the whole organization (or feed),
// or, for a kind held by another, over the one origin.In names (a repo by
// uid, path or name: holderLookup); set up as setup says, origin kept for
// :save. A holder not found, or a name several share, is said; with
// fallback, a name that names none opens the whole table instead,
// filtered by the name.
func (e *env) openTable(k *kind, setup table.Setup, origin saved.View, fallback bool) tea.Cmd {
	build := func(title safe.Text, o api.ListOptions, s table.Setup) func(ctx context.Context) views.Screen {
		return func(ctx context.Context) views.Screen {
			screen := k.table(e, ctx, title, o)
			if st, ok := screen.(startable); ok {
				_ = st.Start(s) // checked before: the config's views by CheckViews, commands start plainly
			}
			return screen
		}
	}
	o := origin
	if origin.Folder != "" {
		if err := checkFolderView(k, origin); err != nil {
			return views.FlashError(err.Error())
		}
		return tea.Sequence(views.Flash("looking up the folder "+safe.String(strings.Trim(origin.Folder, "/"))+"…"), func() tea.Msg {
			title, lo, err := e.folderScope(e.ctx, k, origin)
			if err != nil {
				return views.FlashMsg{Text: err.Error(), Error: true}
			}
			return tea.BatchMsg{func() tea.Msg { return openMsg{screenAsk{command: true, origin: &o, build: build(title, lo, setup)}} },
				views.Flash(string(title))}
		})
	}
	if origin.In == "" {
		title, whole := k.whole(e)
		return e.push(screenAsk{command: true, origin: &o, build: build(title, whole, setup)})
	}
	hk := e.kinds.byNoun(k.heldBy)
	lookup, name := e.holderLookup(hk, ":"+k.command.Name), origin.In
	names, keeps := e.namesOf(hk)
	open := func(title safe.Text, lo api.ListOptions, s table.Setup, say tea.Cmd, origin saved.View) tea.Msg {
		return tea.BatchMsg{func() tea.Msg { return openMsg{screenAsk{command: true, origin: &origin, build: build(title, lo, s)}} }, say}
	}
	return tea.Sequence(views.Flash("looking up the "+hk.noun+" "+safe.String(name)+"…"), func() tea.Msg {
		item, err := lookup(e.ctx, name)
		if err == nil {
			uid, found := hk.uid(item), hk.name(item)
			var learn tea.Cmd
			if keeps {
				learn = func() tea.Msg { return learnedMsg{kind: names, uid: uid, name: found} }
			}
			// Named by path, the path says which; by uid, its name does.
			called := name
			if uid == name {
				called = found
			}
			return open(safe.Of(k.nouns+" of "+called), api.ListOptions{ChildrenOf: uid}, setup,
				tea.Batch(learn, views.Flash(k.nouns+" of the "+hk.noun+" "+safe.String(called))), origin)
		}
		if !fallback || !errors.Is(err, errNoneNamed) {
			return views.FlashMsg{Text: err.Error(), Error: true}
		}
		why := "no " + hk.noun + " is named " + safe.String(name)
		title, whole := k.whole(e)
		setup.Filter = name
		return open(title, whole, setup, views.Flash(why+": the loaded "+k.nouns+" are filtered by it"), saved.View{Of: origin.Of})
	})
}

// holderLookup is how the holder a held kind's command names is found
// (:tags NAME): a repo by uid, path or name as canopy list --repo finds
// one (repoNamed; cmd is the command, to say how to pick one of a shared
// name); another kind by its name. errNoneNamed: no name matched.
func (e *env) holderLookup(hk *kind, cmd string) func(ctx context.Context, name string) (any, error) {
	c, org := e.client, e.org
	if hk.noun == resource.Repo {
		folders := e.folderNamer.names
		return func(ctx context.Context, name string) (any, error) {
			return repoNamed(ctx, c, org, folders, name, cmd)
		}
	}
	return func(ctx context.Context, name string) (any, error) {
		items, err := hk.find(ctx, c, org.UID, name)
		switch {
		case err != nil:
			return nil, err
		case len(items) == 0:
			return nil, errNoneNamed
		case len(items) > 1:
			return nil, fmt.Errorf("%d %s are named %s (:%s %s lists them)", len(items), hk.nouns, safe.String(name), hk.command.Name, safe.String(name))
		}
		return items[0], nil
	}
}

// viewNamed is the saved view a `:` command names.
func (m *Model) viewNamed(name string) (saved.View, bool) {
	i := slices.IndexFunc(m.views, func(v saved.View) bool { return v.Name == name })
	if i < 0 {
		return saved.View{}, false
	}
	return m.views[i], true
}

// openView opens a saved view.
func (m *Model) openView(v saved.View) tea.Cmd {
	k := m.env.kinds.byCommand[v.Of]
	if k == nil || k.table == nil {
		return m.setFlash("view "+v.Name+": no table :"+v.Of, true)
	}
	if err := probe(k, setupOf(v)); err != nil {
		return m.setFlash("view "+v.Name+": "+err.Error(), true)
	}
	return m.env.openTable(k, setupOf(v), v, false)
}

// viewSavedMsg: a view was written into the config file (or not).
type viewSavedMsg struct {
	v    saved.View
	file string
	err  error
}

// saveView writes the table on top as the view name, in a command.
func (m *Model) saveView(args []string) tea.Cmd {
	if len(args) == 0 {
		return m.setFlash("name the view: :save <name> (then :<name> opens it)", true)
	}
	if len(args) > 1 {
		// The name is the view's own : command, whose words after the
		// first would be its arguments: it cannot hold a space.
		joined := strings.ToLower(strings.Join(args, "-"))
		try := ""
		if saved.CheckName(joined) == nil {
			try = "; e.g. :save " + joined
		}
		return m.setFlash(fmt.Sprintf(":save: a view's name is one word, its : command (%q is %d)%s", strings.Join(args, " "), len(args), try), true)
	}
	name := args[0]
	if err := saved.CheckName(name); err != nil {
		return m.setFlash(":save "+err.Error(), true)
	}
	for _, c := range commands(m.common.Keys, m.env.kinds, m.plugins, nil) {
		if c.Name == name || slices.Contains(c.Aliases, name) {
			return m.setFlash(":save: "+name+" is the command :"+c.Name+"; name the view otherwise", true)
		}
	}
	top := m.stack[len(m.stack)-1]
	st, ok := top.screen.(startable)
	if top.origin == nil || !ok {
		return m.setFlash(":save saves a table opened by a : command, a view, or the tree (a folder's collection, t on a folder or repo); this screen is not one", true)
	}
	if m.opts.SaveView == nil {
		return m.setFlash(":save: there is no config file to save to", true)
	}
	v := *top.origin
	v.Name, v.Line = name, 0
	s := st.Shown()
	v.Order, v.Server, v.Columns, v.Filter, v.Deprecated = s.Order, s.Server, s.Columns, s.Filter, s.Flagged
	save := m.opts.SaveView
	// Said at once: the answer to an earlier :save must not stand for
	// this one's while it is written (which may wait for another canopy).
	return tea.Batch(m.setFlash("saving :"+name+"…", false), func() tea.Msg {
		file, err := save(v)
		return viewSavedMsg{v: v, file: file, err: err}
	})
}

// viewSaved keeps a saved view as a command, or says why it was not.
func (m *Model) viewSaved(msg viewSavedMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash(msg.err.Error(), true)
	}
	if i := slices.IndexFunc(m.views, func(v saved.View) bool { return v.Name == msg.v.Name }); i >= 0 {
		m.views[i] = msg.v
	} else {
		m.views = append(m.views, msg.v)
	}
	return m.setFlash("saved :"+msg.v.Name+" ("+msg.v.Says()+") in "+msg.file, false)
}
