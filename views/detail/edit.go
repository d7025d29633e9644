package detail

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/text"
)

// editable lists the item's editable parts (main first), or nil.
func (m *Model) editable() []form.Config {
	if m.fetch.Edits == nil {
		return nil
	}
	return m.fetch.Edits(m.item)
}

// startEdit edits the only editable part, or asks which one.
func (m *Model) startEdit() tea.Cmd {
	parts := m.editable()
	switch len(parts) {
	case 0:
		return views.Flash("nothing here can be edited")
	case 1:
		return m.edit(parts[0])
	}
	m.choosing, m.choice = true, 0
	return nil
}

func (m *Model) edit(cfg form.Config) tea.Cmd {
	m.choosing = false
	m.editor = form.New(m.common, cfg)
	m.editor.SetSize(m.width, 1)
	return m.editor.Init()
}

// chooseActions are the keys while choosing a field.
func chooseActions() []keymap.State {
	return []keymap.State{keymap.On(keymap.Accept), keymap.On(keymap.Cancel), keymap.Quiet(keymap.Complete),
		keymap.Quiet(keymap.Next), keymap.Quiet(keymap.Prev), keymap.Quiet(keymap.Edit)}
}

// updateChoose moves among the editable parts and picks one.
func (m *Model) updateChoose(msg tea.KeyPressMsg) tea.Cmd {
	parts := m.editable()
	st, ok := m.common.Keys.Lookup(msg, chooseActions())
	if !ok || len(parts) == 0 {
		return nil
	}
	switch st.Action {
	case keymap.Accept, keymap.Edit:
		return m.edit(parts[m.choice%len(parts)])
	case keymap.Cancel:
		m.choosing = false
	case keymap.Complete, keymap.Next:
		m.choice = (m.choice + 1) % len(parts)
	case keymap.Prev:
		m.choice = (m.choice + len(parts) - 1) % len(parts)
	}
	return nil
}

func (m *Model) updateEdit(msg tea.Msg) tea.Cmd {
	if c, ok := msg.(form.ClosedMsg); ok {
		if c.Form == m.editor {
			m.editor = nil
		}
		return nil
	}
	return m.editor.Update(msg)
}

// chooserLine is "edit which? [description] tier bundles aliases".
func (m *Model) chooserLine() string {
	th := m.common.Theme
	parts := m.editable()
	names := make([]string, len(parts))
	for i, p := range parts {
		label := p.Fields[0].Label
		if len(p.Fields) > 1 {
			label = strings.TrimPrefix(p.Title, "edit ")
			label, _, _ = strings.Cut(label, " of ")
		}
		if i == m.choice%len(parts) {
			names[i] = th.Selected.Render(" " + label + " ")
		} else {
			names[i] = th.Value.Render(" " + label + " ")
		}
	}
	return text.Cut(th.Prompt.Render("edit which? ")+strings.Join(names, "")+th.Muted.Render("  tab moves · enter edits · esc"), m.width, "")
}

// withEditor replaces the lines of the fields being edited by the editor,
// with the request preview under them.
func (m *Model) withEditor(lines []string) []string {
	out := make([]string, 0, len(lines)+2)
	placed := false
	for _, l := range lines {
		label := strings.TrimSpace(labelOf(l))
		if i := m.editorField(label); i >= 0 {
			out = append(out, m.editor.Line(i, m.width, 13))
			if i == m.editor.Fields()-1 {
				out = append(out, text.Cut("              "+m.editor.Status(), m.width, ""))
				placed = true
			}
			continue
		}
		out = append(out, l)
	}
	if !placed {
		// A field the sheet does not show as a line (a name): on top.
		head := []string{}
		for i := range m.editor.Fields() {
			head = append(head, m.editor.Line(i, m.width, 13))
		}
		head = append(head, text.Cut(m.editor.Status(), m.width, ""))
		out = append(head, out...)
	}
	return out
}

// editorField is the editor's field shown on the line with this label.
func (m *Model) editorField(label string) int {
	for i := range m.editor.Fields() {
		if m.editor.Label(i) == label {
			return i
		}
	}
	return -1
}

// labelOf is the plain label at the start of a sheet line.
func labelOf(line string) string {
	plain := ansi.Strip(line)
	if len(plain) < 13 {
		return ""
	}
	return plain[:13]
}
