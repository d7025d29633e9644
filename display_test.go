package main

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/theme"
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
	v := (&displayModel{inner: framer{}, d: display{mouse: false, ascii: true}}).View()
	if v.MouseMode != tea.MouseModeNone || v.Content != "tree | details - 3/10 ~ ^" {
		t.Errorf("mouse %v, content %q", v.MouseMode, v.Content)
	}
	v = (&displayModel{inner: framer{}, d: display{mouse: true}}).View()
	if v.MouseMode != tea.MouseModeCellMotion || v.Content != "tree │ details · 3/10 … ↑" {
		t.Errorf("a UTF-8 terminal with the mouse: %v %q", v.MouseMode, v.Content)
	}
	if len((display{mono: true}).options()) != 1 || len((display{}).options()) != 0 {
		t.Error("only a monochrome display forces the color profile")
	}
	s := &settings{values: map[string]string{"mouse": "false"}}
	if d := displayOf(theme.Options{Name: theme.Mono}, s); !d.mono || d.mouse {
		t.Errorf("displayOf: %+v", d)
	}
}

func TestUTF8Locale(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"LANG": "en_US.UTF-8"}, true},
		{map[string]string{"LANG": "C.utf8"}, true},
		{map[string]string{"LANG": "C"}, false},
		{map[string]string{"LC_ALL": "C", "LANG": "en_US.UTF-8"}, false},
		{map[string]string{"LC_CTYPE": "en_US.UTF-8", "LANG": "C"}, true},
		{map[string]string{"TERM": "linux"}, false},
		{nil, false},
	} {
		if got, why := utf8Locale(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: %v (%s), want %v", tc.env, got, why, tc.want)
		}
	}
}
