package form

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/viewstest"
)

var errLost = errors.New("no answer: EOF")

// lostForm is a form whose every send loses its answer until answered is
// set; check answers the lookups in turn.
type lostForm struct {
	m        *Model
	sends    int
	checks   int
	answered bool
	found    []Found
	errs     []error
	done     []any
	rebased  map[string]string
}

func newLostForm(t *testing.T) *lostForm {
	t.Helper()
	f := &lostForm{}
	f.m = New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{
		Title: "edit description", Ctx: context.Background(),
		Fields: []Field{{Key: "description", Label: "description", Value: "old"}},
		Submit: func(context.Context, map[string]string) (any, error) {
			f.sends++
			if f.answered {
				return "sent", nil
			}
			return nil, errLost
		},
		Explain: func(err error) (map[string]string, []string) {
			return nil, []string{"no answer: unknown whether it was made"}
		},
		Lost: func(err error) bool { return errors.Is(err, errLost) },
		Check: func(context.Context, map[string]string) (Found, error) {
			i := f.checks
			f.checks++
			return f.found[i], f.errs[i]
		},
		Rebase: func(v map[string]string) { f.rebased = v },
		Done: func(r any) tea.Cmd {
			f.done = append(f.done, r)
			return nil
		},
	})
	f.m.SetSize(100, 12)
	f.m.Init()
	return f
}

// keys sends keys, delivering the form's answers and lookups back to it.
func (f *lostForm) keys(keys ...string) {
	for _, k := range keys {
		viewstest.Drive(f.m.Update(viewstest.Key(k)), func(msg tea.Msg) bool {
			switch fmt.Sprintf("%T", msg) {
			case "form.resultMsg", "form.checkedMsg":
				return true
			}
			return false
		}, f.m.Update)
	}
}

func (f *lostForm) says(t *testing.T, want ...string) {
	t.Helper()
	s := screen(f.m)
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Fatalf("the form does not say %q:\n%s", w, s)
		}
	}
	if strings.Contains(s, "not changed") {
		t.Fatalf("a lost answer is said to be a refusal:\n%s", s)
	}
}

// TestLostAnswerIsLookedUpBeforeAnythingIsSentAgain: enter after a lost
// answer never sends until a lookup says the server does not have it; a
// failed lookup is looked up again, not sent.
func TestLostAnswerIsLookedUpBeforeAnythingIsSentAgain(t *testing.T) {
	f := newLostForm(t)
	f.found = []Found{{}, {Verdict: Absent, Says: "the server still has the old value"}}
	f.errs = []error{errors.New("lookup refused"), nil}
	f.keys("!", "enter")
	f.says(t, "no answer: unknown whether it was made", "could not look it up: lookup refused — enter looks again",
		"? no answer; could not look it up · enter looks again")
	if f.sends != 1 || f.checks != 1 {
		t.Fatalf("sends %d, checks %d; want 1, 1", f.sends, f.checks)
	}
	f.keys("enter")
	f.says(t, "the server still has the old value: enter sends again", "? no answer; the server still has the old value · enter sends again")
	if f.sends != 1 || f.checks != 2 {
		t.Fatalf("enter after a failed lookup: sends %d, checks %d; want 1, 2", f.sends, f.checks)
	}
	f.answered = true
	f.keys("enter")
	if f.sends != 2 || len(f.done) != 1 || f.done[0] != "sent" {
		t.Fatalf("enter after the lookup said absent: sends %d, done %v", f.sends, f.done)
	}
}

// TestLostAnswerFoundMadeIsDone: a lookup that finds the change made ends
// the form as a success would, with what the server has.
func TestLostAnswerFoundMadeIsDone(t *testing.T) {
	f := newLostForm(t)
	f.found = []Found{{Verdict: Made, Says: "the server has the new value", Result: "found"}}
	f.errs = []error{nil}
	f.keys("!", "enter")
	if f.sends != 1 || len(f.done) != 1 || f.done[0] != "found" {
		t.Fatalf("sends %d, done %v", f.sends, f.done)
	}
}

// TestLostAnswerFindingAnotherValueEditsFromIt: enter puts the server's
// value in the field (and tells Rebase), sending nothing; the next enter
// sends the values edited from it.
func TestLostAnswerFindingAnotherValueEditsFromIt(t *testing.T) {
	f := newLostForm(t)
	f.found = []Found{{Verdict: Other, Says: `the server has another value: "theirs"`, Values: map[string]string{"description": "theirs"}}}
	f.errs = []error{nil}
	f.keys("!", "enter")
	f.says(t, `the server has another value: "theirs" — enter puts it in the field to edit from`, "enter edits from it")
	f.keys("enter")
	if f.sends != 1 || f.m.Values()["description"] != "theirs" || f.rebased["description"] != "theirs" || f.m.Lost() {
		t.Fatalf("sends %d, values %v, rebased %v, lost %v", f.sends, f.m.Values(), f.rebased, f.m.Lost())
	}
	f.answered = true
	f.keys("?", "enter")
	if f.sends != 2 || len(f.done) != 1 {
		t.Fatalf("sends %d, done %v", f.sends, f.done)
	}
}

// TestLostAnswerWithoutALookupNeverResends: a form that cannot look up
// refuses to send again.
func TestLostAnswerWithoutALookupNeverResends(t *testing.T) {
	f := newLostForm(t)
	f.m.cfg.Check = nil
	f.keys("!", "enter", "enter", "enter")
	f.says(t, "unknown whether it was made")
	if f.sends != 1 {
		t.Fatalf("sent %d times", f.sends)
	}
}

// What the lookup found for the values sent is given, from the form's own
// state, to Submit and, after the answer was lost, to Check (Looked): they
// keep nothing of their own between commands.
func TestSubmitAndCheckAreGivenWhatTheLookupFound(t *testing.T) {
	var sent, checked []any
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{
		Title: "new tag", Ctx: context.Background(),
		Fields:    []Field{{Key: "name", Label: "name"}},
		LookupKey: func(v map[string]string) string { return v["name"] },
		Lookup:    func(_ context.Context, v map[string]string) (any, error) { return "found " + v["name"], nil },
		Warn:      func(map[string]string, any) (string, bool) { return "", false },
		Submit: func(ctx context.Context, _ map[string]string) (any, error) {
			sent = append(sent, Looked(ctx))
			return nil, errLost
		},
		Lost: func(err error) bool { return errors.Is(err, errLost) },
		Check: func(ctx context.Context, _ map[string]string) (Found, error) {
			checked = append(checked, Looked(ctx))
			return Found{Verdict: Absent, Says: "the server has no such tag"}, nil
		},
		Done: func(any) tea.Cmd { return nil },
	})
	m.SetSize(100, 12)
	m.Init()
	m.Update(viewstest.Key("v")) // the lookups typing schedules are not waited for
	m.Update(viewstest.Key("1"))
	viewstest.Drive(m.Update(viewstest.Key("enter")), func(msg tea.Msg) bool {
		switch fmt.Sprintf("%T", msg) {
		case "form.lookedMsg", "form.resultMsg", "form.checkedMsg":
			return true
		}
		return false
	}, m.Update)
	if len(sent) != 1 || sent[0] != "found v1" || len(checked) != 1 || checked[0] != "found v1" {
		t.Errorf("Submit was given %v, Check %v; want what the lookup found for v1", sent, checked)
	}
}
