package search

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/filter"
	"canopy/views/viewstest"
)

// line is a filter line over n names, open.
func line(t *testing.T, n int) *Model {
	t.Helper()
	names := make([]string, n)
	rows := make([]int, n)
	for i := range names {
		names[i], rows[i] = fmt.Sprintf("name-%06d", i), i
	}
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	m := New(common, func() Snapshot { return func() Names { return Names{Primary: names, Rows: rows} } })
	viewstest.Drive(m.Open(), func(tea.Msg) bool { return false }, m.Update)
	return m
}

// burst types s with no answer delivered between keys, as keys queued
// behind one another reach Update, and returns the commands' messages
// and what the keys flashed.
func burst(m *Model, s string) (answers []tea.Msg, flashes []string) {
	for _, r := range s {
		for _, msg := range viewstest.Drive(m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}), func(tea.Msg) bool { return false }, m.Update) {
			switch msg := msg.(type) {
			case ResultMsg:
				answers = append(answers, msg)
			case views.FlashMsg:
				flashes = append(flashes, msg.Text)
			}
		}
	}
	return answers, flashes
}

// settle delivers answers, and the answers those bring, until none is left;
// it returns how many were delivered.
func settle(m *Model, answers []tea.Msg) int {
	n := 0
	for len(answers) > 0 {
		msg := answers[0]
		answers = answers[1:]
		n++
		answers = append(answers, viewstest.Drive(m.Update(msg), func(tea.Msg) bool { return false }, m.Update)...)
	}
	return n
}

// A burst of keys runs the filter once for its first key and once for the
// last state, whatever its length (it ran once per key, each over every
// row, and the runs queued up behind one another).
func TestABurstOfKeysRunsTheFilterTwice(t *testing.T) {
	for _, n := range []int{10, 100, 900} {
		m := line(t, 10_000)
		answers, _ := burst(m, strings.Repeat("1", n))
		if m.runs != 1 || len(answers) != 1 {
			t.Fatalf("%d keys: %d runs, %d answers before any answer was taken, want 1", n, m.runs, len(answers))
		}
		if !m.Pending() {
			t.Errorf("%d keys: the query typed is not pending", n)
		}
		settle(m, answers)
		if m.runs != 2 {
			t.Errorf("%d keys: %d runs, want 2 (the first key's, then the last state's)", n, m.runs)
		}
		if m.Pending() || m.shown.Pattern != strings.Repeat("1", n) {
			t.Errorf("%d keys: the answer shown is for %q (pending %v)", n, m.shown.Pattern, m.Pending())
		}
	}
}

// Keys typed while a run is going on wait for it; each answer starts the
// next run for the query then typed, and the last answer is the last
// query's.
func TestKeysWhileRunningRunOnceTheRunningAnswers(t *testing.T) {
	m := line(t, 10_000)
	answers, _ := burst(m, "00")
	for _, s := range []string{"1", "2", "3"} {
		more, _ := burst(m, s)
		answers = append(answers, more...)
	}
	if m.runs != 1 {
		t.Fatalf("%d runs before an answer came, want 1", m.runs)
	}
	settle(m, answers)
	if m.runs != 2 || m.shown.Pattern != "00123" {
		t.Errorf("%d runs, shown %q; want 2 runs, 00123", m.runs, m.shown.Pattern)
	}
	want, _, err := Run(context.Background(), filter.ParseQuery("00123"), m.Names(), Narrowing{})
	if err != nil || !slices.Equal(m.Matches(), want) {
		t.Errorf("the matches shown are not those of 00123: %v, want %v (%v)", m.Matches(), want, err)
	}
	// Erased while running: nothing more runs, nothing is shown.
	answers, _ = burst(m, "4")
	m.input.SetValue("")
	answers = append(answers, viewstest.Drive(m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace}), func(tea.Msg) bool { return false }, m.Update)...)
	runs := m.runs
	settle(m, answers)
	if m.runs != runs {
		t.Errorf("a run started for an empty query")
	}
}

// The line takes at most InputMax characters: the next is refused at
// once, and said once, however many follow; a key after room is made is
// taken again.
func TestTheFilterTakesAtMostInputMax(t *testing.T) {
	m := line(t, 1000)
	answers, flashes := burst(m, strings.Repeat("x", views.InputMax))
	if len(flashes) != 0 {
		t.Fatalf("flashed before the limit: %q", flashes)
	}
	_, flashes = burst(m, strings.Repeat("y", 5000))
	if got := m.input.Value(); got != strings.Repeat("x", views.InputMax) {
		t.Errorf("the line holds %d characters, %d of them y", len(got), strings.Count(got, "y"))
	}
	want := "the filter takes at most 1,000 characters: the rest was not typed"
	if len(flashes) != 1 || flashes[0] != want {
		t.Errorf("flashes %q, want once %q", flashes, want)
	}
	settle(m, answers)
	viewstest.Drive(m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace}), func(tea.Msg) bool { return false }, m.Update)
	_, flashes = burst(m, "zz")
	if v := m.input.Value(); !strings.HasSuffix(v, "xz") || len(flashes) != 1 {
		t.Errorf("after backspace: ends %q, flashes %q", v[len(v)-3:], flashes)
	}
}

// Rows removed from a filtered list leave its matches at once, and the
// rows after them move up.
func TestRemovedTakesRowsOutOfTheMatches(t *testing.T) {
	m := &Model{matches: []int{0, 1, 2, 3}, names: Names{Primary: []string{"a", "b", "c", "d"}, Rows: []int{10, 11, 12, 13}}}
	m.Removed([]int{11, 3})
	if got, want := m.matches, []int{0, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("matches %v, want %v", got, want)
	}
	if got, want := m.names.Rows, []int{9, -1, 10, 11}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}

// TestExtendingNarrowsBothTiers: an extended pattern searches only the
// last answer's matches, on the names and on the other columns, and finds
// exactly what a search of every row finds.
func TestExtendingNarrowsBothTiers(t *testing.T) {
	names := Names{Primary: make([]string, 5000), Secondary: make([]string, 5000)}
	for i := range names.Primary {
		names.Primary[i] = fmt.Sprintf("tag-%04d", i)
		names.Secondary[i] = fmt.Sprintf("sha256:%08x repo-%d", i*2654435761%(1<<32), i%37)
	}
	ctx := context.Background()
	_, prev, err := Run(ctx, filter.ParseQuery("re"), names, Narrowing{})
	if err != nil || prev.Secondary.Total != len(names.Secondary) {
		t.Fatalf("no result on the other columns to narrow from: %+v, %v", prev.Secondary.Query, err)
	}
	for _, p := range []string{"rep", "repo-3", "repo-33"} {
		narrowed, next, err := Run(ctx, filter.ParseQuery(p), names, prev)
		whole, _, err2 := Run(ctx, filter.ParseQuery(p), names, Narrowing{})
		if err != nil || err2 != nil || !slices.Equal(narrowed, whole) {
			t.Fatalf("%s narrowed: %d matches, every row: %d (%v, %v)", p, len(narrowed), len(whole), err, err2)
		}
		prev = next
	}
}

// TestRefreshesWhileRowsPourInAreShown: rows arriving faster than a
// refresh takes (a scan) do not cancel the refresh going on: its answer is
// shown, then one more refresh runs over the rows as they are by then.
func TestRefreshesWhileRowsPourInAreShown(t *testing.T) {
	n := 100
	names := func() Names {
		out := Names{Primary: make([]string, n), Rows: make([]int, n)}
		for i := range n {
			out.Primary[i], out.Rows[i] = fmt.Sprintf("name-%06d", i), i
		}
		return out
	}
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	m := New(common, func() Snapshot { return names })
	viewstest.Drive(m.Open(), func(tea.Msg) bool { return false }, m.Update)
	answers, _ := burst(m, "name-0001")
	settle(m, answers)
	first := len(m.Matches())
	n = 300 // a page came: rows 100-299
	running := m.Refresh(-1)
	n = 500 // and another, while the first refresh runs
	if again := m.Refresh(-1); again != nil {
		t.Fatal("a second refresh started while one runs")
	}
	due := m.Update(running())
	if got := len(m.Matches()); got <= first {
		t.Fatalf("the refresh's answer was not shown: %d matches, %d before", got, first)
	}
	settle(m, viewstest.Drive(due, func(tea.Msg) bool { return false }, m.Update))
	if got := len(m.Names().Primary); got != 500 {
		t.Errorf("the refresh due after it did not run over all 500 rows: %d names", got)
	}
}

// Both keys of the open line do something: empty, with a pattern typed,
// once answered; enter keeps the pattern, and esc drops it.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	m := line(t, 100)
	check := func(when string) {
		t.Helper()
		if u := keymap.Unbound(m.Actions()); len(u) > 0 {
			t.Errorf("%s: enabled without a Run: %v", when, u)
		}
	}
	check("empty")
	answers, _ := burst(m, "42")
	check("typed")
	settle(m, answers)
	check("answered")
	m.Update(viewstest.Key("enter"))
	if m.typing || m.query.Pattern != "42" || len(m.Matches()) == 0 {
		t.Errorf("enter: typing %v, pattern %q, %d matches", m.typing, m.query.Pattern, len(m.Matches()))
	}
	m.Open()
	check("open again")
	m.Update(viewstest.Key("esc"))
	if m.typing || !m.query.IsEmpty() || m.Matches() != nil {
		t.Errorf("esc: typing %v, pattern %q, matches %v", m.typing, m.query.Pattern, m.Matches())
	}
	m.Open()
	m.Update(viewstest.Key("enter"))
	if m.typing || !m.query.IsEmpty() {
		t.Errorf("enter on nothing typed: typing %v, pattern %q", m.typing, m.query.Pattern)
	}
}
