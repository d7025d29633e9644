package ui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/detail"
	"canopy/views/explorer"
	"canopy/views/form"
	"canopy/views/help"
	"canopy/views/picker"
	"canopy/views/safe"
	"canopy/views/tree"
)

// textInput is a screen that takes typed text, where q and ? are letters.
type textInput interface{ TakesText() bool }

// key routes a key press: ctrl+c always quits; an open command line or help
// takes the key; then the global keys (q, ?, :) unless the screen takes
// text; then the screen.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return tea.Quit
	}
	if m.cmd != nil {
		return m.cmd.Update(msg)
	}
	if m.help != nil {
		return m.help.Update(msg)
	}
	top := m.top()
	if !m.typing() {
		switch {
		case m.common.Keys.Is(msg, keymap.Quit):
			return tea.Quit
		case m.common.Keys.Is(msg, keymap.Help):
			m.openHelp()
			return nil
		case m.common.Keys.Is(msg, keymap.Undo) && top != nil:
			if st := m.common.Change(keymap.Undo); !st.Enabled {
				return m.setFlash(st.Reason, true)
			}
			if m.lastEdit == nil {
				return m.setFlash("nothing to undo", false)
			}
			return tea.Batch(m.env.undo(m.ctx, m.lastEdit), m.setFlash("undoing the edit of "+m.lastEdit.e.mask+"…", false))
		case m.common.Keys.Is(msg, keymap.Command) && !m.starting:
			m.cmd = cmdline.New(m.common, commands())
			m.layout()
			return m.cmd.Open()
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
			return m.setFlash("this is the top: q quits", false)
		}
	}
	return top.Update(msg)
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
		title, states = top.Title(), top.Actions()
	}
	m.help = help.New(m.common, title, states)
	m.layout()
}

// mouse sends mouse events inside the main area to the top screen, in its
// coordinates.
func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	top := m.top()
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
	switch msg.Name {
	case "quit":
		return tea.Quit
	case "help":
		m.openHelp()
		return nil
	case "tree":
		m.popAll()
		return nil
	case "org":
		return m.resolveOrgPicker()
	case "deprecated":
		if m.env.org == nil {
			return m.setFlash("no organization yet", true)
		}
		uid, name := m.currentGroup()
		return m.env.deprecatedScreen(uid, name)
	case "group":
		if m.env.org == nil {
			return m.setFlash("no organization yet", true)
		}
		return tea.Batch(m.env.listGroups(), m.setFlash("listing folders…", false))
	}
	if m.env.org == nil {
		return m.setFlash("no organization yet", true)
	}
	cmd, err := m.env.commandScreen(msg.Name)
	if err != nil {
		return m.setFlash(err.Error(), true)
	}
	return cmd
}

// resolveOrgPicker lists the organizations again to switch between them.
func (m *Model) resolveOrgPicker() tea.Cmd {
	m.opts.Org = ""
	return m.resolveOrg()
}

// gotOrgs opens the only organization, or asks which one.
func (m *Model) gotOrgs(msg orgsMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		m.startErr = msg.err
		return nil
	case len(msg.orgs) == 0:
		m.startErr = errors.New("this token sees no organization: it has no role binding on any organization's root group")
		return nil
	case len(msg.orgs) == 1:
		return m.openOrg(&msg.orgs[0])
	}
	opts := make([]picker.Option, len(msg.orgs))
	for i, g := range msg.orgs {
		opts[i] = picker.Option{Label: safe.String(g.Name), Detail: safe.String(g.Description), Value: g}
	}
	cancellable := m.env.org != nil
	p := picker.New(m.common, "org", "Which organization?", opts, cancellable)
	m.starting = false
	return m.push(func(context.Context) views.Screen { return p })
}

// openOrg replaces every screen with the explorer of org.
func (m *Model) openOrg(org *api.Group) tea.Cmd {
	for len(m.stack) > 0 {
		m.stack[len(m.stack)-1].cancel()
		m.stack = m.stack[:len(m.stack)-1]
	}
	m.starting, m.startErr = false, nil
	m.env.org = org
	m.env.names = map[string]string{}
	m.env.naming = false
	return tea.Batch(m.push(m.explorer), m.setFlash(fmt.Sprintf("organization %s", safe.String(org.Name)), false))
}

// explorer builds the main screen of the organization.
func (m *Model) explorer(ctx context.Context) views.Screen {
	e := m.env
	b := e.builder(ctx)
	root := b.group(e.org, nil)
	d := detail.New(ctx, m.common, e.fetch(ctx))
	t := tree.New(m.common, tree.Config{
		Roots:  []*tree.Node{root, b.advisories(), b.libraries()},
		Open:   e.nodeOpen,
		Table:  e.nodeTable,
		Select: func(n *tree.Node) tea.Cmd { return d.Show(detailItem(n)) },
		Copy:   nodeCopy,
		CopyRef: func(n *tree.Node) (string, string) {
			return nodeRef(e.org.Name, n)
		},
		Bind: e.bindNode,
		Edit: func(n *tree.Node) *form.Config {
			if eds := e.edits(n.Item); len(eds) > 0 {
				cfg := e.formOf(ctx, eds[0])
				return &cfg
			}
			return nil
		},
		Updated: updateNode,
		New:     e.createIn,
		Delete:  func(n *tree.Node) tea.Cmd { return e.deleteDialog(n.Item, "") },
		Deprecated: func(repo *tree.Node) tea.Cmd {
			uid, label := repo.ID, repo.Label
			return open(func(ctx context.Context) views.Screen {
				return e.tagsTableOf(ctx, "deprecated tags of "+label, api.ListOptions{ChildrenOf: uid}, label, true)
			})
		},
	})
	return explorer.New(m.common, safe.String(e.org.Name), t, d)
}

// detailItem is what the pane shows for a node: the resource, or a summary
// of a collection.
func detailItem(n *tree.Node) any {
	if n.Item != nil {
		return n.Item
	}
	s := &detail.Summary{Title: n.Label, What: tree.KindName(n.Kind), Count: func() int { return -1 },
		Hint: "enter opens it as a full-screen table; l expands it here"}
	if n.Parent != nil {
		s.Title += " of " + n.Parent.Label
	}
	if n.Children != nil {
		s.Count = n.Children.Total
	}
	return s
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
	for n := ex.Tree().Selected(); n != nil; n = n.Parent {
		if g, ok := n.Item.(*api.Group); ok {
			return g.UID, n.Label
		}
	}
	return uid, name
}

// updateNode gives a node the new version of its resource.
func updateNode(n *tree.Node, item any) {
	switch it := item.(type) {
	case *api.Repo:
		if r, ok := n.Item.(*api.Repo); ok && r.UID == it.UID {
			n.Item, n.Label = it, safe.String(it.Name)
		}
	case *api.Group:
		if g, ok := n.Item.(*api.Group); ok && g.UID == it.UID {
			n.Item, n.Label = it, safe.String(it.Name)
		}
	case *api.Identity:
		if id, ok := n.Item.(*api.Identity); ok && id.UID == it.UID {
			n.Item = it
			if it.ClaimMatch != nil {
				n.Note = safe.String(it.ClaimMatch.Subject)
			}
		}
	}
}
