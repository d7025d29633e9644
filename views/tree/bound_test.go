package tree

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/viewstest"
)

// unbound is what the tree lists as enabled but cannot run, the keys of
// its filter line and editor included.
func unbound(m *Model) []keymap.Action { return keymap.Unbound(m.Actions()) }

// everyAction gives m every optional action a tree can have.
func everyAction(m *Model) {
	m.cfg.Open = func(*Node) tea.Cmd { return nil }
	m.cfg.Table = func(*Node) tea.Cmd { return nil }
	m.cfg.Deprecated = func(*Node) tea.Cmd { return nil }
	m.cfg.Advisories = func(*Node) tea.Cmd { return nil }
	m.cfg.Bind = func(*Node) tea.Cmd { return nil }
	m.cfg.New = func(*Node) tea.Cmd { return nil }
	m.cfg.Delete = func(*Node) tea.Cmd { return nil }
	m.cfg.Copy = func(n *Node) (string, string) { return n.ID, "uid" }
	m.cfg.CopyRef = func(n *Node) (string, string) { return "ref:" + n.ID, "reference" }
	m.cfg.Search = func(string) tea.Cmd { return nil }
	m.cfg.Edit = func(n *Node) *form.Config {
		if n.Item == nil {
			return nil
		}
		return &form.Config{Title: "edit", Fields: []form.Field{{Key: "name", Label: "name", Value: string(n.Label)}}}
	}
}

// Every enabled key of the tree runs something, on every row and whatever
// it shows: what it lists and what it does are one value.
func TestEveryEnabledActionRuns(t *testing.T) {
	// check looks at the row under the cursor; checkRows at every row,
	// then puts the cursor back.
	check := func(t *testing.T, m *Model, where string) {
		t.Helper()
		if got := unbound(m); len(got) > 0 {
			on := "nothing"
			if n := m.Selected(); n != nil {
				on = string(n.Label)
			}
			t.Errorf("%s, on %s (line %d): enabled without a Run: %v", where, on, m.cursor, got)
		}
	}
	checkRows := func(t *testing.T, m *Model, where string) {
		t.Helper()
		was := m.cursor
		for i := range m.lineCount() {
			m.cursor = i
			m.clamp()
			check(t, m, where)
		}
		m.cursor = was
		m.clamp()
	}

	empty := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{})
	empty.SetSize(50, 10)
	drive(empty, empty.Init())
	check(t, empty, "an empty tree")

	m, src, _ := fixture(t, 450)
	checkRows(t, m, "plain")
	everyAction(m)
	checkRows(t, m, "every action")
	press(m, "j", "l")
	checkRows(t, m, "repos expanded")
	m.common.ReadOnly = true
	checkRows(t, m, "read-only")
	m.common.ReadOnly = false

	src.fail.Store(true)
	press(m, "G")
	check(t, m, "a failed page")
	src.fail.Store(false)
	press(m, "g")

	press(m, "/")
	check(t, m, "filter line open")
	typeIn(m, "0123")
	check(t, m, "typing")
	if st, ok := keymap.Find(m.Actions(), keymap.ServerFilter); !ok || !st.Enabled {
		t.Errorf("the server filter is not offered while typing: %+v", st)
	}
	press(m, "enter")
	checkRows(t, m, "filter kept")
	// With a filter kept, the keys that act on the tree's shape say why
	// they wait (not that they do not apply), and Y still copies.
	for _, a := range []keymap.Action{keymap.Table, keymap.Bind, keymap.Edit, keymap.Delete, keymap.Page} {
		if st, ok := keymap.Find(m.Actions(), a); !ok || st.Enabled || !strings.Contains(st.Reason, "clear the filter") {
			t.Errorf("%v with a filter kept: %+v (found %v)", a, st, ok)
		}
	}
	if st, ok := keymap.Find(m.Actions(), keymap.CopyRef); !ok || !st.Enabled {
		t.Errorf("Y with a filter kept: %+v (found %v)", st, ok)
	}
	press(m, "esc", "/")
	typeIn(m, "zzz")
	press(m, "enter")
	check(t, m, "filter matching nothing")
	press(m, "esc")

	press(m, "g", "j", "j") // the first repo
	if press(m, "e"); !m.editing() {
		t.Fatalf("e did not edit %s", m.Selected().Label)
	}
	check(t, m, "editing")
	// esc ends the editor at once: the next key is the tree's.
	if m.Update(viewstest.Key("esc")); m.editing() || m.TakesText() {
		t.Fatal("the editor still takes keys after esc, until its ClosedMsg comes")
	}
	press(m, "e")

	// Folders and repos (whose tags can be flagged), loaded and loading.
	n := nested(t)
	everyAction(n)
	checkRows(t, n, "nested")
	press(n, "j")
	loading := n.Update(viewstest.Key("l"))
	checkRows(t, n, "loading")
	drive(n, loading)
	press(n, "G")
	checkRows(t, n, "nested, expanded")
}
