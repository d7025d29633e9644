// Package help is the `?` overlay. It is generated from the key map and the
// focused screen's action states, so it shows exactly the keys that work
// here, the ones that are disabled and why, and everything else dimmed.
package help

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/text"
)

// CloseMsg asks the shell to hide the help.
type CloseMsg struct{}

// Model is the help overlay.
type Model struct {
	common        views.Common
	states        []keymap.State
	title         string
	lines         []string
	offset        int
	width, height int
}

// New makes the overlay for the actions of a screen.
func New(common views.Common, title string, states []keymap.State) *Model {
	m := &Model{common: common, states: states, title: title}
	return m
}

// SetSize lays the help out.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

// Actions of the overlay: scrolling and closing.
func (m *Model) Actions() []keymap.State {
	return []keymap.State{keymap.On(keymap.Back), keymap.On(keymap.Help),
		keymap.Quiet(keymap.Up), keymap.Quiet(keymap.Down), keymap.Quiet(keymap.HalfUp), keymap.Quiet(keymap.HalfDown),
		keymap.Quiet(keymap.Top), keymap.Quiet(keymap.Bottom), keymap.Quiet(keymap.Quit)}
}

// Update scrolls or closes.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	st, ok := m.common.Keys.Lookup(k, m.Actions())
	if !ok {
		return nil
	}
	if to, ok := views.Step(st.Action, m.offset, len(m.lines), m.height); ok {
		m.scroll(to - m.offset)
		return nil
	}
	switch st.Action {
	case keymap.Back, keymap.Help:
		return func() tea.Msg { return CloseMsg{} }
	case keymap.Quit:
		return tea.Quit
	}
	return nil
}

func (m *Model) scroll(d int) {
	m.offset = min(max(m.offset+d, 0), max(len(m.lines)-m.height, 0))
}

// layout builds the lines once per size: one line per action, grouped.
func (m *Model) layout() {
	th := m.common.Theme
	m.lines = m.lines[:0]
	add := func(s string) { m.lines = append(m.lines, text.Cut(s, m.width, th.Glyphs.Ellipsis)) }
	add(th.OverlayTitle.Render("Keys in "+m.title) + th.Muted.Render("   (? or esc closes; bold keys work here)"))
	defs := m.common.Keys.Defs()
	keyW := 8
	for _, d := range defs {
		keyW = max(keyW, text.Width(strings.Join(labels(d.Keys), " "))+2)
	}
	for _, g := range keymap.Groups() {
		first := true
		for _, d := range defs {
			if d.Group != g {
				continue
			}
			if first {
				add("")
				add(th.Section.Render(string(g)))
				first = false
			}
			st, applies := keymap.Find(m.states, d.Action)
			if d.Group == keymap.Global {
				st, applies = keymap.On(d.Action), true
			}
			keys := text.Fit(strings.Join(labels(d.Keys), " "), keyW, false, "")
			switch {
			case applies && st.Enabled:
				add("  " + th.HintKey.Render(keys) + " " + th.Value.Render(d.Desc))
			case applies:
				add("  " + th.HintOff.Render(keys) + " " + th.Muted.Render(d.Desc) + th.Bad.Render("  — "+st.Reason))
			default:
				add("  " + th.Dim.Render(keys+" "+d.Desc))
			}
		}
	}
	m.scroll(0)
}

func labels(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = keymap.Def{Keys: []string{k}}.KeyLabel()
	}
	return out
}

// View draws the visible part.
func (m *Model) View() string {
	end := min(m.offset+m.height, len(m.lines))
	out := make([]string, 0, m.height)
	out = append(out, m.lines[m.offset:end]...)
	for len(out) < m.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
