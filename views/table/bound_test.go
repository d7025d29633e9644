package table

import (
	"context"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/search"
	"canopy/views/viewstest"
)

// unbound is what the table lists as enabled but cannot run, the keys of
// its filter line and editor included.
func unbound(m *Model[row]) []keymap.Action { return keymap.Unbound(m.Actions()) }

// everyAction gives m every optional action a table can have.
func everyAction(m *Model[row]) {
	m.cfg.CopyRef = func(r *row) (string, string) { return "ref:" + r.uid, "reference" }
	m.cfg.Bind = func([]*row) tea.Cmd { return nil }
	m.cfg.Advisories = func(*row) tea.Cmd { return nil }
	m.cfg.Page = func(*row) tea.Cmd { return nil }
	m.cfg.New = func() tea.Cmd { return nil }
	m.cfg.Edit = func(r *row) *form.Config {
		return &form.Config{Title: "edit", Fields: []form.Field{{Key: "name", Label: "name", Value: r.name}}}
	}
	m.cfg.Off = []keymap.State{keymap.Off(keymap.Table, "rows have no children")}
}

// Every enabled key of a table runs something, whatever it shows: what it
// lists and what it does are one value.
func TestEveryEnabledActionRuns(t *testing.T) {
	check := func(t *testing.T, m *Model[row], where string) {
		t.Helper()
		if got := unbound(m); len(got) > 0 {
			t.Errorf("%s: enabled without a Run: %v", where, got)
		}
	}

	var opened string
	m, _ := newTable(t, 1000, &opened)
	check(t, m, "plain")
	press(m, "G")
	check(t, m, "at the bottom")

	closed, _ := newTable(t, 10, nil)
	check(t, closed, "without open")

	empty, _ := newTable(t, 0, &opened)
	check(t, empty, "empty")

	press(m, "g", "/")
	check(t, m, "filter line open")
	typeAndSettle(m, "0099")
	check(t, m, "typing")
	press(m, "enter")
	check(t, m, "filter kept")
	press(m, "esc", "/")
	typeAndSettle(m, "zzz")
	press(m, "enter")
	check(t, m, "filter matching nothing")
	press(m, "esc")

	// Marks, the flagged rows only, a filter among them.
	tr, _ := triageTable(t, 100)
	everyAction(tr)
	check(t, tr, "every action")
	press(tr, "space")
	check(t, tr, "a row marked")
	press(tr, "D")
	for !tr.cfg.List.Done() {
		driveBatched(tr, tr.cfg.List.Scan(scanParallel))
	}
	check(t, tr, "flagged only")
	press(tr, "V")
	check(t, tr, "flagged marked")
	press(tr, "esc", "/")
	typeAndSettle(tr, "9")
	press(tr, "enter")
	check(t, tr, "filter among the flagged")

	tr.common.ReadOnly = true
	check(t, tr, "read-only")
	tr.common.ReadOnly = false

	press(tr, "esc", "esc", "e")
	if !tr.editing() {
		t.Fatal("e did not edit the row")
	}
	check(t, tr, "editing")
	// esc ends the editor at once: a key typed right after it (`:` for
	// the command line) is the table's, before the editor's ClosedMsg.
	if tr.Update(viewstest.Key("esc")); tr.editing() || tr.TakesText() {
		t.Fatal("the editor still takes keys after esc, until its ClosedMsg comes")
	}

	// Hidden rows shown, and a server filter offered, then in force.
	h, _ := hiddenTable(t, false)
	driveAll(h, h.Update(viewstest.Key("H")))
	check(t, h, "hidden rows shown")

	src := &source{n: 5000}
	s, _ := newTable(t, 10, nil)
	s.cfg.List = paging.New(context.Background(), src.list, func(r *row) string { return r.uid })
	drive(s, s.Init())
	s.cfg.Server = &ServerFilter[row]{
		Chip: func(p string) string { return `name = "` + p + `"` },
		List: func(string) *paging.List[row] {
			one := &source{n: 1}
			return paging.New(context.Background(), one.list, func(r *row) string { return r.uid })
		},
	}
	press(s, "/")
	typeAndSettle(s, "name-04999")
	if _, ok := keymap.Find(s.Actions(), keymap.ServerFilter); !ok {
		t.Fatal("the server filter is not offered")
	}
	check(t, s, "server filter offered")
	press(s, "enter")
	check(t, s, "server filter offered, filter kept")
	press(s, "ctrl+s")
	if s.chip == "" {
		t.Fatal("ctrl+s did not filter on the server")
	}
	check(t, s, "server filter in force")
}

// An open held while the filter answers, in a table whose rows open
// nothing, says why as enter would (it must not call a nil Open).
func TestHeldOpenWithoutOpenSaysWhy(t *testing.T) {
	m, _ := newTable(t, 1000, nil)
	press(m, "/")
	answer := typeUnanswered(m, "0099")
	press(m, "enter", "enter")
	var got []tea.Msg
	for len(answer) > 0 {
		msg := answer[0]
		answer = answer[1:]
		for _, out := range drive(m, m.Update(msg)) {
			if r, ok := out.(search.ResultMsg); ok { // the run put off until the first answered
				answer = append(answer, r)
				continue
			}
			got = append(got, out)
		}
	}
	want := views.FlashMsg{Text: "rows have nothing inside", Error: true}
	if !slices.Contains(got, tea.Msg(want)) {
		t.Errorf("a held open with nothing to open gave %v, want %v", got, want)
	}
}
