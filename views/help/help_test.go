package help

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
)

func TestHelpShowsKeysStatesAndReasons(t *testing.T) {
	keys := keymap.Default()
	if err := keys.Override(keymap.Refresh, []string{"ctrl+r", "F5"}); err != nil {
		t.Fatal(err)
	}
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keys}, "tags of nginx",
		[]keymap.State{keymap.On(keymap.Open), keymap.Off(keymap.Sort, "this list has one order"), keymap.On(keymap.Refresh)})
	m.SetSize(100, 60)
	s := ansi.Strip(m.View())
	for _, want := range []string{"Keys in tags of nginx", "Navigation", "Resource", "Global",
		"this list has one order", "ctrl+r F5", "quit canopy"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "r                    reload") {
		t.Error("help shows the overridden default key")
	}
	if cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); cmd == nil || cmd() != (CloseMsg{}) {
		t.Error("esc does not close the help")
	}
}
