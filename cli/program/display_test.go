package program

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

type framer struct{}

func (framer) Init() tea.Cmd                         { return nil }
func (f framer) Update(tea.Msg) (tea.Model, tea.Cmd) { return f, nil }
func (framer) View() tea.View {
	v := tea.NewView("tree │ details · 3/10 … ↑")
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

func TestDisplayAppliesToEveryFrame(t *testing.T) {
	v := (&displayModel{inner: framer{}, d: Display{Mouse: false, ASCII: true}}).View()
	if v.MouseMode != tea.MouseModeNone || v.Content != "tree | details - 3/10 ~ ^" {
		t.Errorf("mouse %v, content %q", v.MouseMode, v.Content)
	}
	v = (&displayModel{inner: framer{}, d: Display{Mouse: true}}).View()
	if v.MouseMode != tea.MouseModeCellMotion || v.Content != "tree │ details · 3/10 … ↑" {
		t.Errorf("a UTF-8 terminal with the mouse: %v %q", v.MouseMode, v.Content)
	}
	if len((Display{Mono: true}).options()) != 1 || len((Display{}).options()) != 1 {
		t.Error("every display gives Bubble Tea its color profile (ASCII, or lipgloss's), so that it does not detect it again")
	}
}
