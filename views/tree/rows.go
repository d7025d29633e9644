package tree

// visible reports whether all of n's ancestors are expanded.
func (m *Model) visible(n *Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if !p.expanded {
			return false
		}
	}
	return true
}

func (m *Model) clamp() {
	m.cursor = min(max(m.cursor, 0), max(len(m.rows)-1, 0))
	h := m.rowsHigh()
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+h {
		m.offset = m.cursor - h + 1
	}
	m.offset = min(max(m.offset, 0), max(len(m.rows)-h, 0))
}

// rebuild flattens the expanded tree into rows, keeping the cursor on the
// same node. It runs on structural changes (expand, collapse, a page), never
// in View.
func (m *Model) rebuild() {
	var keep *Node
	keepKind, keepAt := rowNode, m.cursor
	if m.cursor < len(m.rows) {
		keep, keepKind = m.rows[m.cursor].node, m.rows[m.cursor].kind
	}
	m.rows = m.rows[:0]
	for _, r := range m.cfg.Roots {
		m.flatten(r, 0)
	}
	if keep != nil {
		// The same row if it is still there; a tail row that gave way to
		// loaded children leaves the cursor where it was, on the first of
		// them.
		for i, r := range m.rows {
			if r.node == keep && r.kind == keepKind {
				keepAt = i
				break
			}
		}
	}
	m.cursor = keepAt
	m.clamp()
}

func (m *Model) flatten(n *Node, depth int) { m.rows = flattenTo(m.rows, n, depth) }

// flattenTo appends the rows of n and its visible descendants.
func flattenTo(rows []row, n *Node, depth int) []row {
	rows = append(rows, row{node: n, kind: rowNode, depth: depth})
	if !n.expanded {
		return rows
	}
	if l := n.Children; l != nil {
		for i := range l.Contiguous() {
			c, _ := l.At(i)
			rows = flattenTo(rows, *c, depth+1)
		}
		if keepsTail(n) {
			rows = append(rows, row{node: n, kind: rowTail, depth: depth + 1})
		}
	}
	for _, s := range n.Static {
		rows = flattenTo(rows, s, depth+1)
	}
	return rows
}

// eachLoaded calls fn for every node loaded in the tree, shown or not.
func (m *Model) eachLoaded(fn func(*Node)) {
	var walk func(n *Node)
	walk = func(n *Node) {
		fn(n)
		if l := n.Children; l != nil {
			l.Each(func(_ int, c **Node) bool {
				walk(*c)
				return true
			})
		}
		for _, s := range n.Static {
			walk(s)
		}
	}
	for _, r := range m.cfg.Roots {
		walk(r)
	}
}
