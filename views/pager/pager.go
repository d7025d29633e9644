// Package pager shows a block of text as a full screen: a title, lines
// wrapped to the width (never cut), scrolled with the usual keys; esc goes
// back and y copies what the owner says (a change's curl command).
package pager

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
)

// Section is a labelled block: the label at the left, the text (safe to
// print, may hold newlines) wrapped beside it.
type Section struct {
	Label, Text string
}

// Config is a page.
type Config struct {
	Title    safe.Text
	Sections []Section
	// Copy is what y copies and what it is; nil: nothing.
	Copy func() (text, what string)
}

// Model is a page.
type Model struct {
	closed        bool // it closed itself (see views.Closer)
	common        views.Common
	cfg           Config
	lines         []string
	offset        int
	width, height int
}

// labelW is the width of the label column.
const labelW = 10

// New makes a page.
func New(common views.Common, cfg Config) *Model { return &Model{common: common, cfg: cfg} }

// Init does nothing: the text is given.
func (m *Model) Init() tea.Cmd { return nil }

// Title names the page.
func (m *Model) Title() safe.Text { return m.cfg.Title }

// Busy is false: nothing loads.
func (m *Model) Busy() bool { return false }

// SetSize wraps the text for the width.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

// layout wraps every section beside its label.
func (m *Model) layout() {
	th := m.common.Theme
	m.lines = m.lines[:0]
	w := max(m.width-labelW-2, 10)
	for _, s := range m.cfg.Sections {
		for i, l := range strings.Split(text.Wrap(s.Text, w, " /,&?="), "\n") {
			label := ""
			if i == 0 {
				label = s.Label
			}
			m.lines = append(m.lines, " "+th.Label.Render(text.Fit(label, labelW, false, ""))+" "+th.Value.Render(l))
		}
	}
	m.scroll(0)
}

// Actions: scroll, back, copy.
func (m *Model) Actions() []keymap.State {
	back := func() tea.Cmd {
		m.closed = true
		return nil
	}
	states := []keymap.State{keymap.On(keymap.Back).Does(back)}
	if m.cfg.Copy != nil {
		states = append(states, keymap.On(keymap.Copy).Does(func() tea.Cmd { return views.Copy(m.cfg.Copy()) }))
	}
	states = append(states, views.Moves(m.offset, len(m.lines), m.height, func(to int) tea.Cmd {
		m.scroll(to - m.offset)
		return nil
	})...)
	return append(states, keymap.Quiet(keymap.Collapse).Does(back))
}

// Update scrolls, copies and goes back.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _ := views.Press(m.common.Keys, k, m.Actions())
	return cmd
}

func (m *Model) scroll(d int) {
	m.offset = min(max(m.offset+d, 0), max(len(m.lines)-m.height, 0))
}

// View draws the visible lines.
func (m *Model) View() string {
	end := min(m.offset+m.height, len(m.lines))
	out := append([]string(nil), m.lines[m.offset:end]...)
	for len(out) < m.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// Closed reports whether it closed itself: the shell then takes it off.
func (m *Model) Closed() bool { return m.closed }
