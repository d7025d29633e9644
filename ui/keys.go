package ui

import (
	"cmp"
	"context"
	"fmt"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/detail"
	"canopy/views/explorer"
	"canopy/views/form"
	"canopy/views/help"
	"canopy/views/picker"
	"canopy/views/tree"
)

// textInput is a screen that takes typed text, where q and ? are letters.
type textInput interface{ TakesText() bool }

// current is a screen that shows a resource (a table's row, a page).
type current interface{ Current() any }

// nouned is a screen that names what its cursor is on ("a tag", "tags"):
// a key of the keymap that is none of its actions then says it does not
// apply there, instead of doing nothing.
type nouned interface{ Noun() string }

// key routes a key press: ctrl+c always quits; an open command line or help
// takes the key; then the global keys (q, ?, :) unless the screen takes
// text; then the screen.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return tea.Quit
	}
	m.keyClearsFailure()
	if msg.Mod.Contains(tea.ModAlt) && !m.common.Keys.Bound(msg) {
		// An escape and the key typed right after it arrive in one read
		// of the terminal as alt+key (two escapes as alt+esc): they are
		// that escape, then the key, both now and in that order, the key
		// going where the escape left it (to the screen below, when the
		// escape closed one). A key bound with alt stays itself.
		esc, next := tea.KeyPressMsg{Code: tea.KeyEscape}, msg
		next.Mod &^= tea.ModAlt
		if next.Text == "" && next.Mod&^tea.ModShift == 0 && unicode.IsPrint(cmp.Or(next.ShiftedCode, next.Code)) {
			next.Text = string(cmp.Or(next.ShiftedCode, next.Code))
		}
		first := m.key(esc)
		m.reap()
		return tea.Batch(first, m.key(next))
	}
	if m.awaited() || len(m.held) > 0 || m.waitingForRows(msg) {
		if m.awaited() || !m.leaves(msg) {
			return m.hold(msg)
		}
		// Keys held only for rows that have not come: a key that leaves
		// (esc, q, ?, :) drops them and acts now, whatever the server does.
		m.held = nil
		m.holdGen++
	}
	if m.flashErr && m.flash != "" && m.common.Keys.Is(msg, keymap.Back) {
		// esc cancels what the error was about (an edit, a dialog), so
		// the error goes with it rather than outliving it on the status line.
		m.flash = ""
	}
	if m.cmd != nil {
		return m.cmd.Update(msg)
	}
	if m.help != nil {
		return m.help.Update(msg)
	}
	top := m.top()
	if !m.typing() {
		if cmd, ok := views.Press(m.common.Keys, msg, m.shellActions()); ok {
			return cmd
		}
	}
	if top == nil {
		if m.startErr != nil && m.common.Keys.Is(msg, keymap.Refresh) {
			m.startErr = nil
			return m.resolveOrg()
		}
		return nil
	}
	if len(m.stack) == 1 && !m.typing() && m.common.Keys.Is(msg, keymap.Back) {
		if _, ok := keymap.Find(top.Actions(), keymap.Back); !ok {
			return m.setFlash("this is the top: "+m.common.Key(keymap.Quit)+" quits", false)
		}
	}
	if !m.typing() {
		if cmd, ok := m.pluginKey(msg); ok {
			return cmd
		}
	}
	if cmd := m.notHere(top, msg); cmd != nil {
		return cmd
	}
	if !m.typing() && m.common.Keys.Is(msg, keymap.Refresh) {
		// r also tries again the name lookups that failed.
		return tea.Batch(m.env.retryFailedNames(), top.Update(msg))
	}
	return top.Update(msg)
}

// waitingForRows reports whether k is for rows the top screen has asked
// for and not got (a table before its first page, or after a sort): `j`
// typed right after `:tags⏎` moves over the tags once they are there.
// Keys that leave do not wait, nor keys whose wait timed out.
func (m *Model) waitingForRows(k tea.KeyPressMsg) bool {
	if m.releasing || m.cmd != nil || m.help != nil || m.typing() || m.topReady() {
		return false
	}
	return !m.leaves(k)
}

// leaves reports whether k goes somewhere else than the rows on their
// way: esc, q, the help or the command line.
func (m *Model) leaves(k tea.KeyPressMsg) bool {
	if m.cmd != nil || m.help != nil || m.typing() {
		return false
	}
	ks := m.common.Keys
	return ks.Is(k, keymap.Back) || ks.Is(k, keymap.Quit) || ks.Is(k, keymap.Help) || ks.Is(k, keymap.Command) ||
		k.Code == tea.KeyEscape && k.Mod == tea.ModAlt
}

// openCommandLine opens the `:` line.
func (m *Model) openCommandLine() tea.Cmd {
	m.cmd = cmdline.New(m.common, commands(m.common.Keys, m.env.kinds, m.plugins, m.views))
	m.cmd.Explaining(noCommand)
	m.cmd.SetLast(m.lastCommand)
	m.layout()
	return m.cmd.Open()
}

// notHere answers a key of the keymap that is none of the screen's
// actions: "`e` (edit) does not apply to tags". Screens that do not name
// their cursor (dialogs, pickers, forms) and text inputs keep their keys.
func (m *Model) notHere(top views.Screen, msg tea.KeyPressMsg) tea.Cmd {
	n, ok := top.(nouned)
	if !ok || m.typing() {
		return nil
	}
	if _, ok := m.common.Keys.Lookup(msg, top.Actions()); ok {
		return nil
	}
	var all []keymap.State
	for _, d := range m.common.Keys.Defs() {
		if d.Group != keymap.Input {
			all = append(all, keymap.On(d.Action))
		}
	}
	st, ok := m.common.Keys.Lookup(msg, all)
	if !ok {
		return nil // not a key of canopy's: nothing to explain
	}
	d, _ := m.common.Keys.Def(st.Action)
	return m.setFlash(fmt.Sprintf("`%s` (%s) does not apply to %s", msg.String(), d.Short, n.Noun()), false)
}

// shellActions are the shell's own keys (command line, help, quit, undo)
// with what they do, pressed before the top screen's and listed in the
// help overlay: real states, with reasons.
func (m *Model) shellActions() []keymap.State {
	cmd := keymap.On(keymap.Command).Does(m.openCommandLine)
	if m.starting {
		cmd = keymap.Off(keymap.Command, "wait: the organization is still opening")
	}
	help := keymap.On(keymap.Help).Does(func() tea.Cmd {
		m.openHelp()
		return nil
	})
	states := []keymap.State{cmd, help, keymap.On(keymap.Quit).Does(func() tea.Cmd { return tea.Quit })}
	if m.top() != nil {
		states = append(states, m.undoState())
		if st, ok := m.accessState(); ok {
			states = append(states, st)
		}
	}
	return states
}

// undoState says whether u can undo something, and why not.
func (m *Model) undoState() keymap.State {
	if st := m.common.Change(keymap.Undo); !st.Enabled {
		return st
	}
	if len(m.env.undos) == 0 {
		return keymap.Off(keymap.Undo, "nothing to undo: no edit left from this session")
	}
	return keymap.On(keymap.Undo).Does(func() tea.Cmd { return m.env.undoLast(m.ctx) })
}

// typing reports whether the top screen takes typed text (a filter line,
// a picker), where q and ? are letters.
func (m *Model) typing() bool {
	top := m.top()
	if t, ok := top.(textInput); ok && t.TakesText() {
		return true
	}
	_, ok := top.(*picker.Model)
	return ok
}

func (m *Model) openHelp() {
	title, states := "canopy", []keymap.State(nil)
	if top := m.top(); top != nil {
		title, states = string(top.Title()), top.Actions()
	}
	m.help = help.New(m.common, title, append(append(states, m.shellActions()...), m.pluginStates()...))
	m.help.Listing(commands(m.common.Keys, m.env.kinds, m.plugins, m.views))
	m.layout()
}

// mouse sends mouse events inside the main area to the top screen, in its
// coordinates.
func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	top := m.top()
	if _, wheel := msg.(tea.MouseWheelMsg); wheel && m.help != nil {
		return m.help.Update(msg)
	}
	if top == nil || m.help != nil || m.cmd != nil {
		return nil
	}
	mouse := msg.Mouse()
	mouse.Y -= headerLines
	if mouse.Y < 0 || mouse.Y >= m.bodyHeight() {
		return nil
	}
	switch msg.(type) {
	case tea.MouseWheelMsg:
		return top.Update(tea.MouseWheelMsg(mouse))
	case tea.MouseClickMsg:
		return top.Update(tea.MouseClickMsg(mouse))
	}
	return nil
}

// run runs a `:` command.
func (m *Model) run(msg cmdline.RunMsg) tea.Cmd {
	for _, c := range shellCommands(m.common.Keys, m.env.kinds, m.plugins, m.views) {
		if c.Name != msg.Name {
			continue
		}
		if c.orgWide && m.env.org == nil {
			return m.setFlash("no organization yet", true)
		}
		return c.run(m, msg.Args)
	}
	return m.setFlash("no command :"+safe.String(msg.Name), true)
}

// explorer builds the main screen of the organization.
func (m *Model) explorer(ctx context.Context) views.Screen {
	e := m.env
	b := e.builder(ctx)
	root := b.group(e.org, nil)
	d := detail.New(ctx, m.common, e.fetch(ctx))
	roots := []*tree.Node{root}
	for _, k := range e.kinds.all {
		if k.root != nil {
			roots = append(roots, k.root(b))
		}
	}
	t := tree.New(m.common, tree.Config{
		Roots: roots,
		Open:  e.nodeOpen,
		Table: e.nodeTable,
		Select: func(n *tree.Node) tea.Cmd {
			if n == nil {
				return d.Show(nil)
			}
			return d.Show(detailItem(n, m.common))
		},
		Failed: func(n *tree.Node, err error) tea.Cmd {
			return d.Show(&detail.Failure{What: e.childrenOf(n), Err: err})
		},
		Copy:   e.nodeCopy,
		Search: func(pattern string) tea.Cmd { return e.findOnServer(ctx, pattern) },
		CopyRef: func(n *tree.Node) (string, string) {
			return e.nodeRef(n)
		},
		Bind: e.bindNode,
		Edit: func(n *tree.Node) *form.Config {
			if eds := e.kinds.editsOf(e.client, n.Item); len(eds) > 0 {
				cfg := e.formOf(ctx, eds[0])
				return &cfg
			}
			return nil
		},
		Updated: e.updateNode,
		New:     e.createIn,
		Delete: func(n *tree.Node) tea.Cmd {
			// The tree hears what went through the shell's DeletedMsg.
			return e.askDelete([]doomed{{item: n.Item, name: e.nodeName(n)}}, nil)
		},
		// A collapsed repo's row notes its advisories; an open one has its
		// tags' counts there, and its page the advisories.
		Note: func(n *tree.Node) []safe.Text {
			if k := e.kinds.of(n.Item); k != nil && k.notes != nil {
				return k.notes(e, n.Item, n.Expanded())
			}
			return nil
		},
		Counted: func(n *tree.Node) (int, int, bool) {
			if _, ok := n.Item.(*api.Repo); ok {
				return e.keptTags(n.ID)
			}
			return 0, 0, false
		},
		Advisories: func(n *tree.Node) tea.Cmd {
			if k := e.kinds.of(n.Item); k != nil && k.advisories != nil {
				return k.advisories(e, n.Item)
			}
			return nil
		},
		Deprecated: func(repo *tree.Node) tea.Cmd {
			uid, label := repo.ID, string(repo.Label)
			return e.open(func(ctx context.Context) views.Screen {
				return tagsTableOf(e, ctx, "tags of "+safe.Of(label), api.ListOptions{ChildrenOf: uid}, label, true)
			})
		},
	})
	return explorer.New(m.common, safe.Of(e.org.Name), t, d)
}

// detailItem is what the pane shows for a node: the resource, or a summary
// of a collection.
func detailItem(n *tree.Node, c views.Common) any {
	if n.Item != nil {
		return n.Item
	}
	s := &detail.Summary{Title: n.Label, What: n.Kind.Name,
		State: func() (int, bool, error) { return -1, false, nil },
		Hint:  c.Key(keymap.Open) + " opens it as a full-screen table; " + c.Key(keymap.Expand) + " expands it here"}
	if n.Parent != nil {
		s.Title += " of " + n.Parent.Label
	}
	if n.Uncounted {
		s.What = "ecosystems" // the libraries' groupings, not the libraries
	}
	if l := n.Children; l != nil {
		node := n
		s.State = func() (int, bool, error) {
			err, _ := l.Err()
			n, _ := l.Count()
			return n, l.Busy() || node.Queued(), err
		}
		s.AtLeast = func() bool { _, exact := l.Count(); return !exact }
	}
	return s
}

// childrenOf names what a node's children are, for a failure: "the tags
// of node".
func (e *env) childrenOf(n *tree.Node) safe.Text {
	if k := e.kinds.of(n.Item); k != nil && k.children != "" {
		return "the " + safe.Of(k.children) + " of " + n.Label
	}
	if n.Kind.IsCollection() && n.Parent != nil && n.Parent.Item != nil {
		return "the " + n.Label + " of " + n.Parent.Label
	}
	return "the " + n.Label
}

// currentGroup is the folder (or organization) the tree's cursor is in.
func (m *Model) currentGroup() (uid, name string) {
	uid, name = m.env.org.UID, safe.String(m.env.org.Name)
	if len(m.stack) == 0 {
		return uid, name
	}
	ex, ok := m.stack[0].screen.(*explorer.Model)
	if !ok {
		return uid, name
	}
	// What the top-most screen that shows a resource is on: a tag's repo's
	// folder, a repo's, a folder itself.
	for i := len(m.stack) - 1; i > 0; i-- {
		s, ok := m.stack[i].screen.(current)
		if !ok {
			continue
		}
		if g := m.env.folderOf(s.Current()); g != "" {
			if path := m.env.folderPath(g); path != "" {
				return g, safe.String(path)
			}
			if n := ex.Tree().Find(g); n != nil {
				return g, string(n.Label)
			}
			return g, "" // asked for by the screen that needs it
		}
	}
	for n := ex.Tree().Selected(); n != nil; n = n.Parent {
		if k := m.env.kinds.of(n.Item); k != nil && k.holdsFolders() {
			return k.uid(n.Item), string(n.Label)
		}
	}
	return uid, name
}

// updateNode gives a node the new version of its resource.
func (e *env) updateNode(n *tree.Node, item any) {
	if k := e.kinds.of(item); k != nil && k.updated != nil {
		k.updated(n, item)
	}
}
