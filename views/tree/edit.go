package tree

import (
	tea "charm.land/bubbletea/v2"

	"canopy/text"
	"canopy/views"
	"canopy/views/form"
)

// editing reports whether a node is being edited in place.
func (m *Model) editing() bool { return m.editor != nil }

// startEdit puts an editor of the node's main field in place of its row.
func (m *Model) startEdit() tea.Cmd {
	cfg := m.cfg.Edit(m.Selected())
	if cfg == nil {
		return views.Flash("nothing to edit here")
	}
	if cfg.Flow != nil {
		return cfg.Flow()
	}
	m.editor = form.New(m.common, *cfg)
	m.editor.SetSize(m.width, 1)
	m.fitEditor()
	return m.editor.Init()
}

func (m *Model) updateEdit(msg tea.Msg) tea.Cmd {
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

// updated gives every loaded node the chance to take the new version.
func (m *Model) updated(msg views.UpdatedMsg) tea.Cmd {
	if m.cfg.Updated == nil {
		return nil
	}
	m.eachLoaded(func(n *Node) { m.cfg.Updated(n, msg.Item) })
	if n := m.Selected(); n != nil && m.cfg.Select != nil {
		m.selected = nil // the pane shows the new version
		return m.selectCmd()
	}
	return nil
}

// editLabelW is the width of a field's label in the tree's editor.
const editLabelW = 12

// fitEditor gives the editor's input the row's width less the indent, the
// label and the cursor.
func (m *Model) fitEditor() {
	if m.editor == nil || m.cursor >= m.lineCount() {
		return
	}
	m.editor.FitInputs(m.width - (2*m.cursorRow().depth + 2) - editLabelW - 2)
}

// editRows are the lines of the node being edited: its label, then each
// field with its reason wrapped beside it, then the keys. The request it
// sends and what went wrong are in the footer (Footer), at full width.
func (m *Model) editRows(r row) []string {
	th := m.common.Theme
	indent := text.Fit("", 2*r.depth+2, false, "")
	lines := []string{m.paints.selected.Render(text.Fit(indent+string(r.node.Label), m.width, false, th.Glyphs.Ellipsis))}
	for i := range m.editor.Fields() {
		for _, l := range m.editor.Lines(i, max(m.width-len(indent), 10), editLabelW) {
			lines = append(lines, indent+l)
		}
	}
	return append(lines, text.Cut(indent+m.editor.StatusFit(m.width-text.Width(indent)), m.width, th.Glyphs.Ellipsis))
}

// editExtra is how many lines the editor adds under the node it edits.
func (m *Model) editExtra() int {
	if !m.editing() || m.cursor >= m.lineCount() {
		return 0
	}
	return len(m.editRows(m.cursorRow())) - 1
}

// Footer is what an edit in place sends and what went wrong, for the
// shell to show across the whole width; nil when nothing is edited.
func (m *Model) Footer(width int) []string {
	if !m.editing() {
		return nil
	}
	return m.editor.Footer(width, false)
}
