package table

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/safe"
	"canopy/views"
	"canopy/views/search"
)

// typeUnanswered types s into the open filter line and returns the
// answers of its keys, not yet delivered: the first key's run (the keys
// after it wait for that run to answer, then run once, for the last).
func typeUnanswered(m *Model[row], s string) []tea.Msg {
	var answer []tea.Msg
	for _, r := range s {
		answer = append(answer, drive(m, m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}))...)
	}
	return answer
}

func deliver(m *Model[row], msgs []tea.Msg) {
	for _, msg := range msgs {
		driveFilter(m, func() tea.Msg { return msg })
	}
}

func TestOpenBeforeTheAnswerOpensTheBestMatch(t *testing.T) {
	var opened string
	m, _ := newTable(t, 1000, &opened)
	press(m, "/")
	answer := typeUnanswered(m, "0099")
	press(m, "enter", "enter")
	if opened != "" {
		t.Fatalf("enter opened %q before the filter answered", opened)
	}
	deliver(m, answer)
	if opened != "name-00099" {
		t.Errorf("opened %q when the answer came, want the best match name-00099", opened)
	}

	// A key after the open drops it: the user has moved on.
	opened = ""
	press(m, "esc", "/")
	answer = typeUnanswered(m, "0098")
	press(m, "enter", "enter", "j")
	deliver(m, answer)
	if opened != "" {
		t.Errorf("opened %q although j came after enter", opened)
	}

	// Nothing to open: say so.
	press(m, "esc", "/")
	answer = typeUnanswered(m, "zzz")
	press(m, "enter", "enter")
	var flashes []string
	for len(answer) > 0 {
		msg := answer[0]
		answer = answer[1:]
		for _, out := range drive(m, m.Update(msg)) {
			switch out := out.(type) {
			case views.FlashMsg:
				flashes = append(flashes, out.Text)
			case search.ResultMsg: // the run put off until the first answered
				answer = append(answer, out)
			}
		}
	}
	if opened != "" || !strings.Contains(strings.Join(flashes, "\n"), "nothing matches /zzz to open") {
		t.Errorf("opened %q, flashes %q", opened, flashes)
	}
}

func TestAPageArrivingWhileFilteredKeepsTheCursorOnItsRow(t *testing.T) {
	m, _ := newTable(t, 1000, nil)
	press(m, "/")
	typeAndSettle(m, "9")
	press(m, "enter", "j", "j", "j")
	on, _ := m.Selected()
	if !strings.Contains(screen(m), "filtering 200 of 1,000 loaded") {
		t.Fatalf("the test needs a table loaded in part:\n%s", screen(m))
	}
	driveFilter(m, m.cfg.List.Ensure(400, 12))
	if !strings.Contains(screen(m), "of 1,000 loaded") || strings.Contains(screen(m), "filtering 200 of") {
		t.Fatalf("no page arrived:\n%s", screen(m))
	}
	if now, _ := m.Selected(); now == nil || now.name != on.name {
		t.Errorf("after a page the cursor is on %+v, want %s\n%s", now, on.name, screen(m))
	}
}

// `/!x` keeps exactly the rows `/x` leaves out, and `/re:` looks at the
// same columns as the fuzzy filter.
func TestInverseAndRegexpSearchTheSameColumns(t *testing.T) {
	m, _ := newTable(t, 200, nil)
	m.cfg.Columns[1] = Column[row]{Title: "ALIAS", Width: 8, Search: true, Cell: func(r *row) safe.Text {
		if r.uid == "u30" {
			return "zeta"
		}
		return ""
	}}
	count := func(q string) int {
		press(m, "esc", "/")
		typeAndSettle(m, q)
		return len(m.search.Matches())
	}
	if n := count("zeta"); n != 1 {
		t.Errorf("/zeta keeps %d rows, want the one whose alias matches", n)
	}
	if n := count("!zeta"); n != 199 {
		t.Errorf("/!zeta keeps %d rows, want 199", n)
	}
	if n := count("re:^ze"); n != 1 {
		t.Errorf("/re:^ze keeps %d rows, want 1", n)
	}
	both := count("15")
	if n := count("!15"); n+both != 200 || both == 0 || n == 0 {
		t.Errorf("/15 keeps %d and /!15 %d of 200 rows", both, n)
	}
}

// The filter line's input fits beside a long count: no ellipsis after
// its blanks.
func TestFilterLineIsNotCutBesideALongCount(t *testing.T) {
	m, _ := newTable(t, 1000, nil)
	m.SetSize(120, 12)
	press(m, "/")
	typeAndSettle(m, "33df48")
	lines := strings.Split(screen(m), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "/33df48 ") || strings.Contains(last, m.common.Theme.Glyphs.Ellipsis) {
		t.Errorf("filter line %q", last)
	}
}

// A column cut in the middle keeps the ends that tell rows apart.
func TestMiddleColumnKeepsTheEnds(t *testing.T) {
	m, _ := newTable(t, 20, nil)
	m.cfg.Columns[0].Middle = true
	m.cfg.Columns[0].Cell = func(r *row) safe.Text {
		return safe.Text("sha256-f3fb216ee0b3db80ef185a7c01e2adc9f3fb216ee0b3db80ef185a7c01e2adc9-" + r.name)
	}
	m.SetSize(60, 12)
	s := screen(m)
	if !strings.Contains(s, "name-00000") || !strings.Contains(s, "name-00001") || !strings.Contains(s, "sha256-f3fb") {
		t.Errorf("the ends are not both shown:\n%s", s)
	}
}

// A sorted column narrower than its title and the mark widens to show both
// whole, apart ("UPDATED v", not "UPDAT v" nor "vUPDATED").
func TestNarrowSortedColumnKeepsItsMark(t *testing.T) {
	m, _ := newTable(t, 20, nil)
	m.cfg.Columns = append(m.cfg.Columns, Column[row]{Title: "UPDATED", Width: 7, Right: true, Order: "update_time",
		Cell: func(*row) safe.Text { return "3d" }})
	m.cfg.Orders = append(m.cfg.Orders, Order{Label: "recently updated", OrderBy: "update_time desc"})
	m.SetSize(60, 12)
	press(m, "s", "s")
	if s := screen(m); !strings.Contains(s, " UPDATED v") || strings.Contains(s, "vUPDATED") {
		t.Errorf("no mark on UPDATED, or glued to it:\n%s", s)
	}
}

// A page that arrives before the keystroke's answer overtakes it: the
// cursor goes to the best match, as for the keystroke's own answer.
func TestRefreshThatOvertakesAKeystrokeGoesToTheBestMatch(t *testing.T) {
	m, _ := newTable(t, 1000, nil)
	for range 150 {
		press(m, "j")
	}
	press(m, "/")
	answer := typeUnanswered(m, "00")
	driveFilter(m, m.cfg.List.Ensure(400, 12))
	deliver(m, answer) // late: dropped
	if m.Cursor() != 0 {
		t.Errorf("cursor at %d, want the best match (0)\n%s", m.Cursor(), screen(m))
	}
}
