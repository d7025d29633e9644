package table

import (
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
)

// Cells lets a row's cells take a cursor of their own, for a table whose
// cells are questions (an access matrix: may this identity push here?):
// the expand and collapse keys (→ ←) move it among the columns From..To
// that are shown, the header marks its column, and enter opens what the
// cell under it stands for.
type Cells[T any] struct {
	From, To int
	Open     func(it *T, col int) tea.Cmd
}

// cellOn reports whether column i has the cell cursor.
func (m *Model[T]) cellOn(i int) bool { return m.cfg.Cells != nil && i == m.cellAt }

// cellMove moves the cell cursor by d columns, past those not shown, and
// no further than its first and last.
func (m *Model[T]) cellMove(d int) tea.Cmd {
	c := m.cfg.Cells
	for at := m.cellAt + d; at >= c.From && at <= c.To; at += d {
		if at < len(m.widths) && m.widths[at] > 0 {
			m.cellAt = at
			return nil
		}
	}
	return nil
}

// cellStates are the keys of the cell cursor: enter opens the cell, the
// expand and collapse keys move it.
func (m *Model[T]) cellStates() []keymap.State {
	open := keymap.On(keymap.Open).Does(func() tea.Cmd {
		if it, ok := m.Selected(); ok && it != nil {
			return m.cfg.Cells.Open(it, m.cellAt)
		}
		return nil
	}).Saying("open cell")
	return []keymap.State{open,
		keymap.On(keymap.Expand).Does(func() tea.Cmd { return m.cellMove(1) }).Saying("next cell"),
		keymap.On(keymap.Collapse).Does(func() tea.Cmd { return m.cellMove(-1) }).Saying("prev cell")}
}
