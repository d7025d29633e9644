package tree

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
)

// afterPage shows the children a page brought. Only their rows change:
// the gap they filled is split around them (or the tail row that stood
// for the children gives way to their layout), so a page costs the rows
// it brings, not the rows already shown, and a page far down a list of
// 10⁶ (a G) is placed without the pages before it.
func (m *Model) afterPage(n *Node) {
	if !n.expanded || !m.visible(n) {
		return
	}
	l := n.Children
	k := -1
	switch {
	case l.Gen() != n.laidGen:
	case n.laid < 0:
		k = m.findRow(n, func(r *row) bool { return r.kind == rowTail })
	case laysOut(n) && l.Total() >= n.laid:
		start, _ := l.Added()
		k = m.findRow(n, func(r *row) bool { return r.kind == rowGap && r.pos <= start && start < r.pos+r.span })
	}
	if k < 0 {
		m.rebuild()
		return
	}
	old, before := m.rows[k], m.lineCount()
	var add []row
	if old.kind == rowTail {
		add = childRows(nil, n, old.depth)
	} else {
		add = m.fillGap(n, old)
	}
	if add == nil && old.kind != rowTail {
		m.rebuild()
		return
	}
	m.rows = slices.Replace(m.rows, k, k+1, add...)
	m.renumber(k)
	// A cursor on the row that gave way stays on the same line: the first
	// child, or the same position of the gap; below it, it moves with the
	// lines added.
	if m.cursor >= old.at+old.lines() {
		m.cursor += m.lineCount() - before
	}
	m.clamp()
}

// fillGap is what replaces the gap g of n's children once a page filled
// some of its positions: what is still missing before them, the loaded
// children, what is still missing after. The gap that ends the children
// stretches to the list's length, which grows while a server without a
// total pages on. Nil when the page is not inside g.
func (m *Model) fillGap(n *Node, g row) []row {
	l := n.Children
	start, end := l.Added()
	last := g.pos + g.span
	switch {
	case last == n.laid:
		last = l.Total()
	case l.Total() != n.laid:
		return nil // the list's length changed, and not at this gap's end
	}
	if end > last {
		return nil
	}
	n.laid = l.Total()
	add := gapRow(nil, n, g.depth, g.pos, start)
	for p := start; p < end; p++ {
		c, ok := l.At(p)
		if !ok {
			return nil
		}
		add = flattenTo(add, *c, g.depth)
	}
	return gapRow(add, n, g.depth, end, last)
}

// findRow is the index of n's row that ok accepts, searched outward from
// the cursor (pages come for lines near it), or -1.
func (m *Model) findRow(n *Node, ok func(*row) bool) int {
	if len(m.rows) == 0 {
		return -1
	}
	c := m.rowIndex(min(m.cursor, m.lineCount()-1))
	for d := 0; c+d < len(m.rows) || c-d-1 >= 0; d++ {
		for _, i := range [2]int{c + d, c - d - 1} {
			if i >= 0 && i < len(m.rows) && m.rows[i].node == n && ok(&m.rows[i]) {
				return i
			}
		}
	}
	return -1
}

// keepsTail reports whether n's children show as one tail row: while the
// first page loads or failed, or to say "(none)".
func keepsTail(n *Node) bool {
	return !laysOut(n) && (n.Children.Total() != 0 || len(n.Static) == 0)
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
	r := m.cursorRow()
	n := r.node
	if r.kind == rowNode && n.Children == nil {
		n = n.Parent
	}
	if n == nil || n.Children == nil {
		return views.Flash("nothing to refresh here")
	}
	if err, at := n.Children.Err(); err != nil {
		if r.kind == rowGap {
			at = r.pos
		}
		return n.Children.Retry(at, 0)
	}
	if !n.started {
		return m.start(n)
	}
	return m.reload(n)
}

// prefetch asks for the unloaded children within a screen of the cursor:
// for each gap there, the page at its first and at its last line in reach
// (one request covers both on a screen of fewer lines than a page), so
// steady scrolling never waits and a jump costs one request.
func (m *Model) prefetch() tea.Cmd {
	if len(m.rows) == 0 {
		return nil
	}
	from, to := max(m.cursor-m.height, 0), min(m.cursor+m.height, m.lineCount()-1)
	var cmds []tea.Cmd
	for k := m.rowIndex(from); k < len(m.rows) && m.rows[k].at <= to; k++ {
		r := &m.rows[k]
		if r.kind != rowGap {
			continue
		}
		first := r.pos + max(from-r.at, 0)
		last := r.pos + min(to-r.at, r.span-1)
		l := r.node.Children
		cmds = append(cmds, l.Ensure(first, 0), l.Ensure(last, 0))
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
	r := m.cursorRow()
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
		if slices.ContainsFunc(msg.Changes, func(c views.Change) bool { return c.Names(n.ID) }) {
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
