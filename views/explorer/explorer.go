// Package explorer is canopy's main screen: the organization tree on the
// left and the detail pane of the selected node on the right (below it on a
// narrow terminal). tab moves the keyboard between the two.
package explorer

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/detail"
	"canopy/views/tree"
)

// Model is the explorer screen.
type Model struct {
	common views.Common
	title  safe.Text
	tree   *tree.Model
	detail *detail.Model

	focusDetail   bool
	width, height int
	split         int  // tree width when side by side
	stacked       bool // detail below the tree
	treeH         int  // tree height when stacked
}

// New lays a tree and a detail pane out together.
func New(common views.Common, title safe.Text, t *tree.Model, d *detail.Model) *Model {
	return &Model{common: common, title: title, tree: t, detail: d}
}

// Init starts the tree.
func (m *Model) Init() tea.Cmd { return m.tree.Init() }

// Title names the screen.
func (m *Model) Title() safe.Text { return m.title }

// Tree is the explorer's tree.
func (m *Model) Tree() *tree.Model { return m.tree }

// Detail is the explorer's detail pane.
func (m *Model) Detail() *detail.Model { return m.detail }

// TakesText reports whether typed keys go to the tree's filter line.
func (m *Model) TakesText() bool {
	if m.focusDetail {
		return m.detail.TakesText()
	}
	return m.tree.TakesText()
}

// Noun names what the focused pane's cursor is on, for "does not apply to …".
func (m *Model) Noun() string {
	if m.focusDetail {
		return "the detail pane"
	}
	return m.tree.Noun()
}

// HasFirstRows reports whether the tree's first root has its first page
// (or failed to get it).
func (m *Model) HasFirstRows() bool { return m.tree.HasFirstPage() }

// Busy reports whether the tree or the pane is loading.
func (m *Model) Busy() bool { return m.tree.Busy() || m.detail.Busy() }

// SetSize splits the space: side by side from 80 columns, else stacked.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.stacked = w < 80
	if m.stacked {
		m.treeH = max(h/2, 3)
		m.tree.SetSize(w, m.treeH-1)
		m.detail.SetSize(w, max(h-m.treeH-1, 1))
		return
	}
	m.split = min(max(w*2/5, 34), 60)
	m.tree.SetSize(m.split, h-1)
	m.detail.SetSize(max(w-m.split-3, 10), h-1)
}

// Actions are the focused pane's, plus tab.
func (m *Model) Actions() []keymap.State {
	if m.TakesText() {
		if m.focusDetail {
			return m.detail.Actions()
		}
		return m.tree.Actions()
	}
	if m.focusDetail {
		return append(m.detail.Actions(), m.own()...)
	}
	return append(m.tree.Actions(), m.own()...)
}

// own are the explorer's keys beside its panes': tab, and (from the
// pane) esc and h, which give the keyboard back to the tree.
func (m *Model) own() []keymap.State {
	focus := keymap.On(keymap.Focus).Does(func() tea.Cmd { return m.focus(!m.focusDetail) })
	if !m.focusDetail {
		return []keymap.State{focus}
	}
	back := func() tea.Cmd { return m.focus(false) }
	return []keymap.State{keymap.Quiet(keymap.Back).Does(back), keymap.Quiet(keymap.Collapse).Does(back), focus}
}

// focus gives the keyboard to the detail pane, or to the tree.
func (m *Model) focus(detail bool) tea.Cmd {
	m.focusDetail = detail
	m.tree.SetFocused(!detail)
	m.detail.SetFocused(detail)
	return nil
}

// Update routes keys to the focused pane and everything else to both.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if m.TakesText() {
			if m.focusDetail {
				return m.detail.Update(msg)
			}
			return m.tree.Update(msg)
		}
		// The explorer's own keys first; the focused pane has the rest.
		if cmd, ok := views.Press(m.common.Keys, msg, m.own()); ok {
			return cmd
		}
		if m.focusDetail {
			return m.detail.Update(msg)
		}
		return m.tree.Update(msg)
	case tea.MouseMsg:
		return m.mouse(msg)
	}
	return tea.Batch(m.tree.Update(msg), m.detail.Update(msg))
}

// mouse sends wheel and clicks to the pane under the pointer, in its own
// coordinates (the title line above each pane aside).
func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	mouse := msg.Mouse()
	inDetail := false
	if m.stacked {
		inDetail = mouse.Y >= m.treeH
		if inDetail {
			mouse.Y -= m.treeH + 1
		} else {
			mouse.Y--
		}
	} else {
		inDetail = mouse.X > m.split+1
		mouse.Y--
	}
	var out tea.Msg
	switch msg.(type) {
	case tea.MouseWheelMsg:
		out = tea.MouseWheelMsg(mouse)
	case tea.MouseClickMsg:
		out = tea.MouseClickMsg(mouse)
		m.focus(inDetail)
	default:
		return nil
	}
	if inDetail {
		return m.detail.Update(out)
	}
	return m.tree.Update(out)
}

// Footer is what an edit in place in either pane sends and what went
// wrong, for the shell to show across the whole width.
func (m *Model) Footer(width int) []string {
	if f := m.tree.Footer(width); f != nil {
		return f
	}
	return m.detail.Footer(width)
}

// FitsWidth says the explorer's lines fit its width (views.Fitted): the
// tree fits each of its lines to its pane, the detail cuts each of its own.
func (m *Model) FitsWidth() {}

// View draws both panes with their titles.
func (m *Model) View() string {
	th := m.common.Theme
	treeTitle, detailTitle := th.PaneTitleFocus, th.PaneTitle
	if m.focusDetail {
		treeTitle, detailTitle = th.PaneTitle, th.PaneTitleFocus
	}
	dname := "details"
	if t := m.detail.Title(); t != "" {
		dname = "details: " + string(t)
	}
	if m.stacked {
		return treeTitle.Render(text.Fit(" tree", m.width, false, "")) + "\n" + m.tree.View() + "\n" +
			detailTitle.Render(text.Fit(" "+dname, m.width, false, th.Glyphs.Ellipsis)) + "\n" + m.detail.View()
	}
	left := strings.Split(m.tree.View(), "\n")
	right := strings.Split(m.detail.View(), "\n")
	sep := th.Separator.Render(th.Glyphs.Rule)
	dw := max(m.width-m.split-3, 10)
	var b strings.Builder
	b.WriteString(treeTitle.Render(text.Fit(" tree", m.split, false, "")))
	b.WriteString(" " + sep + " ")
	b.WriteString(detailTitle.Render(text.Fit(dname, dw, false, th.Glyphs.Ellipsis)))
	for i := 0; i < m.height-1; i++ {
		b.WriteByte('\n')
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		b.WriteString(l)
		if w := text.Width(l); w < m.split {
			b.WriteString(strings.Repeat(" ", m.split-w))
		}
		b.WriteString(" " + sep + " ")
		b.WriteString(r)
	}
	return b.String()
}
