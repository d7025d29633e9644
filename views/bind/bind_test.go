package bind

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/dialog"
	"canopy/views/picker"
	"canopy/views/viewstest"
)

type call struct{ group, identity, role string }

type fake struct {
	mu    sync.Mutex
	calls []call
}

func (f *fake) config() Config {
	roles := []picker.Option{
		{Label: "viewer", Value: Choice{UID: "r-viewer", Name: "viewer"}},
		{Label: "editor", Value: Choice{UID: "r-editor", Name: "editor"}},
		{Label: "owner", Value: Choice{UID: "r-owner", Name: "owner"}},
	}
	groups := []picker.Option{
		{Label: "acme", Value: Choice{UID: "org", Name: "acme"}},
		{Label: "platform", Value: Choice{UID: "org/p", Name: "platform"}},
		{Label: "platform/ci", Value: Choice{UID: "org/p/ci", Name: "platform/ci"}},
	}
	ids := []picker.Option{
		{Label: "alice", Value: Identity{UID: "org/alice", Name: "alice", Group: "org"}},
		{Label: "ci-bot", Value: Identity{UID: "org/p/ci/bot", Name: "ci-bot", Group: "org/p/ci"}},
	}
	return Config{
		LoadRoles:      func(context.Context) ([]picker.Option, error) { return roles, nil },
		LoadGroups:     func(context.Context) ([]picker.Option, error) { return groups, nil },
		LoadIdentities: func(context.Context) ([]picker.Option, error) { return ids, nil },
		Bindings:       func(group string) views.Change { return views.ChangedIn("role bindings", group) },
		Bind: func(_ context.Context, group, identity, role, _ string) (*api.RoleBinding, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.calls = append(f.calls, call{group, identity, role})
			if identity == "org/gone" {
				return nil, errors.New("NOT_FOUND: identity org/gone does not exist")
			}
			return &api.RoleBinding{UID: group + "/b", Identity: &api.BindingIdentity{Name: strings.TrimPrefix(identity, "org/")},
				Role: &api.Ref{Name: strings.TrimPrefix(role, "r-")}, Group: &api.Ref{Name: group}}, nil
		},
	}
}

// flow drives the flow like the shell: messages go back to it until it
// closes.
type flow struct {
	m      *Model
	other  []tea.Msg
	closed bool
}

func start(t *testing.T, cfg Config) *flow {
	t.Helper()
	m := New(context.Background(), views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, cfg)
	m.SetSize(90, 20)
	f := &flow{m: m}
	f.run(m.Init())
	return f
}

func (f *flow) run(cmd tea.Cmd) {
	for _, msg := range viewstest.Drive(cmd, func(msg tea.Msg) bool {
		switch msg.(type) {
		case optionsMsg, chosenMsg, boundMsg:
			return true
		}
		return strings.HasSuffix(typeName(msg), "resultMsg")
	}, f.m.Update) {
		f.other = append(f.other, msg)
	}
	f.closed = f.m.Closed()
}

func typeName(msg tea.Msg) string { return fmt.Sprintf("%T", msg) }

func (f *flow) keys(keys ...string) {
	for _, k := range keys {
		f.run(f.m.Update(viewstest.Key(k)))
	}
}

func (f *flow) screen() string { return ansi.Strip(f.m.View()) }

func TestBindFromAnIdentityWithADigit(t *testing.T) {
	fk := &fake{}
	cfg := fk.config()
	cfg.Identities = []Identity{{UID: "org/p/ci/bot", Name: "ci-bot", Group: "org/p/ci"}}
	f := start(t, cfg)
	s := f.screen()
	if !strings.Contains(s, "Which role for ci-bot?") || !strings.Contains(s, "1 viewer") || !strings.Contains(s, "3 owner") {
		t.Fatalf("role picker:\n%s", s)
	}
	f.keys("1")
	if s := f.screen(); !strings.Contains(s, "Bind viewer to ci-bot on which folder?") {
		t.Fatalf("group picker:\n%s", s)
	}
	// The identity's own group is preselected: enter takes it.
	f.keys("enter")
	if s := f.screen(); !strings.Contains(s, "Bind viewer to ci-bot on platform/ci?") ||
		!strings.Contains(s, `{"identityUid": "org/p/ci/bot", "roleUid": "r-viewer"}`) {
		t.Fatalf("confirmation:\n%s", s)
	}
	f.keys("enter")
	if len(fk.calls) != 1 || fk.calls[0] != (call{"org/p/ci", "org/p/ci/bot", "r-viewer"}) {
		t.Fatalf("calls %+v", fk.calls)
	}
	if !f.closed {
		t.Error("a single successful binding did not close the flow")
	}
	var flash, changed bool
	for _, msg := range f.other {
		switch m := msg.(type) {
		case views.FlashMsg:
			flash = strings.Contains(m.Text, "bound viewer → p/ci/bot on org/p/ci")
		case views.ChangedMsg:
			changed = slices.Equal(m.Changes, []views.Change{views.ChangedIn("role bindings", "org/p/ci"), views.Changed("org/p/ci/bot")}) && m.Focus == "org/p/ci/b"
		}
	}
	if !flash || !changed {
		t.Errorf("flash %v changed %v: %v", flash, changed, f.other)
	}
}

func TestBindFromAGroupAsksIdentityThenRole(t *testing.T) {
	fk := &fake{}
	cfg := fk.config()
	cfg.Group = &Choice{UID: "org/p", Name: "platform"}
	f := start(t, cfg)
	if s := f.screen(); !strings.Contains(s, "Bind which identity on platform?") {
		t.Fatalf("identity picker:\n%s", s)
	}
	f.keys("a", "l", "i", "enter")
	if s := f.screen(); !strings.Contains(s, "Which role for alice on platform?") {
		t.Fatalf("role picker:\n%s", s)
	}
	f.keys("o", "w", "n", "enter", "y")
	if len(fk.calls) != 1 || fk.calls[0] != (call{"org/p", "org/alice", "r-owner"}) {
		t.Fatalf("calls %+v", fk.calls)
	}
}

func TestBulkBindShowsEachResult(t *testing.T) {
	fk := &fake{}
	cfg := fk.config()
	cfg.Identities = []Identity{{UID: "org/alice", Name: "alice", Group: "org"}, {UID: "org/gone", Name: "gone", Group: "org"}}
	cfg.Role = &Choice{UID: "r-viewer", Name: "viewer"}
	f := start(t, cfg)
	if s := f.screen(); !strings.Contains(s, "Bind viewer to 2 identities on which folder?") {
		t.Fatalf("group picker:\n%s", s)
	}
	f.keys("enter", "enter")
	s := f.screen()
	if !strings.Contains(s, "1 done, 1 failed") || !strings.Contains(s, "NOT_FOUND: identity org/gone does not exist") {
		t.Fatalf("results:\n%s", s)
	}
	if f.closed {
		t.Fatal("a failure closed the dialog before it was read")
	}
	f.keys("enter")
	if !f.closed {
		t.Error("enter did not close")
	}
}

func TestKeysTypedWhileLoadingAreKept(t *testing.T) {
	fk := &fake{}
	cfg := fk.config()
	cfg.Identities = []Identity{{UID: "org/alice", Name: "alice", Group: "org"}}
	m := New(context.Background(), views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, cfg)
	m.SetSize(90, 20)
	load := m.Init() // the roles are on their way
	m.Update(viewstest.Key("2"))
	f := &flow{m: m}
	f.run(load)
	if s := f.screen(); !strings.Contains(s, "Bind editor to alice on which folder?") {
		t.Fatalf("the 2 typed while loading was lost:\n%s", s)
	}
}

// Keys typed after a choice, before its message comes back (enter enter in
// one burst on the group picker), are for the next step: the second enter
// confirms.
func TestKeysAfterAChoiceGoToTheNextStep(t *testing.T) {
	fk := &fake{}
	cfg := fk.config()
	cfg.Identities = []Identity{{UID: "org/p/ci/bot", Name: "ci-bot", Group: "org/p/ci"}}
	f := start(t, cfg)
	f.keys("1")
	if s := f.screen(); !strings.Contains(s, "on which folder?") {
		t.Fatalf("group picker:\n%s", s)
	}
	chosen := f.m.Update(viewstest.Key("enter")) // the choice, not yet delivered
	confirm := f.m.Update(viewstest.Key("enter"))
	if confirm != nil {
		t.Fatalf("the second enter went to the old picker")
	}
	f.run(chosen)
	if len(fk.calls) != 1 || fk.calls[0] != (call{"org/p/ci", "org/p/ci/bot", "r-viewer"}) {
		t.Fatalf("calls %+v\n%s", fk.calls, f.screen())
	}
}

// TestFailedChoicesRetryWithR: when a picker's choices fail to load, the
// flow says r retries, and r loads them again keeping what was chosen.
func TestFailedChoicesRetryWithR(t *testing.T) {
	fk := &fake{}
	cfg := fk.config()
	cfg.Role = &Choice{UID: "r-viewer", Name: "viewer"}
	groups, fails := cfg.LoadGroups, 1
	cfg.LoadGroups = func(ctx context.Context) ([]picker.Option, error) {
		if fails > 0 { // the flow runs its commands one at a time here
			fails--
			return nil, errors.New("list groups: UNAVAILABLE: try again")
		}
		return groups(ctx)
	}
	f := start(t, cfg)
	f.keys("c", "i", "enter")
	s := f.screen()
	if !strings.Contains(s, "could not list the choices: list groups: UNAVAILABLE") || !strings.Contains(s, "r to retry") {
		t.Fatalf("the failure does not offer r:\n%s", s)
	}
	f.keys("r")
	if s := f.screen(); !strings.Contains(s, "Bind viewer to ci-bot on which folder?") || !strings.Contains(s, "platform/ci") {
		t.Fatalf("r did not load the choices again, keeping role and identity:\n%s", s)
	}
	f.keys("enter", "enter")
	if len(fk.calls) != 1 || fk.calls[0] != (call{"org/p/ci", "org/p/ci/bot", "r-viewer"}) {
		t.Fatalf("calls %+v", fk.calls)
	}
}

// TestBindOnARoleNamesIt: from a role, the identity picker names the role.
func TestBindOnARoleNamesIt(t *testing.T) {
	cfg := (&fake{}).config()
	cfg.Role = &Choice{UID: "r-viewer", Name: "viewer"}
	f := start(t, cfg)
	if s := f.screen(); !strings.Contains(s, "Bind viewer to which identity?") {
		t.Fatalf("identity picker:\n%s", s)
	}
}

// TestBulkBindUnmarksWhatWasBound: the identities bound are unmarked, the
// ones that failed are not.
func TestBulkBindUnmarksWhatWasBound(t *testing.T) {
	cfg := (&fake{}).config()
	cfg.Identities = []Identity{{UID: "org/alice", Name: "alice", Group: "org"}, {UID: "org/gone", Name: "gone", Group: "org"}}
	cfg.Role = &Choice{UID: "r-viewer", Name: "viewer"}
	f := start(t, cfg)
	f.keys("enter", "enter", "enter")
	var unmarked []string
	for _, msg := range f.other {
		if m, ok := msg.(views.UnmarkMsg); ok {
			unmarked = append(unmarked, m.UIDs...)
		}
	}
	if strings.Join(unmarked, " ") != "org/alice" {
		t.Errorf("unmarked %v, want only org/alice", unmarked)
	}
}

// Every key the flow offers does something at each step: while the
// choices load, in a picker, when they failed to load, in the
// confirmation; esc while loading closes the flow.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	fk := &fake{}
	cfg := fk.config()
	cfg.Role = &Choice{UID: "r-viewer", Name: "viewer"}
	groups, fails := cfg.LoadGroups, 1
	cfg.LoadGroups = func(ctx context.Context) ([]picker.Option, error) {
		if fails > 0 {
			fails--
			return nil, errors.New("list groups: UNAVAILABLE")
		}
		return groups(ctx)
	}
	m := New(context.Background(), views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, cfg)
	m.SetSize(90, 20)
	f := &flow{m: m}
	check := func(when string) {
		t.Helper()
		if u := keymap.Unbound(f.m.Actions()); len(u) > 0 {
			t.Errorf("%s: enabled without a Run: %v", when, u)
		}
	}
	load := m.Init()
	check("loading")
	f.run(load)
	check("the identity picker")
	f.keys("c", "i", "enter")
	if f.m.err == nil {
		t.Fatalf("the groups did not fail:\n%s", f.screen())
	}
	check("failed")
	f.keys("r")
	check("the group picker")
	f.keys("enter")
	if _, ok := f.m.inner.(*dialog.Model); !ok {
		t.Fatalf("no confirmation:\n%s", f.screen())
	}
	check("the confirmation")

	m = New(context.Background(), views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, fk.config())
	m.Init()
	m.Update(viewstest.Key("esc"))
	if !m.Closed() {
		t.Error("esc while loading did not close")
	}
}
