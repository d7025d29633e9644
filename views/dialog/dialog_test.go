package dialog

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
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

// run delivers a command's messages (batched) back to the dialog and
// returns the others.
func run(m *Model, cmd tea.Cmd) []tea.Msg {
	return viewstest.Drive(cmd, func(msg tea.Msg) bool { _, ok := msg.(resultMsg); return ok }, m.Update)
}

func TestTypedConfirmation(t *testing.T) {
	ran := false
	m := newDialog(t, Config{ID: "x", Title: "Delete folder ci?", Confirm: "ci", Verb: "delete",
		Items: []Item{{Key: "g", Label: "ci", Run: func(context.Context) error { ran = true; return nil }}}})
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
	if len(msgs) != 2 || msgs[1] != (views.BackMsg{From: m}) || len(msgs[0].(DoneMsg).Done) != 1 {
		t.Errorf("closing: %v", msgs)
	}
}

func TestOutcomeExplainsAndCountsGoneAsDone(t *testing.T) {
	gone, refused := errors.New("gone"), errors.New("refused")
	m := newDialog(t, Config{ID: "x", Title: "Delete 2?", Verb: "delete",
		Items: []Item{
			{Key: "a", Label: "a", Run: func(context.Context) error { return gone }},
			{Key: "b", Label: "b", Run: func(context.Context) error { return refused }},
		},
		Outcome: func(err error) ([]string, bool) {
			if err == gone {
				return []string{"already gone"}, true
			}
			return []string{"RESOURCE_NOT_EMPTY: has 3 repos"}, false
		}})
	run(m, m.Update(viewstest.Key("y")))
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "1 done, 1 failed") || !strings.Contains(v, "RESOURCE_NOT_EMPTY: has 3 repos") {
		t.Errorf("results:\n%s", v)
	}
	msgs := run(m, m.Update(viewstest.Key("esc")))
	if done := msgs[0].(DoneMsg).Done; len(done) != 1 || done[0] != "a" {
		t.Errorf("done %v", done)
	}
}
