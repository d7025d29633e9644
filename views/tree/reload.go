package tree

import (
	"slices"

	tea "charm.land/bubbletea/v2"
)

// reload loads the children of ns again (a change to them, or r) without
// losing what the user opened below: the loaded children that were
// expanded, and the cursor's node and its ancestors, are remembered by uid,
// and when a reloaded page brings a node with the same uid, that node takes
// the new data and keeps its subtree (see adopt). The cursor stays on its
// node, now or once it is back.
func (m *Model) reload(ns ...*Node) tea.Cmd {
	if m.former == nil {
		m.former = map[string]*Node{}
	}
	on := m.Selected()
	for p := on; p != nil; p = p.Parent {
		if slices.Contains(ns, p.Parent) {
			m.former[p.ID] = p
		}
	}
	var cmds []tea.Cmd
	for _, n := range ns {
		l := n.Children
		l.Each(func(_ int, c **Node) bool {
			if (*c).expanded {
				m.former[(*c).ID] = *c
			}
			return true
		})
		// The children stay shown until the new first page comes (and
		// stay, stale, when it fails).
		cmds = append(cmds, l.Refresh())
	}
	if !m.filtering() {
		m.rebuild()
		if m.refocus == nil {
			m.refocus = on
		}
		m.regainFocus()
	}
	return tea.Batch(cmds...)
}

// adopt swaps the reloaded nodes of n's last page for the nodes they
// replace, given the new data, so their expanded subtrees stay.
func (m *Model) adopt(n *Node) {
	if len(m.former) == 0 {
		return
	}
	l := n.Children
	start, end := l.Added()
	for i := start; i < end; i++ {
		c, ok := l.At(i)
		if !ok {
			continue
		}
		fresh := *c
		old, ok := m.former[fresh.ID]
		if !ok || old == fresh {
			continue
		}
		delete(m.former, fresh.ID)
		old.Label, old.Note, old.Item = fresh.Label, fresh.Note, fresh.Item
		old.Dim, old.Deprecated = fresh.Dim, fresh.Deprecated
		l.Replace(fresh.ID, old)
	}
}

// regainFocus puts the cursor back on the node it was on before a reload,
// once that node is shown again.
func (m *Model) regainFocus() {
	if m.focus != "" {
		for _, r := range m.rows {
			if r.node.ID == m.focus && r.kind == rowNode {
				m.cursor = r.at
				m.offset = max(0, m.cursor-m.rowsHigh()/2)
				m.clamp()
				m.refocus, m.focus = nil, ""
				return
			}
		}
	}
	if m.refocus == nil {
		return
	}
	if i := m.lineOf(m.refocus); i >= 0 {
		m.cursor = i
		m.offset = max(0, m.cursor-m.rowsHigh()/2)
		m.clamp()
		m.refocus = nil
	}
}
