package tree

import (
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views/search"
)

// TakesText reports whether typed keys go to the filter line.
func (m *Model) TakesText() bool { return m.editing() || m.search != nil && m.search.Typing() }

// filtering reports whether a filter narrows the tree.
func (m *Model) filtering() bool { return m.search != nil && m.search.Matches() != nil }

// snapshot collects every loaded node, expanded or not, in tree order (the
// walk is cheap: pointers); their labels become names in the command.
func (m *Model) snapshot() search.Snapshot {
	var nodes []*Node
	m.unloaded, m.unloadedMore = 0, false
	var walk func(n *Node)
	walk = func(n *Node) {
		nodes = append(nodes, n)
		if l := n.Children; l != nil {
			// What opened lists leave unloaded (a closed one, started for its
			// count, is not what the user looks through). Without a total,
			// how many more there are is not known.
			if c, _ := l.Count(); n.expanded && c > l.Loaded() {
				m.unloaded += c - l.Loaded()
			}
			m.unloadedMore = m.unloadedMore || n.expanded && l.Total() >= 0 && !l.Exact()
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
	return func() search.Names {
		out := search.Names{Primary: make([]string, len(nodes)), Secondary: make([]string, len(nodes)),
			Rows: make([]int, len(nodes)), Ref: nodes}
		for i, n := range nodes {
			out.Primary[i], out.Secondary[i], out.Rows[i] = string(n.Label), string(n.Note), i
		}
		return out
	}
}

func (m *Model) openFilter() tea.Cmd {
	if !m.filtering() {
		m.before = m.Selected()
	}
	if m.search == nil {
		m.search = search.New(m.common, m.snapshot)
		m.search.SetWidth(m.width)
	}
	return m.search.Open()
}

// updateFilter passes a message to the filter line and rebuilds the
// filtered rows from a new result.
func (m *Model) updateFilter(msg tea.Msg) tea.Cmd {
	was := m.filtering()
	cmd := m.search.Update(msg)
	r, answer := msg.(search.ResultMsg)
	answer = answer && m.search.Current(r)
	switch {
	case m.filtering():
		if answer {
			on := m.Selected()
			m.filterRows()
			if m.search.KeepsCursor() && on != nil {
				// More rows after the same best matches, or new nodes
				// searched too: stay put.
				m.cursorTo(on)
			}
		}
	case was:
		// Cancelled while typing: back to where the filter began.
		m.reveal(m.before)
	}
	return tea.Batch(cmd, m.selectCmd(), m.search.DueOpen(func() tea.Cmd { return m.run(keymap.Open) }))
}

// clearFilter drops a kept filter and shows the node it was on in place.
func (m *Model) clearFilter() {
	n := m.Selected()
	m.search.Clear()
	m.reveal(n)
}

// filterRows shows the matching nodes and their ancestors (dimmed), in tree
// order, with the cursor on the best match.
func (m *Model) filterRows() {
	names := m.search.Names()
	nodes, _ := names.Ref.([]*Node)
	matches := m.search.Matches()
	matched := make(map[*Node]bool, len(matches))
	show := make(map[*Node]bool, len(matches)*2)
	for _, i := range matches {
		matched[nodes[i]] = true
		for p := nodes[i]; p != nil && !show[p]; p = p.Parent {
			show[p] = true
		}
	}
	m.rows = m.rows[:0]
	best := 0
	for _, n := range nodes {
		if !show[n] {
			continue
		}
		if len(matches) > 0 && n == nodes[matches[0]] {
			best = len(m.rows)
		}
		m.rows = append(m.rows, row{node: n, at: len(m.rows), kind: rowNode, depth: n.Depth, dim: !matched[n]})
	}
	m.cursor, m.offset = best, max(0, best-m.rowsHigh()/2)
	m.clamp()
}

// reveal expands the ancestors of n (all loaded) and puts the cursor on it:
// leaving a filter shows where the match lives.
func (m *Model) reveal(n *Node) {
	if n == nil {
		m.rebuild()
		return
	}
	for p := n.Parent; p != nil; p = p.Parent {
		p.expanded = true
	}
	m.rebuild()
	if i := m.lineOf(n); i >= 0 {
		m.cursor = i
	}
	m.offset = max(0, m.cursor-m.rowsHigh()/2)
	m.clamp()
}

// cursorTo puts the cursor on n's row when it is shown.
func (m *Model) cursorTo(n *Node) {
	if i := m.lineOf(n); i >= 0 {
		m.cursor = i
		m.clamp()
	}
}

// lineShown reports whether the filter line takes the last line.
func (m *Model) lineShown() bool { return m.search != nil && (m.search.Typing() || m.search.Active()) }

// rowsHigh is the number of rows that fit above the filter line.
func (m *Model) rowsHigh() int {
	if m.lineShown() {
		return max(m.height-1, 1)
	}
	return max(m.height, 1)
}
