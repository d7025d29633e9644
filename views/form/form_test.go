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
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
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
	if !strings.Contains(screen(m), "‹ AI ›  ←/→ change") {
		t.Errorf("→ did not cycle the choice, or the keys are not said:\n%s", screen(m))
	}
	m.cfg.Fields[2].ChoiceLabel = strings.ToLower
	if !strings.Contains(screen(m), "‹ ai ›") {
		t.Errorf("the choice is not shown by its label:\n%s", screen(m))
	}
	msgs := run(m, "enter")
	if len(s.values) != 1 || s.values[0]["name"] != "x" || s.values[0]["description"] != "a b" || s.values[0]["tier"] != "AI" {
		t.Fatalf("sent %v", s.values)
	}
	if len(msgs) != 1 || !m.Closed() { // closed, and done said
		t.Errorf("a page form did not close after success: %v, closed %v", msgs, m.Closed())
	}
}

func TestServerReasonsGoBesideTheirFieldAndNothingIsLost(t *testing.T) {
	calls := 0
	m, _ := newForm(t, true, func(v map[string]string) (any, error) {
		calls++
		if calls == 1 {
			return nil, errors.New("field name: already used in this group")
		}
		return nil, errors.New("PERMISSION_DENIED: identity ci lacks CAP_IAM_IDENTITY_CREATE")
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
	if s := screen(m); !strings.Contains(s, "lacks CAP_IAM_IDENTITY_CREATE") || !strings.Contains(s, "kept text") {
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
	typeIn(m, "ci")
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

// TestAPageFormSaysAnErrorOnce: the reason a form was refused is printed
// once, not in the body and again in the status.
func TestAPageFormSaysAnErrorOnce(t *testing.T) {
	m, _ := newForm(t, true, func(map[string]string) (any, error) {
		return nil, errors.New("PERMISSION_DENIED: identity ci lacks CAP_IAM_IDENTITY_CREATE")
	})
	typeIn(m, "ci")
	run(m, "enter")
	if n := strings.Count(screen(m), "lacks CAP_IAM_IDENTITY_CREATE"); n != 1 {
		t.Errorf("the error is printed %d times:\n%s", n, screen(m))
	}
}

// TestReasonsAndRequestWrapNeverCut: in a narrow place a long reason
// wraps under itself beside its field, and the footer carries the whole
// request and the form's error, wrapped.
func TestReasonsAndRequestWrapNeverCut(t *testing.T) {
	long := "Permission denied: identity \"carol\" (8707a01d6329783f) lacks CAP_IAM_IDENTITIES_CREATE on the group"
	m, _ := newForm(t, false, func(map[string]string) (any, error) { return nil, errors.New("field name: " + long) })
	typeIn(m, "ci")
	run(m, "enter")
	lines := m.Lines(0, 60, 12)
	joined := ansi.Strip(strings.Join(lines, " "))
	if len(lines) < 2 || !strings.Contains(strings.Join(strings.Fields(joined), " "), "CAP_IAM_IDENTITIES_CREATE on the group") {
		t.Errorf("the reason is cut:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line of %d cells in 60: %q", w, ansi.Strip(l))
		}
	}
	m2, _ := newForm(t, false, func(map[string]string) (any, error) { return nil, errors.New(long) })
	typeIn(m2, "a-rather-long-identity-name-for-the-preview")
	run(m2, "enter")
	foot := ansi.Strip(strings.Join(m2.Footer(40, false), "\n"))
	flat := strings.Join(strings.Fields(foot), "")
	if !strings.Contains(flat, "name=a-rather-long-identity-name-for-the-preview") || !strings.Contains(flat, "onthegroup") {
		t.Errorf("the footer cuts:\n%s", foot)
	}
}

// TestLookupWarnsAndTakesASecondEnter: what the values would replace is
// looked up before sending; when it needs confirming, the first enter
// only says so and the second sends.
func TestLookupWarnsAndTakesASecondEnter(t *testing.T) {
	var sent int
	lookups := 0
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{
		Title: "New tag", Page: true, Ctx: context.Background(),
		Fields: []Field{{Key: "name", Label: "name"}, {Key: "digest", Label: "digest"}},
		Submit: func(context.Context, map[string]string) (any, error) { sent++; return "ok", nil },
		Done:   func(any) tea.Cmd { return nil },
		Lookup: func(_ context.Context, v map[string]string) (any, error) {
			lookups++
			if v["name"] == "v1" {
				return "sha256:aaaa", nil
			}
			return nil, nil
		},
		LookupKey: func(v map[string]string) string { return v["name"] },
		Warn: func(v map[string]string, found any) (string, bool) {
			if found == nil {
				return "", false
			}
			return "v1 exists at " + found.(string) + ": this moves it to " + v["digest"], true
		},
	})
	m.SetSize(100, 20)
	m.Init()
	drive := func(keys ...string) []tea.Msg {
		var other []tea.Msg
		for _, k := range keys {
			other = append(other, viewstest.Drive(m.Update(viewstest.Key(k)), func(msg tea.Msg) bool {
				switch msg.(type) {
				case resultMsg, lookedMsg:
					return true
				}
				return false // the debounce tick is not waited for: enter asks at once
			}, m.Update)...)
		}
		return other
	}
	// Typing: the debounce ticks are dropped (enter asks at once).
	for _, k := range []string{"v", "1", "tab", "s", "h", "a", "2", "5", "6", ":", "b", "b", "b", "b"} {
		m.Update(viewstest.Key(k))
	}
	drive("enter")
	if sent != 0 || lookups != 1 {
		t.Fatalf("sent %d, looked up %d times", sent, lookups)
	}
	if s := screen(m); !strings.Contains(s, "v1 exists at sha256:aaaa: this moves it to sha256:bbbb") {
		t.Errorf("no warning:\n%s", s)
	}
	drive("enter")
	if sent != 1 {
		t.Errorf("the second enter did not send")
	}
}

// A secret field shows dots as it is typed, and sends what was typed.
func TestSecretFieldIsNotShown(t *testing.T) {
	var sent []map[string]string
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{
		Title: "New provider", Page: true, Ctx: context.Background(),
		Fields: []Field{{Key: "name", Label: "name"}, {Key: "secret", Label: "client secret", Secret: true}},
		Submit: func(_ context.Context, v map[string]string) (any, error) {
			sent = append(sent, v)
			return "ok", nil
		},
		Done: func(any) tea.Cmd { return views.Flash("created") },
	})
	m.SetSize(100, 20)
	m.Init()
	typeIn(m, "x")
	run(m, "tab")
	typeIn(m, "hunter2")
	if strings.Contains(screen(m), "hunter2") || !strings.Contains(screen(m), "•••••••") {
		t.Errorf("the secret shows as typed:\n%s", screen(m))
	}
	run(m, "enter")
	if len(sent) != 1 || sent[0]["secret"] != "hunter2" {
		t.Errorf("sent %v, want the secret as typed", sent)
	}
}

// TestStatusKeysGiveWayWhole: in a narrow place the status line drops keys
// (the way out last) rather than show one cut ("esc c…").
func TestStatusKeysGiveWayWhole(t *testing.T) {
	m, _ := newForm(t, false, func(map[string]string) (any, error) { return nil, errors.New("Invalid argument") })
	typeIn(m, "ci")
	run(m, "enter")
	for _, c := range []struct {
		width int
		want  string
	}{
		{80, "! not changed (see below) · enter sends again · esc cancels"},
		{50, "! not changed (see below) · esc cancels"},
		{30, "! not changed (see below)"},
	} {
		got := ansi.Strip(m.StatusFit(c.width))
		if got != c.want {
			t.Errorf("in %d cells: %q, want %q", c.width, got, c.want)
		}
	}
}

// Every key the form offers does something: with a field to fix, ready,
// sending, after a refusal, and in a form of one field (no next field).
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	m, _ := newForm(t, true, func(map[string]string) (any, error) { return nil, errors.New("field name: taken") })
	check := func(when string, m *Model) {
		t.Helper()
		if u := keymap.Unbound(m.Actions()); len(u) > 0 {
			t.Errorf("%s: enabled without a Run: %v", when, u)
		}
	}
	check("a field to fix", m)
	typeIn(m, "ci")
	check("ready", m)
	run(m, "tab", "tab")
	if m.focus != 2 {
		t.Errorf("tab tab is on field %d", m.focus)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	if m.focus != 1 {
		t.Errorf("shift+tab from the last field is on field %d", m.focus)
	}
	cmd := m.Update(viewstest.Key("enter"))
	check("sending", m)
	if st, _ := keymap.Find(m.Actions(), keymap.Accept); st.Enabled {
		t.Error("enter is enabled while sending")
	}
	viewstest.Drive(cmd, func(tea.Msg) bool { return true }, m.Update)
	check("refused", m)
	if m.focus != 0 || !strings.Contains(screen(m), "taken") {
		t.Errorf("the refusal is not beside its field (focus %d):\n%s", m.focus, screen(m))
	}

	one := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{
		Title: "Rename", Ctx: context.Background(), Fields: []Field{{Key: "name", Label: "name", Value: "ci"}},
		Submit: func(context.Context, map[string]string) (any, error) { return "ok", nil },
		Done:   func(any) tea.Cmd { return nil },
	})
	one.SetSize(100, 20)
	one.Init()
	check("one field", one)
	if _, ok := keymap.Find(one.Actions(), keymap.Complete); ok {
		t.Error("a form of one field offers a next field")
	}
	if msg, ok := msgOf(one.Update(viewstest.Key("esc"))).(ClosedMsg); !ok || msg.Sent {
		t.Errorf("esc told %v", msg)
	}
}

func msgOf(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}
