package detail

// Editing in the pane: with the keyboard in the pane, a field cursor moves
// among the updatable fields (↑/↓), and e (or enter) turns the field under
// it into an editor in place. The request it sends and what went wrong are
// in the shell's footer (Footer), at full width.

import (
	"cmp"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/text"
	"canopy/views"
	"canopy/views/form"
)

// labelW is the width of a sheet line's label column.
const labelW = 13

// fieldPos is an editable part (its index) and the line it starts on.
// lines..end-1 are its lines (issuer and subject make one part).
type fieldPos struct{ part, line, end int }

// editable lists the item's editable parts (main first), or nil.
func (m *Model) editable() []form.Config {
	if m.fetch.Edits == nil {
		return nil
	}
	return m.fetch.Edits(m.item)
}

// SetFocused says whether the pane has the keyboard: the field cursor
// shows only then.
func (m *Model) SetFocused(f bool) { m.focused = f }

// cursorOn reports whether the field cursor is shown and moves.
func (m *Model) cursorOn() bool {
	return (m.focused || m.page) && m.editor == nil && len(m.fieldAt) > 0 && !m.common.ReadOnly
}

// findFields finds the line of each editable part (its first field's
// label), after a layout; parts the sheet does not show get no cursor.
func (m *Model) findFields() {
	m.fieldAt = m.fieldAt[:0]
	for i, p := range m.editable() {
		if len(p.Fields) == 0 {
			continue
		}
		at := m.lineOf(p.Fields[0].Label)
		if at < 0 && p.Fields[0].Label == "name" {
			at = 0 // the title is the name
		}
		if at < 0 {
			continue
		}
		end := at + 1
		for _, f := range p.Fields[1:] {
			if j := m.lineOf(f.Label); j >= end {
				end = j + 1
			}
		}
		m.fieldAt = append(m.fieldAt, fieldPos{part: i, line: at, end: end})
	}
	// In the order they are shown, the cursor starting on the main one.
	slices.SortFunc(m.fieldAt, func(a, b fieldPos) int { return cmp.Compare(a.line, b.line) })
	if m.choice < 0 {
		m.choice = max(slices.IndexFunc(m.fieldAt, func(p fieldPos) bool { return p.part == 0 }), 0)
	}
	m.choice = min(m.choice, max(len(m.fieldAt)-1, 0))
}

// lineOf is the first sheet line with this label, or -1.
func (m *Model) lineOf(label string) int {
	for i, l := range m.lines {
		if strings.TrimSpace(labelOf(l)) == label {
			return i
		}
	}
	return -1
}

// fieldKey moves the field cursor (↑/↓), scrolling the pane so that it is
// seen; past the first or last field the keys scroll the pane.
func (m *Model) fieldKey(a keymap.Action) bool {
	if !m.cursorOn() {
		return false
	}
	switch a {
	case keymap.Up:
		if m.choice == 0 {
			return false
		}
		m.choice--
	case keymap.Down:
		if m.choice == len(m.fieldAt)-1 {
			return false
		}
		m.choice++
	default:
		return false
	}
	m.show(m.fieldAt[m.choice].line, 1)
	return true
}

// show scrolls so that lines at..at+n-1 are seen.
func (m *Model) show(at, n int) {
	if at < m.offset {
		m.offset = at
	}
	if at+n > m.offset+m.height {
		m.offset = at + n - m.height
	}
	m.scroll(0)
}

// editSays is the edit key's footer word while the field cursor shows:
// the field it edits and, with more than one, the keys that pick another
// ("edit tier (↑/↓ picks)"); "" for the key's own word.
func (m *Model) editSays() string {
	if !m.cursorOn() {
		return ""
	}
	parts := m.editable()
	pos := m.fieldAt[min(m.choice, len(m.fieldAt)-1)]
	if pos.part >= len(parts) || len(parts[pos.part].Fields) == 0 {
		return ""
	}
	says := "edit " + parts[pos.part].Fields[0].Label
	if len(m.fieldAt) > 1 {
		says += " (" + m.common.Key(keymap.Up, "up") + "/" + m.common.Key(keymap.Down, "down") + " picks)"
	}
	return says
}

// startEdit edits the part under the field cursor (the main one when the
// pane shows no cursor).
func (m *Model) startEdit() tea.Cmd {
	parts := m.editable()
	if len(parts) == 0 {
		return views.Flash("nothing here can be edited")
	}
	i := 0
	if len(m.fieldAt) > 0 && (m.focused || m.page) {
		i = min(m.fieldAt[min(m.choice, len(m.fieldAt)-1)].part, len(parts)-1)
	}
	if parts[i].Flow != nil {
		return parts[i].Flow()
	}
	m.editor = form.New(m.common, parts[i])
	m.editor.SetSize(m.width, 1)
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

// Footer is what an edit in place sends and what went wrong, for the
// shell to show across the whole width; nil when nothing is edited.
func (m *Model) Footer(width int) []string {
	if m.editor == nil {
		return nil
	}
	return m.editor.Footer(width, false)
}

// withCursor draws the labels of the field under the cursor selected.
func (m *Model) withCursor(lines []string) []string {
	if !m.cursorOn() {
		return lines
	}
	th := m.common.Theme
	out := append([]string(nil), lines...)
	pos := m.fieldAt[min(m.choice, len(m.fieldAt)-1)]
	at, end := pos.line, pos.end
	if at == 0 {
		out[0] = th.Selected.Render(ansi.Strip(out[0]))
		return out
	}
	for i := at; i < end && i < len(out); i++ {
		label := strings.TrimRight(labelOf(out[i]), " ")
		out[i] = th.Selected.Render(text.Fit(label, labelW, false, "")) + ansi.TruncateLeft(out[i], labelW, "")
	}
	return out
}

// withEditor replaces the lines of the fields being edited by the editor
// (each field's reason wrapped beside it), with the keys under them; at
// is where the editor starts.
func (m *Model) withEditor(lines []string) (out []string, at int) {
	out = make([]string, 0, len(lines)+4)
	at = -1
	replacing := false // the lines of an edited field's old value follow
	for _, l := range lines {
		if replacing && continues(l) {
			continue // a wrapped value's later lines go with its first
		}
		replacing = false
		label := strings.TrimSpace(labelOf(l))
		if i := m.editorField(label); i >= 0 {
			replacing = true
			if at < 0 {
				at = len(out)
			}
			out = append(out, m.editor.Lines(i, m.width, labelW)...)
			if i == m.editor.Fields()-1 {
				out = append(out, text.Cut(strings.Repeat(" ", labelW+1)+m.editor.StatusFit(m.width-labelW-1), m.width, ""))
			}
			continue
		}
		out = append(out, l)
	}
	if at < 0 {
		// A field the sheet does not show as a line: on top.
		var head []string
		for i := range m.editor.Fields() {
			head = append(head, m.editor.Lines(i, m.width, labelW)...)
		}
		head = append(head, text.Cut(m.editor.StatusFit(m.width), m.width, ""))
		return append(head, out...), 0
	}
	return out, at
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

// continues reports whether a sheet line carries on the value of the
// field above it: a blank label column, then more of the value.
func continues(line string) bool {
	plain := ansi.Strip(line)
	return len(plain) > labelW+1 && strings.TrimSpace(plain[:labelW+1]) == "" && strings.TrimSpace(plain) != ""
}

// labelOf is the plain label at the start of a sheet line.
func labelOf(line string) string {
	plain := ansi.Strip(line)
	if len(plain) < labelW {
		return ""
	}
	return plain[:labelW]
}
