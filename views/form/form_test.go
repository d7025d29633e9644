package form

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/safe"
	"canopy/views/viewstest"
)

type sent struct{ values []map[string]string }

func newForm(t *testing.T, page bool, answer func(map[string]string) (any, error)) (*Model, *sent) {
	t.Helper()
	s := &sent{}
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{
		Title: "New identity in platform", Page: page, Ctx: context.Background(),
		Fields: []Field{
			{Key: "name", Label: "name", Validate: func(v string) error {
				if v == "" || strings.ToLower(v) != v {
					return errors.New("lower-case, not empty")
				}
				return nil
			}},
			{Key: "description", Label: "description"},
			{Key: "tier", Label: "tier", Value: "BASE", Choices: []string{"BASE", "FIPS", "AI"}},
		},
		Preview: func(v map[string]string) string { return "POST /iam/v2/identities/platform name=" + v["name"] },
		Submit: func(_ context.Context, v map[string]string) (any, error) {
			s.values = append(s.values, v)
			return answer(v)
		},
		Explain: func(err error) (map[string]string, []string) {
			if strings.HasPrefix(err.Error(), "field ") {
				f, why, _ := strings.Cut(strings.TrimPrefix(err.Error(), "field "), ": ")
				return map[string]string{f: why}, nil
			}
			return nil, []string{err.Error()}
		},
		Done: func(any) tea.Cmd { return views.Flash("created") },
	})
	m.SetSize(100, 20)
	m.Init()
	return m, s
}

// run sends keys and delivers the form's own messages back to it.
func run(m *Model, keys ...string) []tea.Msg {
	var other []tea.Msg
	for _, k := range keys {
		other = append(other, viewstest.Drive(m.Update(viewstest.Key(k)), func(msg tea.Msg) bool {
			return fmt.Sprintf("%T", msg) == "form.resultMsg"
		}, m.Update)...)
	}
	return other
}

func typeIn(m *Model, s string) {
	for _, r := range s {
		run(m, string(r))
	}
}

func screen(m *Model) string { return ansi.Strip(m.View()) }

func TestValidatesAsTyped(t *testing.T) {
	m, s := newForm(t, true, func(map[string]string) (any, error) { return "ok", nil })
	if !strings.Contains(screen(m), "lower-case, not empty") {
		t.Errorf("an empty required field is not marked:\n%s", screen(m))
	}
	typeIn(m, "CI")
	msgs := run(m, "enter")
	if len(s.values) != 0 || len(msgs) != 1 || !strings.Contains(msgs[0].(views.FlashMsg).Text, "fix the fields") {
		t.Fatalf("an invalid form was sent: %v %v", s.values, msgs)
	}
	run(m, "backspace", "backspace")
	typeIn(m, "ci-bot")
	if strings.Contains(screen(m), "lower-case") {
		t.Errorf("the fixed field is still marked:\n%s", screen(m))
	}
	if !strings.Contains(screen(m), "POST /iam/v2/identities/platform name=ci-bot") {
		t.Errorf("no preview:\n%s", screen(m))
	}
}

func TestChoicesCycleAndTabMoves(t *testing.T) {
	m, s := newForm(t, true, func(map[string]string) (any, error) { return "ok", nil })
	typeIn(m, "x")
	run(m, "tab")
	typeIn(m, "a b")
	run(m, "tab", "right", "right")
	if !strings.Contains(screen(m), "‹ AI ›") {
		t.Errorf("→ did not cycle the choice:\n%s", screen(m))
	}
	msgs := run(m, "enter")
	if len(s.values) != 1 || s.values[0]["name"] != "x" || s.values[0]["description"] != "a b" || s.values[0]["tier"] != "AI" {
		t.Fatalf("sent %v", s.values)
	}
	if len(msgs) != 2 || msgs[0] != (views.BackMsg{From: m}) { // closed, then done
		t.Errorf("a page form did not close after success: %v", msgs)
	}
}

func TestServerReasonsGoBesideTheirFieldAndNothingIsLost(t *testing.T) {
	calls := 0
	m, _ := newForm(t, true, func(v map[string]string) (any, error) {
		calls++
		if calls == 1 {
			return nil, errors.New("field name: already used in this group")
		}
		return nil, errors.New("PERMISSION_DENIED: identity ci lacks CAP_IDENTITY_CREATE")
	})
	typeIn(m, "dup")
	run(m, "tab")
	typeIn(m, "kept text")
	run(m, "enter")
	s := screen(m)
	if !strings.Contains(s, "dup") || !strings.Contains(s, "kept text") || !strings.Contains(lineWith(s, "name"), "already used in this group") {
		t.Errorf("the reason is not beside name, or text was lost:\n%s", s)
	}
	run(m, "enter")
	if s := screen(m); !strings.Contains(s, "lacks CAP_IDENTITY_CREATE") || !strings.Contains(s, "kept text") {
		t.Errorf("a form-level reason:\n%s", s)
	}
	// Typing in the field clears its server reason.
	typeIn(m, "!")
	if strings.Contains(lineWith(screen(m), "description"), "already") {
		t.Error("reason stuck")
	}
}

func TestInPlaceFormClosesToItsOwner(t *testing.T) {
	m, _ := newForm(t, false, func(map[string]string) (any, error) { return "ok", nil })
	msgs := run(m, "esc")
	if c, ok := msgs[0].(ClosedMsg); !ok || c.Form != m || c.Sent {
		t.Errorf("esc: %v", msgs)
	}
	if !strings.Contains(m.Status(), "enter sends") {
		t.Errorf("status %q", m.Status())
	}
}

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// TestServerTextIsShownSafeAndKeptWhenUnchanged: a value with escape and
// bidi characters shows as visible markers, and a field left as shown
// sends the original back (nothing lost); once edited it sends what the
// user sees.
func TestServerTextIsShownSafeAndKeptWhenUnchanged(t *testing.T) {
	raw := "evil\x1b]0;pwned\x07 \u202eabc"
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{
		Title: "edit", Fields: []Field{{Key: "description", Label: "description", Value: raw}}})
	m.SetSize(100, 20)
	m.Init()
	line := m.Line(0, 100, 12)
	if strings.ContainsAny(line, "\x07\u202e") || strings.Contains(line, "\x1b]") {
		t.Fatalf("the input prints server controls: %q", line)
	}
	if s := ansi.Strip(line); !strings.Contains(s, "\\u202eabc") {
		t.Errorf("the markers are not shown: %q", s)
	}
	if got := m.Values()["description"]; got != raw {
		t.Errorf("unchanged field sends %q, want the original %q", got, raw)
	}
	m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if got := m.Values()["description"]; got != safe.String(raw)+"x" {
		t.Errorf("edited field sends %q", got)
	}
}
