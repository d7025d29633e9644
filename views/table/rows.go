package table

import (
	"slices"

	tea "charm.land/bubbletea/v2"
)

// The rows shown (all, the flagged ones, a filter's matches, a local
// order's) and the cursor over them.

// rows is the number of rows shown: matches while filtering.
func (m *Model[T]) rows() int {
	switch {
	case m.filtering():
		return len(m.search.Matches())
	case m.sortedNow():
		return len(m.perm)
	case m.only:
		return len(m.onlyRows)
	}
	return m.cfg.List.Len()
}

// position is the list position of shown row i.
func (m *Model[T]) position(i int) int {
	if m.filtering() {
		ms := m.search.Matches()
		if i < 0 || i >= len(ms) {
			return -1
		}
		return m.search.Names().Rows[ms[i]]
	}
	if m.sortedNow() {
		if i < 0 || i >= len(m.perm) {
			return -1
		}
		return m.perm[i]
	}
	if m.only {
		if i < 0 || i >= len(m.onlyRows) {
			return -1
		}
		return m.onlyRows[i]
	}
	return i
}

// rowOf is the row shown at list position p, -1 when none is (or a
// filter shows the rows).
func (m *Model[T]) rowOf(p int) int {
	switch {
	case m.filtering():
		return -1
	case m.sortedNow():
		return slices.Index(m.perm, p)
	case m.only:
		if i, ok := slices.BinarySearch(m.onlyRows, p); ok {
			return i
		}
		return -1
	}
	return p
}

// moveTo puts the cursor on row i (clamped) and loads around it.
func (m *Model[T]) moveTo(i int) tea.Cmd {
	m.cursor = i
	m.focusUID, m.focusWhy = "", ""
	m.clamp()
	return tea.Batch(m.ensure(), m.selectCmd())
}

func (m *Model[T]) ensure() tea.Cmd {
	if m.filtering() || m.only {
		return nil // a filter shows loaded rows only; the flag scan loads the rest
	}
	return m.cfg.List.Ensure(m.cursor, m.bodyRows())
}

// selectCmd tells the shell about a new row under the cursor.
func (m *Model[T]) selectCmd() tea.Cmd {
	if m.cfg.Select == nil {
		return nil
	}
	it, ok := m.Selected()
	if !ok {
		return nil
	}
	uid := m.cfg.Key(it)
	if uid == m.selectedUID {
		return nil
	}
	m.selectedUID = uid
	return m.cfg.Select(it)
}

// clamp keeps the cursor on a row and the window around the cursor.
func (m *Model[T]) clamp() {
	n := m.rows()
	m.cursor = min(max(m.cursor, 0), max(n-1, 0))
	rows := m.bodyRows()
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+rows {
		m.offset = m.cursor - rows + 1
	}
	m.offset = min(max(m.offset, 0), max(n-rows, 0))
}
