package main

import (
	"github.com/charmbracelet/colorprofile"

	tea "charm.land/bubbletea/v2"

	"canopy/theme"
)

// display is what canopy asks of the terminal around the UI's frames.
type display struct {
	// mono keeps attributes (reverse, bold, strikethrough) and drops
	// colors. Bubble Tea would otherwise treat TERM=dumb as no terminal at
	// all and strip every attribute, leaving the selection invisible.
	mono bool
	// ascii rewrites each frame's Unicode punctuation to ASCII of the same
	// width, for a locale that is not UTF-8 (theme.ASCIIFrame).
	ascii bool
	// mouse captures the mouse (wheel scrolls, click selects); without it
	// the terminal keeps its own selection, to copy text.
	mouse bool
}

// displayOf is the display for the theme options and settings.
func displayOf(to theme.Options, s *settings) display {
	return display{mono: to.NoColor || to.Name == theme.Mono, ascii: to.ASCII, mouse: s.flag("mouse")}
}

// options are the Bubble Tea program options the display needs.
func (d display) options() []tea.ProgramOption {
	if d.mono {
		return []tea.ProgramOption{tea.WithColorProfile(colorprofile.ASCII)}
	}
	return nil
}

// displayModel applies a display to every frame of the model it wraps.
type displayModel struct {
	inner tea.Model
	d     display
}

func (m *displayModel) Init() tea.Cmd { return m.inner.Init() }

func (m *displayModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	inner, cmd := m.inner.Update(msg)
	m.inner = inner
	return m, cmd
}

func (m *displayModel) View() tea.View {
	v := m.inner.View()
	if !m.d.mouse {
		v.MouseMode = tea.MouseModeNone
	}
	if m.d.ascii {
		v.Content = theme.ASCIIFrame(v.Content)
	}
	return v
}
