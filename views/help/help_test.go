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
	m.SetSize(100, 200) // tall enough for every key: this test reads content, not scrolling
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
	for range 100 {
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

// Every key of the help does something, at the top and scrolled; its
// footer still says that j and pgdown scroll.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default()}, "explorer", nil)
	m.SetSize(80, 21)
	check := func(when string) {
		t.Helper()
		states := m.Actions()
		if u := keymap.Unbound(states); len(u) > 0 {
			t.Errorf("%s: enabled without a Run: %v", when, u)
		}
		var shown []string
		for _, s := range states {
			if !s.Hide {
				shown = append(shown, string(s.Action)+":"+s.Short)
			}
		}
		want := []string{string(keymap.Back) + ":close", string(keymap.Help) + ":close", string(keymap.Down) + ":scroll",
			string(keymap.PageDown) + ":", string(keymap.Command) + ":"}
		if strings.Join(shown, " ") != strings.Join(want, " ") {
			t.Errorf("%s: the footer shows %v, want %v", when, shown, want)
		}
	}
	check("at the top")
	m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if m.offset != 1 {
		t.Errorf("j scrolled to %d", m.offset)
	}
	check("scrolled")
	m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	check("at the end")
	if cmd := m.Update(tea.KeyPressMsg{Code: ':', Text: ":"}); cmd == nil || cmd() != (CloseMsg{Command: true}) || !m.Closing() {
		t.Error(": does not close the help for the command line")
	}
}

// The states listed are another screen's, each with what it does: the help
// shows them as it shows states without, and runs none of them.
func TestStatesThatRunAreOnlyShown(t *testing.T) {
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default()}
	ran := false
	run := func() tea.Cmd { ran = true; return nil }
	plain := []keymap.State{keymap.On(keymap.Open), keymap.Off(keymap.Delete, "read-only mode"), keymap.Quiet(keymap.Down)}
	running := []keymap.State{keymap.On(keymap.Open).Does(run), keymap.Off(keymap.Delete, "read-only mode"), keymap.Quiet(keymap.Down).Does(run)}
	a, b := New(common, "tags", plain), New(common, "tags", running)
	a.SetSize(100, 80)
	b.SetSize(100, 80)
	if a.View() != b.View() {
		t.Errorf("states that run are shown otherwise:\n%s\n---\n%s", ansi.Strip(a.View()), ansi.Strip(b.View()))
	}
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyEnter}, {Code: 'j', Text: "j"}, {Code: 'd', Text: "d"}} {
		b.Update(k)
	}
	if ran {
		t.Error("a key in the help ran the screen's action")
	}
}

// In a dialog, esc and enter answer it (Cancel, Accept): the help does not
// also list them dimmed as the screen keys they are elsewhere (esc closing
// the innermost screen, enter opening), as if they did nothing here.
func TestHelpLeavesOutKeysThatDoSomethingElseHere(t *testing.T) {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default()}, "delete?",
		[]keymap.State{keymap.On(keymap.Accept).Saying("yes"), keymap.On(keymap.Cancel).Saying("no")})
	m.SetSize(120, 200)
	s := ansi.Strip(m.View())
	for _, def := range keymap.Default().Defs() {
		if def.Action == keymap.Back || def.Action == keymap.Open {
			if strings.Contains(s, def.Desc) {
				t.Errorf("help in a dialog lists %q, whose keys answer the dialog:\n%s", def.Desc, s)
			}
		}
	}
	if !strings.Contains(s, "quit canopy") {
		t.Errorf("help in a dialog leaves out what still applies (q quits):\n%s", s)
	}
}
