package table

import (
	tea "charm.land/bubbletea/v2"

	"canopy/text"
	"canopy/views"
)

// jump puts the cursor on the row a `:2500` or `:50%` asks for, among the
// rows shown (the matches while filtering, the flagged rows in a D view);
// rows not loaded there are fetched with one request, as for G.
func (m *Model[T]) jump(msg views.JumpMsg) tea.Cmd {
	rows := m.rows()
	if rows == 0 {
		return views.Flash("no rows to go to")
	}
	cmd := m.moveTo(msg.JumpIndex(rows))
	// The row in the middle of the screen, wherever it was: a jump lands
	// in the same place every time.
	m.offset = max(0, m.cursor-m.bodyRows()/2)
	m.clamp()
	if !msg.Percent && msg.Row > rows {
		return tea.Batch(cmd, views.Flash("there are "+text.Count(rows)+" rows: on the last"))
	}
	return cmd
}
