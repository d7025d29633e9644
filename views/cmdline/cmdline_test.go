package cmdline

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
)

func newLine() *Model {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, []Command{
		{Name: "repos", Aliases: []string{"r"}, Desc: "every repo"},
		{Name: "roles", Desc: "roles"},
		{Name: "tags", Desc: "every tag"},
		{Name: "advisories", Aliases: []string{"cves"}, Desc: "the feed"},
	})
	m.SetWidth(60)
	m.Open()
	return m
}

func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func run(m *Model, key tea.KeyPressMsg) tea.Msg {
	cmd := m.Update(key)
	if cmd == nil {
		return nil
	}
	return cmd()
}

func TestRunsTheTypedOrHighlightedCommand(t *testing.T) {
	for _, tc := range []struct {
		typed string
		want  RunMsg
	}{
		{"tags", RunMsg{Name: "tags", Args: []string{}}},
		{"ta", RunMsg{Name: "tags", Args: []string{}}},
		{"cves", RunMsg{Name: "advisories", Args: []string{}}},
		{"r", RunMsg{Name: "repos", Args: []string{}}},
		{"adv nginx", RunMsg{Name: "advisories", Args: []string{"nginx"}}},
	} {
		m := newLine()
		typeText(m, tc.typed)
		got, ok := run(m, tea.KeyPressMsg{Code: tea.KeyEnter}).(RunMsg)
		if !ok || got.Name != tc.want.Name || strings.Join(got.Args, " ") != strings.Join(tc.want.Args, " ") {
			t.Errorf("%q ran %+v, want %+v", tc.typed, got, tc.want)
		}
	}
}

func TestSuggestionsNarrowAndComplete(t *testing.T) {
	m := newLine()
	typeText(m, "ro")
	s := ansi.Strip(m.View())
	if !strings.Contains(s, ":roles") || strings.Contains(s, ":tags") {
		t.Errorf("suggestions for ro:\n%s", s)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if !strings.Contains(ansi.Strip(m.View()), ":repos ") && !strings.Contains(ansi.Strip(m.View()), ":roles ") {
		t.Errorf("tab did not complete:\n%s", ansi.Strip(m.View()))
	}
	if m.Height() < 2 {
		t.Errorf("height %d", m.Height())
	}
}

func TestUnknownAndEscape(t *testing.T) {
	m := newLine()
	typeText(m, "zzz")
	if f, ok := run(m, tea.KeyPressMsg{Code: tea.KeyEnter}).(views.FlashMsg); !ok || !f.Error || !strings.Contains(f.Text, "unknown command :zzz") {
		t.Errorf("unknown command: %+v", f)
	}
	if _, ok := run(m, tea.KeyPressMsg{Code: tea.KeyEscape}).(CloseMsg); !ok {
		t.Error("esc does not close")
	}
	m = newLine()
	if _, ok := run(m, tea.KeyPressMsg{Code: tea.KeyEnter}).(CloseMsg); !ok {
		t.Error("enter on an empty line does not close")
	}
}

// TestRowNumbersJump: `:2,500` and `:50%` ask the screen on top to go to
// a row, and the line says so before enter; what is not a row stays a
// command name.
func TestRowNumbersJump(t *testing.T) {
	for _, c := range []struct {
		typed, says string
		want        views.JumpMsg
	}{
		{"2,500", "go to row 2,500", views.JumpMsg{Row: 2500}},
		{"50%", "go 50% of the way down", views.JumpMsg{Row: 50, Percent: true}},
		{"0", "go to the first row", views.JumpMsg{Row: 0}},
		{"1", "go to the first row", views.JumpMsg{Row: 1}},
	} {
		m := newLine()
		typeText(m, c.typed)
		if s := ansi.Strip(m.View()); !strings.Contains(s, c.says) {
			t.Errorf("%s: the line does not say %q:\n%s", c.typed, c.says, s)
		}
		var got []tea.Msg
		if b, ok := run(m, tea.KeyPressMsg{Code: tea.KeyEnter}).(tea.BatchMsg); ok {
			for _, cmd := range b {
				got = append(got, cmd())
			}
		}
		if len(got) != 2 || got[0] != (CloseMsg{}) || got[1] != c.want {
			t.Errorf("%s: enter gives %v, want the line closed and %v", c.typed, got, c.want)
		}
	}
	for _, notRow := range []string{"101%", "2500x", "-3", ""} {
		if _, ok := parseJump(notRow); ok {
			t.Errorf("%q is taken as a row", notRow)
		}
	}
}

// TestATypoIsNotARun: a name that only resembles a command (not the start
// of its name or an alias) is refused with the command it resembles, not
// run; moving the highlight onto it, or tab, chooses it.
func TestATypoIsNotARun(t *testing.T) {
	m := newLine()
	typeText(m, "rpo")
	f, ok := run(m, tea.KeyPressMsg{Code: tea.KeyEnter}).(views.FlashMsg)
	if !ok || !f.Error || !strings.Contains(f.Text, "unknown command :rpo (did you mean :repos?") {
		t.Errorf("a typo ran or said %+v", f)
	}
	m = newLine()
	typeText(m, "rpo")
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	m.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	if got, ok := run(m, tea.KeyPressMsg{Code: tea.KeyEnter}).(RunMsg); !ok || got.Name != "repos" {
		t.Errorf("the highlight chosen did not run: %+v", got)
	}
	m = newLine()
	typeText(m, "cv") // an alias's start
	if got, ok := run(m, tea.KeyPressMsg{Code: tea.KeyEnter}).(RunMsg); !ok || got.Name != "advisories" {
		t.Errorf("an alias's start did not run its command: %+v", got)
	}
}

// A long name and its arguments keep a space before the description; the
// descriptions line up under the longest name shown.
func TestLongUsageKeepsItsDescriptionApart(t *testing.T) {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, []Command{
		{Name: "subscriptions", Args: "[filter]", Desc: "event subscriptions"},
		{Name: "subs", Desc: "short"},
	})
	m.SetWidth(80)
	m.Open()
	typeText(m, "sub")
	s := ansi.Strip(m.View())
	long, short := strings.Index(lineOf(s, ":subscriptions"), "event"), strings.Index(lineOf(s, ":subs "), "short")
	if !strings.Contains(s, ":subscriptions [filter] event subscriptions") || long != short {
		t.Errorf("the descriptions do not stand apart in one column (%d, %d):\n%s", long, short, s)
	}
}

func lineOf(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// A misspelt name (a letter changed, two swapped) is suggested what it
// misspells, as an abbreviation is: enter says so, tab completes it.
func TestATypoIsSuggestedItsCommand(t *testing.T) {
	for typed, want := range map[string]string{"repoz": "repos", "tgas": "tags", "advisoris": "advisories", "cvse": "advisories", "reops": "repos", "rpeos": "repos"} {
		m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, []Command{
			{Name: "repos", Aliases: []string{"r"}, Desc: "every repo"}, {Name: "roles", Desc: "roles"}, {Name: "tags", Desc: "every tag"},
			{Name: "providers", Aliases: []string{"idps"}, Desc: "identity providers"},
			{Name: "advisories", Aliases: []string{"cves"}, Desc: "the feed"}})
		m.SetWidth(60)
		m.Open()
		typeText(m, typed)
		if s := ansi.Strip(m.View()); !strings.Contains(s, ":"+want) {
			t.Errorf("%q suggests no :%s:\n%s", typed, want, s)
		}
		cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
		if msg, ok := cmd().(views.FlashMsg); !ok || !strings.Contains(msg.Text, "did you mean :"+want+"?") {
			t.Errorf("enter on %q: %+v", typed, cmd())
		}
	}
	m := newLine()
	typeText(m, "zzzz")
	if s := ansi.Strip(m.View()); strings.Contains(s, ":repos") || strings.Contains(s, ":tags") {
		t.Errorf("a name like none suggests one:\n%s", s)
	}
	if _, err := Resolve(m.commands, "tgas"); err == nil || !strings.Contains(err.Error(), "did you mean :tags?") {
		t.Errorf("Resolve(tgas): %v", err)
	}
}

func TestEditsCountsASwapOnce(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"tgas", "tags", 1}, {"repoz", "repos", 1}, {"abc", "abc", 0}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"zzzz", "tags", 3}} {
		if got := edits(tc.a, tc.b, 3); got != tc.want {
			t.Errorf("edits(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// Every key of the line does something: empty, with a name typed, with a
// suggestion chosen, and with the last line offered; up and down go round
// the suggestions.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	m := newLine()
	check := func(when string) {
		t.Helper()
		if u := keymap.Unbound(m.Actions()); len(u) > 0 {
			t.Errorf("%s: enabled without a Run: %v", when, u)
		}
	}
	check("empty")
	m.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	if m.sel != len(m.matches)-1 || !m.chose {
		t.Errorf("up from the first suggestion is on %d of %d", m.sel, len(m.matches))
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if m.sel != 0 {
		t.Errorf("down from the last suggestion is on %d", m.sel)
	}
	typeText(m, "t")
	check("typed")
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if v := m.input.Value(); v != "tags " {
		t.Errorf("tab completed %q", v)
	}
	check("completed")
	m = newLine()
	m.SetLast("repos python")
	check("with the last line")
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if v := m.input.Value(); v != "repos python" {
		t.Errorf("tab on an empty line brought back %q", v)
	}
}
