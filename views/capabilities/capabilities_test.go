package capabilities

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/text"
	"canopy/theme"
	"canopy/views"
	"canopy/views/viewstest"
)

func options() []Option {
	return []Option{
		{Name: "CAP_IAM_IDENTITY_CREATE", Short: "identity.create", Domain: "identities", Allows: "create identities"},
		{Name: "CAP_IAM_IDENTITY_LIST", Short: "identity.list", Domain: "identities", Allows: "see identities"},
		{Name: "CAP_REPO_LIST", Short: "repo.list", Domain: "registry: repos", Allows: "see registry repos"},
		{Name: "CAP_REPO_BLOBS_GET", Short: "repo.blobs.get", Domain: "registry: repos", Allows: "download image layers: needed to pull"},
		{Name: "CAP_TAG_LIST", Short: "tag.list", Domain: "registry: tags", Allows: "see tags"},
		{Name: "CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_CREATE", Short: "libraries.aws_marketplace.subscriptions.create",
			Domain: "libraries", Allows: "create AWS Marketplace subscriptions of the organization's libraries, a long line"},
	}
}

// taken is what Accept was given, as a message.
type taken []string

func picker(chosen []string, atLeast, w, h int) *Model {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{
		Title: "Capabilities of the new role", Options: options(), Chosen: chosen, AtLeast: atLeast,
		Accept: func(c []string) tea.Cmd { return func() tea.Msg { return taken(c) } }})
	m.SetSize(w, h)
	m.Init()
	return m
}

func press(m *Model, keys ...string) tea.Msg {
	var last tea.Msg
	for _, k := range keys {
		if cmd := m.Update(viewstest.Key(k)); cmd != nil {
			last = cmd()
		}
	}
	return last
}

// The list is grouped by domain, in the options' order, each header
// counting what is chosen of its domain; a chosen one is boxed [x].
func TestGroupedByDomainWithCounts(t *testing.T) {
	m := picker([]string{"CAP_IAM_IDENTITY_LIST"}, 1, 100, 20)
	v := ansi.Strip(m.View())
	for _, want := range []string{"Capabilities of the new role", "1 chosen of 6", "IDENTITIES  1/2", "[ ] identity.create",
		"[x] identity.list", "REGISTRY: REPOS  0/2", "REGISTRY: TAGS  0/1", "LIBRARIES  0/1", "see identities"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in:\n%s", want, v)
		}
	}
	if strings.Index(v, "IDENTITIES") > strings.Index(v, "REGISTRY: REPOS") || strings.Index(v, "identity.create") > strings.Index(v, "identity.list") {
		t.Errorf("not in the options' order:\n%s", v)
	}
}

// Typing narrows fuzzily by name or domain; the headers of domains with
// nothing shown go, and the count says how many show. esc clears the
// filter first, then closes.
func TestFilterNarrowsByNameOrDomain(t *testing.T) {
	m := picker(nil, 1, 100, 20)
	press(m, "r", "e", "p", "o")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "repo.list") || !strings.Contains(v, "repo.blobs.get") || strings.Contains(v, "identity.list") ||
		strings.Contains(v, "IDENTITIES") || !strings.Contains(v, "shown in") {
		t.Fatalf("filtered by repo:\n%s", v)
	}
	m.Update(viewstest.Key("esc"))
	m.Update(viewstest.Key("esc")) // closes nothing yet: one esc cleared the filter
	if !m.Closed() {
		t.Fatalf("the second esc did not close")
	}
	m = picker(nil, 1, 100, 20)
	press(m, "t", "a", "g", "s")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "tag.list") || strings.Contains(v, "repo.list") {
		t.Errorf("filtered by the domain's word:\n%s", v)
	}
	if m.Closed() {
		t.Errorf("typing closed it")
	}
	press(m, "z", "z", "z")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "nothing matches the filter") {
		t.Errorf("no match said:\n%s", v)
	}
	if st, _ := keymap.Find(m.Actions(), keymap.Mark); st.Enabled {
		t.Errorf("space offered on nothing")
	}
}

// Space chooses and drops the option under the cursor, whatever the
// filter; enter gives back every one chosen, in the options' order,
// hidden by the filter or not.
func TestSpaceTogglesAndEnterTakesAllChosen(t *testing.T) {
	m := picker([]string{"CAP_TAG_LIST"}, 1, 100, 20)
	press(m, "space")                  // identity.create
	press(m, "down", "space", "space") // identity.list, chosen and dropped
	press(m, "t", "a", "g")
	press(m, "esc")
	press(m, "r", "e", "p", "o", ".", "b")
	press(m, "space")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "[x] repo.blobs.get") || !strings.Contains(v, "3 chosen of 6") {
		t.Fatalf("after the toggles:\n%s", v)
	}
	msg := press(m, "enter")
	want := taken{"CAP_IAM_IDENTITY_CREATE", "CAP_REPO_BLOBS_GET", "CAP_TAG_LIST"}
	if got, ok := msg.(taken); !ok || !slices.Equal(got, want) || !m.Closed() {
		t.Errorf("enter gave %v (closed %v), want %v", msg, m.Closed(), want)
	}
}

// Fewer than AtLeast chosen: enter is offered disabled, with why.
func TestEnterNeedsTheFewestChosen(t *testing.T) {
	m := picker(nil, 1, 100, 20)
	st, _ := keymap.Find(m.Actions(), keymap.Accept)
	if st.Enabled || !strings.Contains(st.Reason, "choose one at least") || !strings.Contains(st.Reason, "space") {
		t.Fatalf("enter with none chosen: %+v", st)
	}
	if msg := press(m, "enter"); msg == nil || m.Closed() {
		t.Fatalf("enter with none chosen: %v, closed %v", msg, m.Closed())
	}
	press(m, "space")
	if st, _ := keymap.Find(m.Actions(), keymap.Accept); !st.Enabled {
		t.Errorf("enter still off with one chosen: %+v", st)
	}
}

// At 80 columns every line fits, a long name is cut in its middle (its
// verb shows), and the list scrolls with the cursor, the header of its
// domain shown with the domain's first.
func TestEightyColumnsAndScrolling(t *testing.T) {
	m := picker(nil, 1, 80, 8)
	for _, l := range strings.Split(m.View(), "\n") {
		if w := text.Width(l); w != 80 {
			t.Errorf("a line is %d cells wide: %q", w, ansi.Strip(l))
		}
	}
	press(m, "down", "down", "down", "down", "down")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "LIBRARIES") || !strings.Contains(v, ".create") || !strings.Contains(v, "libraries.aws") {
		t.Errorf("scrolled to the last:\n%s", v)
	}
	if n := len(strings.Split(v, "\n")); n != 8 {
		t.Errorf("%d lines, want 8", n)
	}
	if unbound := keymap.Unbound(m.Actions()); len(unbound) > 0 {
		t.Errorf("offered and doing nothing: %v", unbound)
	}
}
