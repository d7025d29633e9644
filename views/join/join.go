// Package join is the screen of a token that sees no organization: what
// canopy asked the service about joining one, what the service answered,
// and what can be done next. The shell says it all (lines of label and
// text) and gives the keys that act (ask for access, look again); the
// screen lays it out and scrolls.
package join

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
)

// Tone is how a line's text is drawn: what went well, what did not, what
// is on its way or only a hint.
type Tone int

// The tones of a line.
const (
	Plain Tone = iota
	Good
	Bad
	Muted
)

// Line is one line of the screen: a label (canopy's word, "" for a
// continuation) and its text, safe to print, wrapped to the width.
type Line struct {
	Label string
	Text  safe.Text
	Tone  Tone
}

// Model is the screen.
type Model struct {
	common        views.Common
	title         safe.Text
	lines         []Line
	acts          []keymap.State
	busy          bool
	closed        bool
	laid          []string
	offset        int
	width, height int
}

// labelW is the width of the label column.
const labelW = 12

// New makes the screen, empty until Set.
func New(common views.Common, title safe.Text) *Model { return &Model{common: common, title: title} }

// Set replaces what the screen says and the keys that act (busy: an
// answer is on its way).
func (m *Model) Set(lines []Line, acts []keymap.State, busy bool) {
	m.lines, m.acts, m.busy = lines, acts, busy
	m.layout()
}

// Close takes the screen off (the shell reaps it: views.Closer).
func (m *Model) Close() { m.closed = true }

// Closed reports whether it was closed.
func (m *Model) Closed() bool { return m.closed }

// Init does nothing: the shell sets what to say.
func (m *Model) Init() tea.Cmd { return nil }

// Title names the screen.
func (m *Model) Title() safe.Text { return m.title }

// Busy reports whether an answer is on its way.
func (m *Model) Busy() bool { return m.busy }

// SetSize lays the lines out for the size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

// layout wraps each line beside its label.
func (m *Model) layout() {
	th := m.common.Theme
	m.laid = m.laid[:0]
	w := max(m.width-labelW-4, 10)
	for _, l := range m.lines {
		style := th.Value
		switch l.Tone {
		case Good:
			style = th.Good
		case Bad:
			style = th.Bad
		case Muted:
			style = th.Muted
		}
		if l.Label == "" && l.Text == "" {
			m.laid = append(m.laid, "")
			continue
		}
		for i, part := range strings.Split(text.Wrap(string(l.Text), w, " /,&?=:"), "\n") {
			label := ""
			if i == 0 {
				label = l.Label
			}
			m.laid = append(m.laid, "  "+th.Label.Render(text.Fit(label, labelW, false, ""))+" "+style.Render(part))
		}
	}
	m.scroll(0)
}

// Actions are the shell's keys, then scrolling.
func (m *Model) Actions() []keymap.State {
	states := append([]keymap.State(nil), m.acts...)
	return append(states, views.Moves(m.offset, len(m.laid), m.height, func(to int) tea.Cmd {
		m.scroll(to - m.offset)
		return nil
	})...)
}

// Update presses keys.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _ := views.Press(m.common.Keys, k, m.Actions())
	return cmd
}

func (m *Model) scroll(d int) {
	m.offset = min(max(m.offset+d, 0), max(len(m.laid)-m.height, 0))
}

// View draws the visible lines.
func (m *Model) View() string {
	end := min(m.offset+m.height, len(m.laid))
	out := append([]string(nil), m.laid[m.offset:end]...)
	for len(out) < m.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
