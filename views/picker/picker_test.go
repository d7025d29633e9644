package picker

import (
	"context"
	"errors"
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

func roles() []Option {
	var out []Option
	for _, n := range []string{"viewer", "editor", "owner", "registry.pull", "role-2024"} {
		out = append(out, Option{Label: safe.Text(n), Value: n})
	}
	return out
}

// chosen is an owner's message: the option itself.
func chosen(o Option) tea.Msg { return o }

// TestDigitsChooseOnlyWhileTheFilterIsEmptyAndTheHintSaysSo: 1-9 choose
// while nothing is typed; once a filter is typed, digits narrow it, and
// the hint no longer offers 1-9.
func TestDigitsChooseOnlyWhileTheFilterIsEmptyAndTheHintSaysSo(t *testing.T) {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, "Which role?", roles(), true, chosen).WithDigits()
	m.SetSize(80, 12)
	m.Init()
	if v := ansi.Strip(m.View()); !strings.Contains(v, "1-9 choose") || !strings.Contains(v, "2 editor") {
		t.Fatalf("no digits offered:\n%s", v)
	}
	if msg := m.Update(viewstest.Key("2"))(); msg.(Option).Label != "editor" {
		t.Fatalf("2 chose %v", msg)
	}
	for _, k := range []string{"r", "o", "l", "e", "-", "2"} {
		m.Update(viewstest.Key(k))
	}
	v := ansi.Strip(m.View())
	if strings.Contains(v, "1-9 choose ·") || !strings.Contains(v, "digits now narrow") {
		t.Errorf("the hint still offers 1-9:\n%s", v)
	}
	if !strings.Contains(v, "filter: role-2") || !strings.Contains(v, "role-2024") {
		t.Errorf("the digit did not narrow:\n%s", v)
	}
	cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if msg := cmd(); msg.(Option).Label != "role-2024" {
		t.Errorf("enter chose %v", msg)
	}
}

// The selection bar spans the whole row, digit included (a styled digit
// inside it used to end the bar after itself).
func TestSelectionBarSpansTheRowWithItsDigit(t *testing.T) {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, "Which role?", roles(), true, chosen).WithDigits()
	m.SetSize(60, 12)
	m.Init()
	for _, l := range strings.Split(m.View(), "\n") {
		if strings.HasPrefix(ansi.Strip(l), "1 viewer") {
			if n := strings.Count(l, "\x1b[m") + strings.Count(l, "\x1b[0m"); n != 1 || !strings.HasSuffix(l, "m") {
				t.Errorf("the selected row is styled in %d pieces: %q", n, l)
			}
			return
		}
	}
	t.Fatalf("no selected viewer row:\n%s", ansi.Strip(m.View()))
}

// A picker that lists its options says so meanwhile, keeps the keys typed
// before they come and gives them to itself then: "edi⏎" chooses editor.
func TestLoadingPickerTakesKeysTypedBeforeItsOptions(t *testing.T) {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, "Which role?", nil, true, chosen).
		Load(context.Background(), "listing roles…", func(context.Context) ([]Option, error) { return roles(), nil })
	m.SetSize(80, 12)
	var listed tea.Msg
	for _, msg := range viewstest.Drive(m.Init(), func(tea.Msg) bool { return false }, m.Update) {
		if o, ok := msg.(optionsMsg); ok {
			listed = o
		}
	}
	if listed == nil {
		t.Fatal("Init did not list the options")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "listing roles…") || strings.Contains(v, "no match") {
		t.Errorf("while listing:\n%s", v)
	}
	for _, k := range []string{"e", "d", "i", "enter"} {
		if cmd := m.Update(viewstest.Key(k)); cmd != nil {
			t.Fatalf("%s acted before the options came: %v", k, cmd())
		}
	}
	var chose Option
	for _, msg := range viewstest.Drive(m.Update(listed), func(tea.Msg) bool { return false }, m.Update) {
		if o, ok := msg.(Option); ok {
			chose = o
		}
	}
	if chose.Label != "editor" {
		t.Errorf("the keys typed ahead chose %q, want editor", chose.Label)
	}
}

// A failure to list closes the picker and says why; esc while listing
// closes it at once.
func TestLoadingPickerFailsAndCancels(t *testing.T) {
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	m := New(common, "Which role?", nil, true, chosen).
		Load(context.Background(), "listing roles…", func(context.Context) ([]Option, error) { return nil, errors.New("list roles: UNAVAILABLE") })
	msgs := viewstest.Drive(m.Update(optionsMsg{owner: m, err: errors.New("list roles: UNAVAILABLE")}), func(tea.Msg) bool { return false }, m.Update)
	var flashed bool
	for _, msg := range msgs {
		if msg, ok := msg.(views.FlashMsg); ok {
			flashed = msg.Error && strings.Contains(msg.Text, "UNAVAILABLE")
		}
	}
	if !flashed || !m.Closed() {
		t.Errorf("a failure: %v", msgs)
	}
	m = New(common, "Which role?", nil, true, chosen).
		Load(context.Background(), "listing roles…", func(context.Context) ([]Option, error) { return roles(), nil })
	if m.Update(viewstest.Key("esc")); !m.Closed() {
		t.Error("esc while listing does not close")
	}
}

// Every key the picker offers does something: with options, narrowed to
// none, while they load; esc of a picker that must be answered says why
// not, even while its options load.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	for _, cancellable := range []bool{true, false} {
		m := New(common, "Which role?", roles(), cancellable, chosen)
		m.SetSize(80, 12)
		m.Init()
		check := func(when string) {
			t.Helper()
			if u := keymap.Unbound(m.Actions()); len(u) > 0 {
				t.Errorf("cancellable %v, %s: enabled without a Run: %v", cancellable, when, u)
			}
		}
		check("listed")
		m.Update(viewstest.Key("down"))
		m.Update(viewstest.Key("down"))
		m.Update(viewstest.Key("up"))
		if m.cursor != 1 {
			t.Errorf("down down up is on %d", m.cursor)
		}
		check("moved")
		for _, k := range []string{"z", "z", "z"} {
			m.Update(viewstest.Key(k))
		}
		check("nothing matches")
		if cmd := m.Update(viewstest.Key("enter")); cmd != nil {
			t.Errorf("enter on no match chose %v", cmd())
		}
		cmd := m.Update(viewstest.Key("esc"))
		if cancellable != m.Closed() {
			t.Errorf("cancellable %v: esc closed %v", cancellable, m.Closed())
		}
		if f, ok := msgOf(cmd).(views.FlashMsg); cancellable == ok || !cancellable && !strings.Contains(f.Text, "choose one") {
			t.Errorf("cancellable %v: esc said %v", cancellable, f)
		}

		loading := New(common, "Which role?", nil, cancellable, chosen).
			Load(context.Background(), "listing roles…", func(context.Context) ([]Option, error) { return roles(), nil })
		loading.SetSize(80, 12)
		if u := keymap.Unbound(loading.Actions()); len(u) > 0 {
			t.Errorf("cancellable %v, loading: enabled without a Run: %v", cancellable, u)
		}
		loading.Update(viewstest.Key("esc"))
		if cancellable != loading.Closed() {
			t.Errorf("cancellable %v: esc while loading closed %v", cancellable, loading.Closed())
		}
	}
}

func msgOf(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}
