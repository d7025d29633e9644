package table

import (
	tea "charm.land/bubbletea/v2"

	"canopy/text"
	"canopy/views"
	"canopy/views/form"
)

// editing reports whether a row is being edited in place.
func (m *Model[T]) editing() bool { return m.editor != nil }

// startEdit puts an editor of the row's main field in place of the row.
func (m *Model[T]) startEdit() tea.Cmd {
	it, ok := m.Selected()
	if !ok {
		return views.Flash("row not loaded yet")
	}
	cfg := m.cfg.Edit(it)
	if cfg == nil {
		return views.Flash("nothing to edit in this row")
	}
	if cfg.Flow != nil {
		return cfg.Flow()
	}
	m.editor = form.New(m.common, *cfg)
	m.editor.SetSize(m.width, 1)
	m.fitEditor(it)
	return m.editor.Init()
}

// updateEdit passes a message to the editor and follows its end.
func (m *Model[T]) updateEdit(msg tea.Msg) tea.Cmd {
	if c, ok := msg.(form.ClosedMsg); ok {
		if c.Form == m.editor {
			m.editor = nil
		}
		return nil
	}
	cmd := m.editor.Update(msg)
	if m.editor.Closed() {
		// Gone now, not when its ClosedMsg comes: the next key is ours.
		m.editor = nil
	}
	return cmd
}

// replaced takes a new version of an item from the server.
func (m *Model[T]) replaced(msg views.UpdatedMsg) {
	it, ok := msg.Item.(*T)
	if !ok {
		return
	}
	if m.cfg.Holds != nil && !m.cfg.Holds(it) {
		if m.cfg.List.Remove(m.cfg.Key(it)) {
			m.clamp()
		}
		return
	}
	m.cfg.List.Replace(m.cfg.Key(it), *it)
}

// editRow draws the row being edited: its name, then the editor.
func (m *Model[T]) editRow(it *T) string {
	th := m.common.Theme
	name := " " + text.Fit(string(m.cfg.Columns[0].Cell(it)), m.widths[0], false, th.Glyphs.Ellipsis) + " "
	rest := max(m.width-text.Width(name), 10)
	return text.Fit(m.paints.selected.Render(name)+m.editor.Line(0, rest, editLabelW), m.width, false, "")
}

// editLabelW is the width of the field's label in a row being edited.
const editLabelW = 12

// fitEditor gives the editor's input what the row has after the name
// column, the label and the cursor.
func (m *Model[T]) fitEditor(it *T) {
	if len(m.widths) == 0 {
		return
	}
	name := text.Width(" " + text.Fit(string(m.cfg.Columns[0].Cell(it)), m.widths[0], false, "") + " ")
	m.editor.FitInputs(m.width - name - editLabelW - 2)
}

// Footer is what the edit in place sends and what went wrong (the reasons
// about the field too: the row has no room for them), for the shell to
// show across the whole width; nil when nothing is edited.
func (m *Model[T]) Footer(width int) []string {
	if !m.editing() {
		return nil
	}
	return m.editor.Footer(width, true)
}
