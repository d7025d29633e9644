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
		"this list has one order", "ctrl+r f5", "quit canopy"} {
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

// At 80x24 the help is longer than the screen: it says where it is and
// how to scroll, wraps long descriptions instead of cutting them, scrolls
// with pgdn and the wheel, and lists the mouse.
func TestHelpAtEightyByTwentyFourScrollsAndWraps(t *testing.T) {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default()}, "explorer",
		[]keymap.State{keymap.On(keymap.Bind), keymap.On(keymap.Up)})
	m.SetSize(80, 21)
	s := ansi.Strip(m.View())
	lines := strings.Split(s, "\n")
	if len(lines) != 21 || !strings.Contains(lines[20], "lines 1-20 of") || !strings.Contains(lines[20], "more below") {
		t.Fatalf("no position line at the bottom:\n%s", s)
	}
	for _, l := range lines {
		if l := strings.TrimRight(l, " "); strings.HasSuffix(l, "~") || strings.HasSuffix(l, "…") {
			t.Errorf("a cut line: %q", l)
		}
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown}) // past the dialogs' yes too
	// To the end, however long the help has grown.
	for range 10 {
		if strings.Contains(ansi.Strip(m.View()), "(end)") {
			break
		}
		m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	s = ansi.Strip(m.View())
	joined := strings.Join(strings.Fields(s), " ")
	for _, want := range []string{"Mouse", "wheel", "click", "(end)"} {
		if !strings.Contains(s, want) {
			t.Errorf("scrolled to the end, %q is missing:\n%s", want, s)
		}
	}
	if !strings.Contains(joined, "put the cursor on a row; in the explorer, also focus that pane") {
		t.Errorf("the mouse's lines are not whole at 80 columns:\n%s", s)
	}
	// The long description of b, wrapped, is whole somewhere in the help.
	m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	all := ""
	for range 10 {
		all += strings.Join(strings.Fields(ansi.Strip(m.View())), " ") + " "
		m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	if !strings.Contains(all, "on a role, identity and group") {
		t.Errorf("the description of b is cut:\n%s", joined)
	}
}
