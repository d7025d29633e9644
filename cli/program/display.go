package program

import (
	"io"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"canopy/theme"
)

// Display is what canopy asks of the terminal around the UI's frames.
type Display struct {
	// mono keeps attributes (reverse, bold, strikethrough) and drops
	// colors. Bubble Tea would otherwise treat TERM=dumb as no terminal at
	// all and strip every attribute, leaving the selection invisible.
	Mono bool
	// ascii rewrites each frame's Unicode punctuation to ASCII of the same
	// width, for a locale that is not UTF-8 (theme.ASCIIFrame).
	ASCII bool
	// mouse captures the mouse (wheel scrolls, click selects); without it
	// the terminal keeps its own selection, to copy text.
	Mouse bool
}

// options are the Bubble Tea program options the display needs: always
// the color profile. lipgloss detected it when canopy started (its Writer,
// made at its package's initialization) from the standard output and the
// environment, as Bubble Tea would detect it again before the first frame
// when none is given: each detection reads the terminfo database and, in
// tmux, runs `tmux info`, which made the demo's first frame wait for a
// second tmux client (issue 39).
func (d Display) options() []tea.ProgramOption {
	if d.Mono {
		return []tea.ProgramOption{tea.WithColorProfile(colorprofile.ASCII)}
	}
	return []tea.ProgramOption{tea.WithColorProfile(lipgloss.Writer.Profile)}
}

// displayModel applies a display to every frame of the model it wraps.
type displayModel struct {
	inner tea.Model
	d     Display
}

func (m *displayModel) Init() tea.Cmd { return m.inner.Init() }

func (m *displayModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	inner, cmd := m.inner.Update(msg)
	m.inner = inner
	return m, cmd
}

func (m *displayModel) View() tea.View {
	v := m.inner.View()
	if !m.d.Mouse {
		v.MouseMode = tea.MouseModeNone
	}
	if m.d.ASCII {
		v.Content = theme.ASCIIFrame(v.Content)
	}
	return v
}

// keepTitle pushes the terminal's window title on xterm's title stack
// (XTWINOPS 22;2) and returns what pops it back (23;2), for around the
// program: Bubble Tea sets the title a frame asks for ("canopy") and, on
// exit, sets it to "" (bubbletea#1474), which would leave the window, or a
// tmux pane, with no title at all. A title cannot be read back portably;
// the stack is how vim restores it, xterm, tmux and most terminals keep it,
// and one without it ignores both sequences. w is the program's output.
func keepTitle(w io.Writer) (restore func()) {
	_, _ = io.WriteString(w, ansi.WindowOp(22, 2))
	return func() { _, _ = io.WriteString(w, ansi.WindowOp(23, 2)) }
}
