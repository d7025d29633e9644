package tree

import (
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/filter"
)

// Actions lists what applies to the node under the cursor.
func (m *Model) Actions() []keymap.State {
	if m.editing() {
		return m.editor.Actions()
	}
	if m.TakesText() {
		return append(m.search.Actions(), m.serverState())
	}
	if m.filtering() {
		why := "clear the filter (" + m.common.Key(keymap.Back) + ") first"
		open, copyState := keymap.On(keymap.Open), keymap.On(keymap.Copy)
		if m.Selected() == nil {
			// A filter that matches nothing leaves nothing to open or copy.
			open, copyState = keymap.Off(keymap.Open, "nothing matches the filter"), keymap.Off(keymap.Copy, "nothing matches the filter")
		}
		states := []keymap.State{open, keymap.On(keymap.Back).Saying("clear filter"), keymap.On(keymap.Filter), m.serverState(),
			keymap.Off(keymap.Expand, why), keymap.Off(keymap.Collapse, why), keymap.Off(keymap.Refresh, why)}
		if m.cfg.Copy != nil {
			states = append(states, copyState)
		}
		for _, a := range []keymap.Action{keymap.Up, keymap.Down, keymap.Top, keymap.Bottom,
			keymap.HalfUp, keymap.HalfDown, keymap.PageUp, keymap.PageDown} {
			states = append(states, keymap.Quiet(a))
		}
		return states
	}
	n := m.Selected()
	states := []keymap.State{}
	if n != nil {
		r := m.cursorRow()
		switch {
		case r.kind != rowNode:
			states = append(states, keymap.On(keymap.Expand))
		case n.Kind.IsCollection():
			states = append(states, keymap.On(keymap.Open), m.expandState(n))
		case n.Expandable():
			states = append(states, m.expandState(n), withHide(keymap.On(keymap.Open)))
		default:
			open := keymap.Off(keymap.Open, "nothing more to show for this "+n.Kind.name())
			if m.cfg.Open != nil {
				open = keymap.On(keymap.Open)
			}
			states = append(states, open, keymap.Off(keymap.Expand, article(n.Kind.name())+" has no children"))
		}
		states = append(states, keymap.On(keymap.Collapse), keymap.Quiet(keymap.Back))
		if m.cfg.Table != nil && n.Expandable() && !n.Kind.IsCollection() && r.kind == rowNode {
			states = append(states, keymap.On(keymap.Table))
		}
		states = append(states, keymap.On(keymap.Refresh), keymap.On(keymap.Filter))
		if m.cfg.Deprecated != nil && repoOf(n) != nil {
			states = append(states, keymap.On(keymap.OnlyFlagged))
		}
		if m.cfg.Advisories != nil && repoOf(n) != nil {
			states = append(states, keymap.On(keymap.Advisories))
		}
		if r.kind == rowNode {
			if n.Kind != nil && n.Kind.Binds && m.cfg.Bind != nil {
				states = append(states, m.common.Change(keymap.Bind))
			}
			if m.cfg.Edit != nil && m.cfg.Edit(n) != nil {
				states = append(states, m.common.Change(keymap.Edit))
			}
			if m.cfg.New != nil && n.Kind != nil && n.Kind.Creates {
				states = append(states, m.common.Change(keymap.New))
			}
			if m.cfg.Delete != nil && deletable(n) {
				states = append(states, m.common.Change(keymap.Delete))
			}
		}
		if m.cfg.Copy != nil && r.kind == rowNode {
			if text, _ := m.cfg.Copy(n); text != "" {
				states = append(states, keymap.On(keymap.Copy))
			} else {
				states = append(states, keymap.Off(keymap.Copy, m.Noun()+" has no uid to copy"))
			}
		}
		if m.cfg.CopyRef != nil && r.kind == rowNode {
			if text, _ := m.cfg.CopyRef(n); text != "" {
				states = append(states, keymap.On(keymap.CopyRef))
			}
		}
		// A resource that expands (a repo, a folder) has a page too (its
		// hint goes first when the footer is short: tab shows the pane).
		if m.cfg.Open != nil && n.Expandable() && !n.Kind.IsCollection() && n.Item != nil && r.kind == rowNode {
			states = append(states, keymap.On(keymap.Page))
		}
	}
	for _, a := range []keymap.Action{keymap.Up, keymap.Down, keymap.Top, keymap.Bottom,
		keymap.HalfUp, keymap.HalfDown, keymap.PageUp, keymap.PageDown} {
		states = append(states, keymap.Quiet(a))
	}
	return states
}

func (m *Model) expandState(n *Node) keymap.State {
	if n.expanded {
		return withHide(keymap.On(keymap.Expand))
	}
	return keymap.On(keymap.Expand)
}

func withHide(s keymap.State) keymap.State {
	s.Hide = true
	return s
}

func (m *Model) do(a keymap.Action) tea.Cmd {
	if to, ok := views.Step(a, m.cursor, m.lineCount(), m.rowsHigh()); ok {
		return m.moveTo(to)
	}
	switch a {
	case keymap.Expand:
		return m.expandCursor()
	case keymap.Collapse:
		return m.collapseCursor()
	case keymap.Open:
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
	case keymap.Table:
		return m.cfg.Table(m.Selected())
	case keymap.Filter:
		return m.openFilter()
	case keymap.ServerFilter:
		return m.cfg.Search(m.search.Query().Pattern)
	case keymap.OnlyFlagged:
		return m.cfg.Deprecated(repoOf(m.Selected()))
	case keymap.Advisories:
		return m.cfg.Advisories(repoOf(m.Selected()))
	case keymap.Page:
		return m.cfg.Open(m.Selected())
	case keymap.Bind:
		return m.cfg.Bind(m.Selected())
	case keymap.Edit:
		return m.startEdit()
	case keymap.New:
		return m.cfg.New(m.Selected())
	case keymap.Delete:
		return m.cfg.Delete(m.Selected())
	case keymap.Back:
		if m.filtering() {
			m.clearFilter()
			return m.selectCmd()
		}
		return m.back()
	case keymap.Refresh:
		return m.refresh()
	case keymap.Copy, keymap.CopyRef:
		n := m.Selected()
		if n == nil {
			return nil
		}
		if a == keymap.CopyRef {
			return views.Copy(m.cfg.CopyRef(n))
		}
		return views.Copy(m.cfg.Copy(n))
	}
	return nil
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

// back is esc outside a filter: like h (collapse, or go to the parent),
// except at the top, which says how to leave.
func (m *Model) back() tea.Cmd {
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
		st = keymap.On(keymap.ServerFilter)
	}
	return st.Saying("ask the server") // one name for the key, whether it applies or not
}
