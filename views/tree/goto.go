package tree

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Goto puts the cursor on the node with this uid, expanding the path to it.
// Uids are hierarchical (a folder's uid extends its parent's), so the path
// is known before its nodes are: levels not loaded yet are loaded, page by
// page, and the walk goes on as they arrive.
func (m *Model) Goto(uid string) tea.Cmd {
	if m.search != nil && m.search.Active() {
		m.search.Clear()
		m.rebuild()
	}
	m.target = uid
	return m.seek()
}

// seek walks from the roots toward m.target as far as loaded nodes go.
func (m *Model) seek() tea.Cmd {
	if m.target == "" {
		return nil
	}
	var level []*Node
	level = append(level, m.cfg.Roots...)
	for {
		var next *Node
		for _, n := range level {
			if n.ID == m.target || strings.HasPrefix(m.target, n.ID+"/") {
				next = n
				break
			}
		}
		if next == nil {
			m.target = ""
			return nil // not under any loaded node: the uid is not in this tree
		}
		if next.ID == m.target {
			// Found: shown, and opened, since one goes to a folder to see
			// what is in it.
			m.target = ""
			m.reveal(next)
			var open tea.Cmd
			if next.Expandable() && !next.expanded {
				open = m.expand(next)
				m.rebuild()
			}
			return tea.Batch(open, m.selectCmd())
		}
		var cmds []tea.Cmd
		if !next.expanded {
			cmds = append(cmds, m.expand(next))
			m.rebuild()
		}
		l := next.Children
		if l == nil {
			m.target = ""
			return tea.Batch(cmds...)
		}
		level = level[:0]
		l.Each(func(_ int, c **Node) bool {
			level = append(level, *c)
			return true
		})
		found := false
		for _, c := range level {
			if c.ID == m.target || strings.HasPrefix(m.target, c.ID+"/") {
				found = true
			}
		}
		if !found {
			if l.Done() && !l.Busy() {
				m.target = "" // loaded to the end and not there
				return tea.Batch(cmds...)
			}
			// Wait for (or ask for) the next page of this level.
			return tea.Batch(append(cmds, l.Ensure(l.Contiguous(), 0))...)
		}
	}
}

// Find is the loaded node with this uid, or nil.
func (m *Model) Find(uid string) *Node {
	level := m.cfg.Roots
	for len(level) > 0 {
		var next []*Node
		for _, n := range level {
			if n.ID == uid {
				return n
			}
			if !strings.HasPrefix(uid, n.ID+"/") && !strings.Contains(n.ID, ":") {
				continue // uids are hierarchical: uid is not below n (collections have none of their own)
			}
			if l := n.Children; l != nil {
				l.Each(func(_ int, c **Node) bool {
					next = append(next, *c)
					return true
				})
			}
			next = append(next, n.Static...)
		}
		level = next
	}
	return nil
}
