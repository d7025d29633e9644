package dialog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
	"canopy/views/viewstest"
)

func newDialog(t *testing.T, cfg Config) *Model {
	t.Helper()
	m := New(context.Background(), views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, cfg)
	m.SetSize(80, 20)
	m.Init()
	return m
}

// told is an owner's Done: what was settled comes back as it is.
func told(s Settled) tea.Msg { return s }

// run delivers a command's messages (batched) back to the dialog and
// returns the others.
func run(m *Model, cmd tea.Cmd) []tea.Msg {
	return viewstest.Drive(cmd, func(msg tea.Msg) bool { _, ok := msg.(resultMsg); return ok }, m.Update)
}

func TestTypedConfirmation(t *testing.T) {
	ran := false
	m := newDialog(t, Config{Done: told, Title: "Delete folder ci?", Confirm: "ci", Verb: "delete",
		Items: []Item{{Key: "g", Label: "ci", Run: func(context.Context) (any, error) { ran = true; return nil, nil }}}})
	if !m.TakesText() {
		t.Fatal("a typed confirmation does not take text")
	}
	msgs := run(m, m.Update(viewstest.Key("enter")))
	if ran || len(msgs) != 1 || !strings.Contains(msgs[0].(views.FlashMsg).Text, "type ci exactly") {
		t.Fatalf("enter before typing the name: ran %v, %v", ran, msgs)
	}
	run(m, m.Update(viewstest.Key("y")))
	if ran {
		t.Fatal("y confirmed a typed confirmation")
	}
	m.Update(viewstest.Key("esc")) // would go back; the test goes on
	m = newDialog(t, m.cfg)
	for _, r := range "ci" {
		m.Update(viewstest.Key(string(r)))
	}
	run(m, m.Update(viewstest.Key("enter")))
	if !ran || !strings.Contains(ansi.Strip(m.View()), "1 done") {
		t.Errorf("typed name then enter: ran %v\n%s", ran, ansi.Strip(m.View()))
	}
	msgs = run(m, m.Update(viewstest.Key("enter")))
	if len(msgs) != 1 || !m.Closed() || len(msgs[0].(Settled).Done) != 1 {
		t.Errorf("closing: %v, closed %v", msgs, m.Closed())
	}
}

func TestOutcomeExplainsAndCountsGoneAsDone(t *testing.T) {
	gone, refused := errors.New("gone"), errors.New("refused")
	m := newDialog(t, Config{Done: told, Title: "Delete 2?", Verb: "delete",
		Items: []Item{
			{Key: "a", Label: "a", Run: func(context.Context) (any, error) { return nil, gone }},
			{Key: "b", Label: "b", Run: func(context.Context) (any, error) { return nil, refused }},
		},
		Outcome: func(err error) ([]string, Result) {
			if err == gone {
				return []string{"already gone"}, Done
			}
			return []string{"RESOURCE_NOT_EMPTY: has 3 repos"}, Failed
		}})
	run(m, m.Update(viewstest.Key("y")))
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "1 done, 1 failed") || !strings.Contains(v, "RESOURCE_NOT_EMPTY: has 3 repos") {
		t.Errorf("results:\n%s", v)
	}
	msgs := run(m, m.Update(viewstest.Key("esc")))
	if done := msgs[0].(Settled).Done; len(done) != 1 || done[0] != "a" {
		t.Errorf("done %v", done)
	}
}

// TestUnknownOutcomeIsNeitherDoneNorFailed: an item whose answer was lost
// is said to be unknown, counted apart, and reported to the owner apart.
func TestUnknownOutcomeIsNeitherDoneNorFailed(t *testing.T) {
	lost := errors.New("EOF")
	m := newDialog(t, Config{Done: told, Title: "Delete 2?", Verb: "delete",
		Items: []Item{
			{Key: "a", Label: "repo a", Run: func(context.Context) (any, error) { return nil, lost }},
			{Key: "b", Label: "repo b", Run: func(context.Context) (any, error) { return "the server's answer", nil }},
		},
		Outcome: func(err error) ([]string, Result) {
			return []string{"no answer: unknown whether it was deleted — r to refresh to see"}, Unknown
		}})
	run(m, m.Update(viewstest.Key("y")))
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "1 done, 1 unknown") || strings.Contains(v, "failed") ||
		!strings.Contains(v, "? repo a") || !strings.Contains(v, "unknown whether it was deleted") {
		t.Errorf("results:\n%s", v)
	}
	msgs := run(m, m.Update(viewstest.Key("esc")))
	d := msgs[0].(Settled)
	if len(d.Done) != 1 || d.Done[0] != "b" || len(d.Unknown) != 1 || d.Unknown[0] != "a" {
		t.Errorf("done %v unknown %v", d.Done, d.Unknown)
	}
	if len(d.Answers) != 1 || d.Answers["b"] != "the server's answer" {
		t.Errorf("answers %v: what b's Run returned is not given back", d.Answers)
	}
}

// TestManyItemsScrollWithinBoundsAndFailuresComeFirst: a long list says
// how many more there are, scrolls no further than its end, and once done
// lists the failures first.
func TestManyItemsScrollWithinBoundsAndFailuresComeFirst(t *testing.T) {
	var items []Item
	for i := range 40 {
		key := fmt.Sprintf("item%02d", i)
		items = append(items, Item{Key: key, Label: safe.Text(key), Run: func(context.Context) (any, error) {
			if i == 37 {
				return nil, errors.New("refused")
			}
			return nil, nil
		}})
	}
	m := newDialog(t, Config{Done: told, Title: "Delete 40 tags?", Verb: "delete", Items: items})
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "more") || strings.Contains(v, "item39") {
		t.Fatalf("the list does not say there is more:\n%s", v)
	}
	for range 100 {
		m.Update(viewstest.Key("down"))
	}
	v = ansi.Strip(m.View())
	if !strings.Contains(v, "item39") || !strings.Contains(v, "above") {
		t.Errorf("down to the end:\n%s", v)
	}
	m.Update(viewstest.Key("up"))
	if v2 := ansi.Strip(m.View()); strings.Contains(v2, "item39") {
		t.Errorf("one up after the end still shows the last item: the offset ran past the end\n%s", v2)
	}
	m.Update(viewstest.Key("g"))
	if v = ansi.Strip(m.View()); !strings.Contains(v, "item00") {
		t.Errorf("g goes to the top:\n%s", v)
	}
	m.Update(viewstest.Key("G"))
	if v = ansi.Strip(m.View()); !strings.Contains(v, "item39") {
		t.Errorf("G goes to the end:\n%s", v)
	}
	run(m, m.Update(viewstest.Key("y")))
	v = ansi.Strip(m.View())
	if !strings.Contains(v, "39 done, 1 failed") || !strings.Contains(v, "! item37") || strings.Contains(v, "item39") {
		t.Errorf("the failure is not first:\n%s", v)
	}
}

// TestTypingTheNameKeepsScrollLetters: k and j are letters of the name
// typed, not scroll keys.
func TestTypingTheNameKeepsScrollLetters(t *testing.T) {
	m := newDialog(t, Config{Done: told, Title: "Delete folder kj?", Confirm: "kj", Verb: "delete",
		Items: []Item{{Key: "g", Label: "kj", Run: func(context.Context) (any, error) { return nil, nil }}}})
	m.Update(viewstest.Key("k"))
	m.Update(viewstest.Key("j"))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "to confirm: kj") {
		t.Errorf("typed kj:\n%s", v)
	}
}

// The confirmation input fits the dialog: no ellipsis after its blanks.
func TestConfirmationInputIsNotCut(t *testing.T) {
	m := newDialog(t, Config{Done: told, Title: "Delete folder apps?", Confirm: "apps", Verb: "delete",
		Items: []Item{{Key: "g", Label: "apps", Run: func(context.Context) (any, error) { return nil, nil }}}})
	m.Update(viewstest.Key("a"))
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		if strings.HasPrefix(l, "type apps to confirm: ") && strings.Contains(l, m.common.Theme.Glyphs.Ellipsis) {
			t.Errorf("the input is cut: %q", l)
		}
	}
}

// A name too long to prompt with goes on its own line, whole; the input
// keeps the room to show what is typed.
func TestALongNameToTypeIsShownWhole(t *testing.T) {
	name := "very-long-folder-name-" + strings.Repeat("x", 60)
	m := newDialog(t, Config{Done: told, Title: "Delete folder?", Confirm: name, Verb: "delete",
		Items: []Item{{Key: "g", Label: safe.Text(name), Run: func(context.Context) (any, error) { return nil, nil }}}})
	for _, r := range "very" {
		m.Update(viewstest.Key(string(r)))
	}
	s := ansi.Strip(m.View())
	if !strings.Contains(strings.ReplaceAll(s, "\n", ""), name) || !strings.Contains(s, "> very") {
		t.Errorf("the name or what is typed is cut:\n%s", s)
	}
}

// TestYesIsAKeyOfTheKeymap: the dialog's yes is the keymap's, so a user
// who binds it to o is asked "o or enter", and y no longer answers.
func TestYesIsAKeyOfTheKeymap(t *testing.T) {
	keys := keymap.Default()
	if _, err := keys.Apply(map[keymap.Action][]string{keymap.Yes: {"o"}}); err != nil {
		t.Fatal(err)
	}
	ran := false
	m := New(context.Background(), views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keys},
		Config{Title: "Delete repo nginx?", Verb: "delete",
			Items: []Item{{Key: "r", Label: "nginx", Run: func(context.Context) (any, error) { ran = true; return nil, nil }}}})
	m.SetSize(80, 20)
	m.Init()
	if s := ansi.Strip(m.View()); !strings.Contains(s, "o or enter: yes · esc: no") {
		t.Fatalf("the question does not name the bound key:\n%s", s)
	}
	run(m, m.Update(viewstest.Key("y")))
	if ran {
		t.Fatal("y answered yes after yes was bound to o")
	}
	run(m, m.Update(viewstest.Key("o")))
	if !ran {
		t.Fatal("o did not answer yes")
	}
}

// r on the results sends again what the server refused (nothing changed
// for it), never what has an unknown outcome.
func TestRetrySendsAgainOnlyWhatWasRefused(t *testing.T) {
	refused, lost := errors.New("refused"), errors.New("lost")
	var refusedRuns, lostRuns int
	m := newDialog(t, Config{Done: told, Title: "Bind 2?", Verb: "bind",
		Items: []Item{
			{Key: "a", Label: "a", Run: func(context.Context) (any, error) {
				if refusedRuns++; refusedRuns == 1 {
					return nil, refused
				}
				return "ok", nil
			}},
			{Key: "b", Label: "b", Run: func(context.Context) (any, error) { lostRuns++; return nil, lost }},
		},
		Outcome: func(err error) ([]string, Result) {
			if err == lost {
				return []string{"no answer"}, Unknown
			}
			return []string{err.Error()}, Failed
		}})
	run(m, m.Update(viewstest.Key("y")))
	retry := func() bool {
		st, ok := keymap.Find(m.Actions(), keymap.Refresh)
		return ok && st.Enabled && st.Short == "retry failed"
	}
	if !retry() {
		t.Fatalf("the results offer no retry: %v", m.Actions())
	}
	run(m, m.Update(viewstest.Key("r")))
	if refusedRuns != 2 || lostRuns != 1 {
		t.Fatalf("runs: refused %d (want 2), lost %d (want 1)", refusedRuns, lostRuns)
	}
	if s := ansi.Strip(m.View()); retry() || !strings.Contains(s, "1 done") {
		t.Errorf("after the retry (retry still offered: %v):\n%s", retry(), s)
	}
}

// Every key the dialog offers does something, in each of its states:
// asking (with and without a name to type), running, and the results
// with a retry and a next step; its scroll keys are no half pages
// (ctrl+d deletes in the confirmation input).
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	bound := func(when string, m *Model) {
		t.Helper()
		states := m.Actions()
		if u := keymap.Unbound(states); len(u) > 0 {
			t.Errorf("%s: enabled without a Run: %v", when, u)
		}
		if _, ok := keymap.Find(states, keymap.HalfDown); ok {
			t.Errorf("%s: the dialog scrolls by half pages", when)
		}
		if _, ok := keymap.Find(states, keymap.Down); !ok {
			t.Errorf("%s: the dialog does not scroll", when)
		}
	}
	typed := newDialog(t, Config{Done: told, Title: "Delete folder ci?", Confirm: "ci", Verb: "delete",
		Items: []Item{{Key: "g", Label: "ci", Run: func(context.Context) (any, error) { return nil, nil }}}})
	bound("asking for a name", typed)
	typed.Update(viewstest.Key("c"))
	typed.Update(viewstest.Key("i"))
	bound("with the name typed", typed)
	typed.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	typed.Update(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
	if v := ansi.Strip(typed.View()); !strings.Contains(v, "to confirm: c ") {
		t.Errorf("ctrl+d did not delete the letter under the cursor:\n%s", v)
	}

	refused := errors.New("refused")
	m := newDialog(t, Config{Done: told, Title: "Delete 2?", Verb: "delete",
		Items: []Item{
			{Key: "a", Label: "a", Run: func(context.Context) (any, error) { return nil, refused }},
			{Key: "b", Label: "b", Run: func(context.Context) (any, error) { return nil, nil }},
		},
		Next: func(error) (string, tea.Cmd) { return "empty it first", func() tea.Msg { return "next" } }})
	bound("asking", m)
	cmd := m.Update(viewstest.Key("y"))
	bound("running", m)
	if st, _ := keymap.Find(m.Actions(), keymap.Cancel); st.Enabled {
		t.Error("esc is enabled while the changes run")
	}
	run(m, cmd)
	bound("the results", m)
	st, _ := keymap.Find(m.Actions(), keymap.Accept)
	if st.Short != "open" {
		t.Errorf("enter on a refusal with a next step says %q", st.Short)
	}
	if st, _ := keymap.Find(m.Actions(), keymap.Refresh); !st.Enabled {
		t.Error("the results offer no retry")
	}
	msgs := viewstest.Drive(m.Update(viewstest.Key("enter")), func(tea.Msg) bool { return false }, m.Update)
	if !m.Closed() || len(msgs) != 2 || msgs[1] != "next" {
		t.Errorf("enter: closed %v, told %v", m.Closed(), msgs)
	}
}
