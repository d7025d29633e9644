package tree

import (
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/filter"
)

// Actions lists what applies to the node under the cursor, each with what
// it does.
func (m *Model) Actions() []keymap.State {
	if m.editing() {
		return m.editor.Actions()
	}
	if m.TakesText() {
		return append(m.search.Actions(), m.serverState())
	}
	moves := views.Moves(m.cursor, m.lineCount(), m.rowsHigh(), m.moveTo)
	if m.filtering() {
		why := "clear the filter (" + m.common.Key(keymap.Back) + ") first"
		open, copyState := keymap.On(keymap.Open).Does(m.open), keymap.On(keymap.Copy).Does(m.copy)
		if m.Selected() == nil {
			// A filter that matches nothing leaves nothing to open or copy.
			open, copyState = keymap.Off(keymap.Open, "nothing matches the filter"), keymap.Off(keymap.Copy, "nothing matches the filter")
		}
		states := []keymap.State{open, keymap.On(keymap.Back).Saying("clear filter").Does(m.back), keymap.On(keymap.Filter).Does(m.openFilter),
			m.serverState(), keymap.Off(keymap.Expand, why), keymap.Off(keymap.Collapse, why), keymap.Off(keymap.Refresh, why)}
		if m.cfg.Copy != nil {
			states = append(states, copyState)
		}
		if n := m.Selected(); n != nil && m.cfg.CopyRef != nil {
			// What `Y` copies of a match is the same with or without the
			// filter: it reads the node, not the tree's shape.
			if text, _ := m.cfg.CopyRef(n); text != "" {
				states = append(states, keymap.On(keymap.CopyRef).Does(m.copyRef))
			}
		}
		// The keys that act on a node's place in the tree wait for the
		// filter to go: said, rather than "does not apply" to the node.
		for _, a := range m.placed() {
			states = append(states, keymap.Off(a, why))
		}
		return append(states, moves...)
	}
	n := m.Selected()
	states := []keymap.State{}
	if n != nil {
		r := m.cursorRow()
		expand, open := keymap.On(keymap.Expand).Does(m.expandCursor), keymap.On(keymap.Open).Does(m.open)
		switch {
		case r.kind != rowNode:
			states = append(states, expand)
		case n.Kind.IsCollection():
			states = append(states, open, m.expandState(n, expand))
		case n.Expandable():
			states = append(states, m.expandState(n, expand), withHide(open))
		default:
			if m.cfg.Open == nil {
				open = keymap.Off(keymap.Open, "nothing more to show for this "+n.Kind.name())
			}
			states = append(states, open, keymap.Off(keymap.Expand, article(n.Kind.name())+" has no children"))
		}
		states = append(states, keymap.On(keymap.Collapse).Does(m.collapseCursor), keymap.Quiet(keymap.Back).Does(m.back))
		if m.cfg.Table != nil && n.Expandable() && !n.Kind.IsCollection() && r.kind == rowNode {
			states = append(states, keymap.On(keymap.Table).Does(func() tea.Cmd { return m.cfg.Table(m.Selected()) }))
		}
		states = append(states, keymap.On(keymap.Refresh).Does(m.refresh), keymap.On(keymap.Filter).Does(m.openFilter))
		if m.cfg.Deprecated != nil && repoOf(n) != nil {
			states = append(states, keymap.On(keymap.OnlyFlagged).Does(func() tea.Cmd { return m.cfg.Deprecated(repoOf(m.Selected())) }))
		}
		if m.cfg.Advisories != nil && repoOf(n) != nil {
			states = append(states, keymap.On(keymap.Advisories).Does(func() tea.Cmd { return m.cfg.Advisories(repoOf(m.Selected())) }))
		}
		if r.kind == rowNode {
			if n.Kind != nil && n.Kind.Binds && m.cfg.Bind != nil {
				states = append(states, m.common.Change(keymap.Bind).Does(func() tea.Cmd { return m.cfg.Bind(m.Selected()) }))
			}
			if m.cfg.Edit != nil && m.cfg.Edit(n) != nil {
				states = append(states, m.common.Change(keymap.Edit).Does(m.startEdit))
			}
			if m.cfg.New != nil && n.Kind != nil && n.Kind.Creates {
				states = append(states, m.common.Change(keymap.New).Does(func() tea.Cmd { return m.cfg.New(m.Selected()) }))
			}
			if m.cfg.Delete != nil && deletable(n) {
				states = append(states, m.common.Change(keymap.Delete).Does(func() tea.Cmd { return m.cfg.Delete(m.Selected()) }))
			}
		}
		if m.cfg.Copy != nil && r.kind == rowNode {
			if text, _ := m.cfg.Copy(n); text != "" {
				states = append(states, keymap.On(keymap.Copy).Does(m.copy))
			} else {
				states = append(states, keymap.Off(keymap.Copy, m.Noun()+" has no uid to copy"))
			}
		}
		if m.cfg.CopyRef != nil && r.kind == rowNode {
			if text, _ := m.cfg.CopyRef(n); text != "" {
				states = append(states, keymap.On(keymap.CopyRef).Does(m.copyRef))
			}
		}
		// A resource that expands (a repo, a folder) has a page too (its
		// hint goes first when the footer is short: tab shows the pane).
		if m.cfg.Open != nil && n.Expandable() && !n.Kind.IsCollection() && n.Item != nil && r.kind == rowNode {
			states = append(states, keymap.On(keymap.Page).Does(func() tea.Cmd { return m.cfg.Open(m.Selected()) }))
		}
	}
	return append(states, moves...)
}

// expandState is expand (l) on n: hidden from the footer once n is
// expanded (it then steps into it).
func (m *Model) expandState(n *Node, expand keymap.State) keymap.State {
	if n.expanded {
		return withHide(expand)
	}
	return expand
}

func withHide(s keymap.State) keymap.State {
	s.Hide = true
	return s
}

// run does what the key of a does here: the Run of its state among
// Actions, or its reason when it is off; nil when a does not apply. Code
// that acts as a key would (a held open) goes through it, so that only
// Actions says what a key does.
func (m *Model) run(a keymap.Action) tea.Cmd {
	st, ok := keymap.Find(m.Actions(), a)
	switch {
	case !ok:
		return nil
	case !st.Enabled:
		return views.Disabled(st)
	case st.Run == nil:
		return nil
	}
	return st.Run()
}

// open is enter: a match shown in place, a collection or leaf opened
// (Config.Open), a resource expanded or collapsed.
func (m *Model) open() tea.Cmd {
	n := m.Selected()
	if n == nil {
		return nil // nothing under the cursor (a filter that matches nothing)
	}
	if m.filtering() && n.Expandable() && !n.Kind.IsCollection() {
		// Enter on a match shows it in place, expanded.
		m.clearFilter()
		cmd := m.expand(n)
		m.rebuild()
		return tea.Batch(cmd, m.selectCmd())
	}
	if n.Kind.IsCollection() || !n.Expandable() {
		if m.cfg.Open != nil {
			return m.cfg.Open(n)
		}
		return nil
	}
	if n.expanded {
		n.expanded = false
		m.rebuild()
		return nil
	}
	return m.expandCursor()
}

// copy copies what y copies of the node under the cursor (its uid).
func (m *Model) copy() tea.Cmd {
	n := m.Selected()
	if n == nil {
		return nil
	}
	return views.Copy(m.cfg.Copy(n))
}

// copyRef copies what Y copies (a tag's pull reference).
func (m *Model) copyRef() tea.Cmd {
	n := m.Selected()
	if n == nil {
		return nil
	}
	return views.Copy(m.cfg.CopyRef(n))
}

// expandCursor expands the node under the cursor, steps into an expanded
// one, or loads more on a pseudo row.
func (m *Model) expandCursor() tea.Cmd {
	r := m.cursorRow()
	n := r.node
	kind := r.kind
	if kind == rowTail {
		kind = tailKind(n)
	}
	switch kind {
	case rowGap:
		if m.failure(r) != nil {
			return n.Children.Retry(r.pos, 0)
		}
		// The child loads (it is asked for when seen): it opens once here.
		m.await = n
		return n.Children.Ensure(r.pos, 0)
	case rowFailed:
		return n.Children.Retry(0, 0)
	case rowLoading:
		m.await = n
		return nil
	case rowEmpty:
		return nil
	}
	if !n.Expandable() {
		return nil
	}
	if n.expanded {
		return m.moveTo(m.cursor + 1)
	}
	cmd := m.expand(n)
	m.rebuild()
	return tea.Batch(cmd, m.prefetch())
}

// collapseCursor collapses the node under the cursor or goes to its parent.
func (m *Model) collapseCursor() tea.Cmd {
	r := m.cursorRow()
	n := r.node
	if r.kind == rowNode && n.expanded {
		n.expanded = false
		m.rebuild()
		return nil
	}
	target := n.Parent
	if r.kind != rowNode {
		target = n
	}
	if target == nil {
		return nil
	}
	if i := m.lineOf(target); i >= 0 {
		return m.moveTo(i)
	}
	return nil
}

// moveTo puts the cursor on row i (clamped).
func (m *Model) moveTo(i int) tea.Cmd {
	m.await = nil
	m.cursor = i
	m.clamp()
	return tea.Batch(m.prefetch(), m.selectCmd())
}

// back is esc: it clears a filter; outside one, like h (collapse, or go
// to the parent), except at the top, which says how to leave.
func (m *Model) back() tea.Cmd {
	if m.filtering() {
		m.clearFilter()
		return m.selectCmd()
	}
	r := m.cursorRow()
	n := r.node
	top := r.kind == rowNode && n.Parent == nil && (!n.expanded || len(m.cfg.Roots) > 0 && n == m.cfg.Roots[0])
	if top {
		return views.Flash("this is the top: " + m.common.Key(keymap.Quit) + " quits")
	}
	return m.collapseCursor()
}

// repoOf is the node whose children can be flagged that a node is or
// belongs to (a repo, a tag's repo), or nil.
func repoOf(n *Node) *Node {
	switch {
	case n == nil:
		return nil
	case n.Kind != nil && n.Kind.Flags:
		return n
	case n.Parent != nil && n.Parent.Kind != nil && n.Parent.Kind.Flags:
		return n.Parent
	}
	return nil
}

// deletable reports whether a node's resource can be deleted from the tree.
func deletable(n *Node) bool { return n.Kind != nil && n.Kind.Deletes && n.Item != nil }

// serverState is whether ctrl+s can ask the server for what the filter
// names, and why not.
func (m *Model) serverState() keymap.State {
	var st keymap.State
	switch {
	case m.cfg.Search == nil:
		st = keymap.Off(keymap.ServerFilter, "this tree filters what is loaded only")
	case m.search == nil || m.search.Query().IsEmpty():
		st = keymap.Off(keymap.ServerFilter, "type a name first")
	case m.search.Query().Kind != filter.Fuzzy:
		st = keymap.Off(keymap.ServerFilter, "the server looks up names as typed, not inverted or as expressions")
	default:
		st = keymap.On(keymap.ServerFilter).Does(func() tea.Cmd { return m.cfg.Search(m.search.Query().Pattern) })
	}
	return st.Saying("ask the server") // one name for the key, whether it applies or not
}

// placed are the node keys the tree offers beside the ones a filter keeps
// (table, flagged tags, advisories, bind, edit, new, delete, page): off
// while a filter is kept, for the reason it gives.
func (m *Model) placed() []keymap.Action {
	var out []keymap.Action
	for _, a := range []struct {
		on     bool
		action keymap.Action
	}{
		{m.cfg.Table != nil, keymap.Table}, {m.cfg.Deprecated != nil, keymap.OnlyFlagged},
		{m.cfg.Advisories != nil, keymap.Advisories}, {m.cfg.Bind != nil, keymap.Bind},
		{m.cfg.Edit != nil, keymap.Edit}, {m.cfg.New != nil, keymap.New},
		{m.cfg.Delete != nil, keymap.Delete}, {m.cfg.Open != nil, keymap.Page},
	} {
		if a.on {
			out = append(out, a.action)
		}
	}
	return out
}
