package tree

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
)

// afterPage shows the children a page brought. Only the new rows are
// added, at the tail of n's children: loading a big collection costs the
// rows it brings, not the rows already shown (a full rebuild per page made
// loading quadratic).
func (m *Model) afterPage(n *Node, before int) {
	if !n.expanded || !m.visible(n) {
		return
	}
	after := n.Children.Contiguous()
	tail := m.findTail(n)
	if after < before || tail < 0 {
		m.rebuild()
		return
	}
	depth := m.rows[tail].depth
	var add []row
	for i := before; i < after; i++ {
		c, _ := n.Children.At(i)
		add = flattenTo(add, *c, depth)
	}
	removed := 0
	if !keepsTail(n) {
		m.rows = append(m.rows[:tail], m.rows[tail+1:]...)
		removed = 1
	}
	m.rows = slices.Insert(m.rows, tail, add...)
	// A cursor on the tail row stays put: it is now on the first new child.
	if m.cursor > tail {
		m.cursor += len(add) - removed
	}
	m.clamp()
}

// findTail is the index of n's tail row, searched outward from the cursor
// (pages come for collections near it), or -1.
func (m *Model) findTail(n *Node) int {
	for d := 0; d < len(m.rows); d++ {
		for _, i := range [2]int{m.cursor + d, m.cursor - d - 1} {
			if i >= 0 && i < len(m.rows) && m.rows[i].node == n && m.rows[i].kind == rowTail {
				return i
			}
		}
		if m.cursor+d >= len(m.rows) && m.cursor-d-1 < 0 {
			break
		}
	}
	return -1
}

// keepsTail reports whether n's children end with a tail row: while more
// can load (or failed, or loads), or to say "(none)".
func keepsTail(n *Node) bool {
	return tailKind(n) != rowEmpty || n.Children.Total() == 0 && len(n.Static) == 0
}

// expand shows n's children, starting its list and the lists of its static
// children (so that collection nodes show their totals at once).
func (m *Model) expand(n *Node) tea.Cmd {
	n.expanded = true
	cmds := []tea.Cmd{m.start(n)}
	for _, s := range n.Static {
		if s.Kind.IsCollection() {
			cmds = append(cmds, m.start(s))
		}
	}
	return tea.Batch(cmds...)
}

// start asks for the first page of n's children once.
func (m *Model) start(n *Node) tea.Cmd {
	if n.Children == nil || n.started {
		return nil
	}
	n.started = true
	m.lists = append(m.lists, n)
	return n.Children.Start()
}

// refresh reloads the collection under the cursor (or the one a pseudo row
// belongs to).
func (m *Model) refresh() tea.Cmd {
	r := m.rows[m.cursor]
	n := r.node
	if r.kind == rowNode && n.Children == nil {
		n = n.Parent
	}
	if n == nil || n.Children == nil {
		return views.Flash("nothing to refresh here")
	}
	if err, _ := n.Children.Err(); err != nil {
		return n.Children.Retry(n.Children.Contiguous(), 0)
	}
	if !n.started {
		return m.start(n)
	}
	return m.reload(n)
}

// prefetch asks for the next page of any collection whose "more" row is
// within a screen of the cursor, so steady scrolling never waits.
func (m *Model) prefetch() tea.Cmd {
	var cmds []tea.Cmd
	for i := max(m.cursor-m.height, 0); i < min(m.cursor+m.height+1, len(m.rows)); i++ {
		if r := m.rows[i]; r.kind == rowTail && tailKind(r.node) == rowMore {
			l := r.node.Children
			cmds = append(cmds, l.Ensure(l.Contiguous(), 0))
		}
	}
	return tea.Batch(cmds...)
}

// awaited expands the first child of n when l was pressed on n's loading
// row and the cursor is now on that child.
func (m *Model) awaited(n *Node) tea.Cmd {
	if m.await != n {
		return nil
	}
	if err, _ := n.Children.Err(); err != nil {
		m.await = nil
		return nil
	}
	r := m.rows[m.cursor]
	if r.kind != rowNode || r.node.Parent != n {
		return nil // still loading (an empty page, or a filter)
	}
	m.await = nil
	if !r.node.Expandable() || r.node.expanded {
		return nil
	}
	return m.expandCursor()
}

// changed loads again the started collections a change touched.
func (m *Model) changed(msg views.ChangedMsg) tea.Cmd {
	var changed []*Node
	for _, n := range m.lists {
		if slices.Contains(msg.IDs, n.ID) {
			changed = append(changed, n)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	// What was made here gets the cursor once its page is shown, as a new
	// row of a table does.
	m.focus = msg.Focus
	return m.reload(changed...)
}
