package tree

import "sort"

// visible reports whether all of n's ancestors are expanded.
func (m *Model) visible(n *Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if !p.expanded {
			return false
		}
	}
	return true
}

// lineCount is the number of lines of the flattened tree (a gap counts its
// positions).
func (m *Model) lineCount() int {
	if len(m.rows) == 0 {
		return 0
	}
	last := &m.rows[len(m.rows)-1]
	return last.at + last.lines()
}

// rowIndex is the index of the row holding line i (0 <= i < lineCount).
func (m *Model) rowIndex(i int) int {
	return sort.Search(len(m.rows), func(k int) bool { return m.rows[k].at+m.rows[k].lines() > i })
}

// line is the row of line i, narrowed to that one line when it is a gap
// (its position the line's own).
func (m *Model) line(i int) row {
	r := m.rows[m.rowIndex(i)]
	if r.kind == rowGap {
		r.pos += i - r.at
		r.at, r.span = i, 1
	}
	return r
}

// cursorRow is the row under the cursor (the tree has at least one line).
func (m *Model) cursorRow() row { return m.line(m.cursor) }

// lineOf is the line of n's own row, or -1 when it is not shown.
func (m *Model) lineOf(n *Node) int {
	for _, r := range m.rows {
		if r.node == n && r.kind == rowNode {
			return r.at
		}
	}
	return -1
}

// renumber sets the lines of the rows from index k on, after rows were
// added or taken there.
func (m *Model) renumber(k int) {
	at := 0
	if k > 0 {
		prev := &m.rows[k-1]
		at = prev.at + prev.lines()
	}
	for i := k; i < len(m.rows); i++ {
		m.rows[i].at = at
		at += m.rows[i].lines()
	}
}

func (m *Model) clamp() {
	m.cursor = min(max(m.cursor, 0), max(m.lineCount()-1, 0))
	h := m.rowsHigh()
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+h {
		m.offset = m.cursor - h + 1
	}
	m.offset = min(max(m.offset, 0), max(m.lineCount()-h, 0))
}

// rebuild flattens the expanded tree into rows, keeping the cursor on the
// same node (or the same position of the same collection). It runs on
// structural changes (expand, collapse, a reload), never in View.
func (m *Model) rebuild() {
	var keep row
	had := m.cursor < m.lineCount()
	if had {
		keep = m.cursorRow()
	}
	m.rows = m.rows[:0]
	for _, r := range m.cfg.Roots {
		m.flatten(r, 0)
	}
	m.renumber(0)
	if had {
		// The same row if it is still there; a tail row that gave way to
		// loaded children leaves the cursor where it was, on the first of
		// them.
		for _, r := range m.rows {
			if r.node != keep.node || r.kind != keep.kind {
				continue
			}
			if r.kind != rowGap {
				m.cursor = r.at
				break
			}
			if keep.pos >= r.pos && keep.pos < r.pos+r.span {
				m.cursor = r.at + keep.pos - r.pos
				break
			}
		}
	}
	m.clamp()
}

func (m *Model) flatten(n *Node, depth int) { m.rows = flattenTo(m.rows, n, depth) }

// flattenTo appends the rows of n and its visible descendants (their lines
// are set by renumber).
func flattenTo(rows []row, n *Node, depth int) []row {
	rows = append(rows, row{node: n, kind: rowNode, depth: depth})
	if !n.expanded {
		return rows
	}
	if n.Children != nil {
		rows = childRows(rows, n, depth+1)
	}
	for _, s := range n.Static {
		rows = flattenTo(rows, s, depth+1)
	}
	return rows
}

// childRows appends the rows of n's paged children: each loaded child (and
// what it shows), a gap for each run of positions not loaded, or the tail
// row while none can be (loading, failed, none).
func childRows(rows []row, n *Node, depth int) []row {
	l := n.Children
	n.laidGen = l.Gen()
	if !laysOut(n) {
		n.laid = -1
		if keepsTail(n) {
			rows = append(rows, row{node: n, kind: rowTail, depth: depth, span: 1})
		}
		return rows
	}
	n.laid = l.Total()
	next := 0
	for _, run := range l.Runs() {
		rows = gapRow(rows, n, depth, next, run.Start)
		for _, c := range run.Items {
			rows = flattenTo(rows, c, depth)
		}
		next = run.Start + len(run.Items)
	}
	return gapRow(rows, n, depth, next, n.laid)
}

// gapRow appends the gap of n's positions from..to, if not empty.
func gapRow(rows []row, n *Node, depth, from, to int) []row {
	if to <= from {
		return rows
	}
	return append(rows, row{node: n, kind: rowGap, depth: depth, pos: from, span: to - from})
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
