package table

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/safe"
	"canopy/views/paging"
	"canopy/views/search"
)

func typeText(m *Model[row], s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, drive(m, m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}))...)
	}
	return out
}

// driveFilter runs commands and feeds pages and filter results back.
func driveFilter(m *Model[row], cmd tea.Cmd) {
	var queue []tea.Msg
	queue = append(queue, drive(m, cmd)...)
	for len(queue) > 0 {
		msg := queue[0]
		queue = queue[1:]
		if r, ok := msg.(search.ResultMsg); ok {
			queue = append(queue, drive(m, m.Update(r))...)
		}
	}
}

func typeAndSettle(m *Model[row], s string) {
	for _, r := range s {
		driveFilter(m, m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}))
	}
}

func TestFilterNarrowsHighlightsAndKeeps(t *testing.T) {
	m, _ := newTable(t, 1000, nil)
	press(m, "j", "j", "j", "j", "j") // on name-00005
	press(m, "/")
	if !m.TakesText() {
		t.Fatal("/ did not open the filter line")
	}
	typeAndSettle(m, "0099")
	s := screen(m)
	// name-00099 is the best match (contiguous); name-0099x follow.
	if first := strings.Fields(strings.Split(s, "\n")[1])[0]; first != "name-00099" {
		t.Errorf("best match first: got %q\n%s", first, s)
	}
	if !strings.Contains(s, "/0099") || !strings.Contains(s, "/200 · filtering 200 of 1,000 loaded") {
		t.Errorf("filter line:\n%s", s)
	}
	if !strings.Contains(m.View(), "\x1b[") || !strings.Contains(m.View(), "4;") && !strings.Contains(m.View(), ";4") {
		t.Errorf("matched letters are not marked")
	}
	press(m, "enter")
	if m.TakesText() {
		t.Fatal("enter did not return to navigation")
	}
	press(m, "j")
	if it, _ := m.Selected(); it.name == "name-00099" {
		t.Error("j did not move within the matches")
	}
	// esc clears and puts the cursor on the row it was on in the filter.
	sel, _ := m.Selected()
	press(m, "esc")
	if it, _ := m.Selected(); it.name != sel.name || strings.Contains(screen(m), "/0099") {
		t.Errorf("after esc the cursor is on %s, want %s", it.name, sel.name)
	}
}

func TestFilterCancelRestoresCursor(t *testing.T) {
	m, _ := newTable(t, 300, nil)
	press(m, "j", "j", "j")
	press(m, "/")
	typeAndSettle(m, "9")
	press(m, "esc")
	if it, _ := m.Selected(); it.name != "name-00003" {
		t.Errorf("cancelling the filter left the cursor on %s", it.name)
	}
}

func TestInverseAndRegexp(t *testing.T) {
	m, _ := newTable(t, 200, nil)
	press(m, "/")
	typeAndSettle(m, "re:00(0|1)5$")
	if s := screen(m); !strings.Contains(s, "name-00005") || !strings.Contains(s, "name-00015") || !strings.Contains(s, "2/200") {
		t.Errorf("regexp filter:\n%s", s)
	}
	press(m, "esc", "/")
	typeAndSettle(m, "!1")
	s := screen(m)
	if strings.Contains(s, "name-00001 ") || !strings.Contains(s, "name-00000") {
		t.Errorf("inverse filter:\n%s", s)
	}
	press(m, "esc", "/")
	typeAndSettle(m, "re:(")
	if s := screen(m); !strings.Contains(s, "invalid regular expression") {
		t.Errorf("a bad regexp is not explained:\n%s", s)
	}
}

func TestStaleFilterResultsAreDropped(t *testing.T) {
	m, _ := newTable(t, 500, nil)
	press(m, "/")
	first := m.Update(tea.KeyPressMsg{Code: '1', Text: "1"})
	second := m.Update(tea.KeyPressMsg{Code: '2', Text: "2"})
	// The answer to "12" arrives, then the late answer to "1".
	driveFilter(m, second)
	driveFilter(m, first)
	if s := screen(m); !strings.Contains(s, "/12") || strings.Contains(s, "name-00001 ") {
		t.Errorf("the late answer for \"1\" replaced \"12\":\n%s", s)
	}
}

func TestServerFilterChip(t *testing.T) {
	src := &source{n: 5000}
	m, _ := newTable(t, 10, nil)
	m.cfg.List = paging.New(context.Background(), src.list, func(r *row) string { return r.uid })
	drive(m, m.Init())
	var asked string
	m.cfg.Server = &ServerFilter[row]{
		Chip: func(p string) string { return `name = "` + p + `"` },
		List: func(p string) *paging.List[row] {
			asked = p
			one := &source{n: 1}
			return paging.New(context.Background(), one.list, func(r *row) string { return r.uid })
		},
	}
	press(m, "/")
	typeAndSettle(m, "name-04999")
	if s := screen(m); !strings.Contains(s, `ctrl+s: server name = "name-04999"`) {
		t.Fatalf("the server filter is not offered:\n%s", s)
	}
	driveFilter(m, m.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}))
	if asked != "name-04999" || !strings.Contains(string(m.Title()), `[name = "name-04999"]`) {
		t.Fatalf("asked %q, title %q", asked, m.Title())
	}
	if s := screen(m); !strings.Contains(s, "1 of 1") {
		t.Errorf("server-filtered list:\n%s", s)
	}
	press(m, "esc")
	if strings.Contains(string(m.Title()), "[") || !strings.Contains(screen(m), "5,000") {
		t.Errorf("esc did not remove the chip: %q\n%s", m.Title(), screen(m))
	}
}

// TestOtherColumnsFollowTheNameMatches: a keystroke is answered first with
// the rows whose name matches; the rows that match only on another column
// come in a second result, below them, and leave the cursor where the user
// put it in between.
func TestOtherColumnsFollowTheNameMatches(t *testing.T) {
	m, _ := newTable(t, 1000, nil)
	m.cfg.Columns[1] = Column[row]{Title: "ALIAS", Width: 8, Search: true, Cell: func(r *row) safe.Text {
		if r.uid == "u30" {
			return "n-0001"
		}
		return ""
	}}
	press(m, "/")
	var rest []tea.Msg
	for _, r := range "n-0001" {
		rest = nil
		for _, msg := range drive(m, m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})) {
			if first, ok := msg.(search.ResultMsg); ok {
				// The second part waits until the user has moved.
				rest = append(rest, drive(m, m.Update(first))...)
			}
		}
		if r != '1' || len(rest) == 0 {
			for _, msg := range rest {
				driveFilter(m, func() tea.Msg { return msg })
			}
		}
	}
	if len(rest) != 1 {
		t.Fatalf("want one second part for the last key, got %d messages", len(rest))
	}
	names := len(m.search.Matches())
	for _, i := range m.search.Matches() {
		if m.search.Names().Rows[i] == 30 {
			t.Fatalf("the alias match is in the first part")
		}
	}
	press(m, "enter", "j", "j")
	on, _ := m.Selected()
	driveFilter(m, func() tea.Msg { return rest[0] })
	if got := len(m.search.Matches()); got != names+1 {
		t.Fatalf("%d rows after the second part, want %d", got, names+1)
	}
	if now, _ := m.Selected(); now != on || on == nil || m.Cursor() != 2 {
		t.Errorf("the cursor moved: on %+v, was on %+v", now, on)
	}
	if ms := m.search.Matches(); m.search.Names().Rows[ms[names]] != 30 {
		t.Errorf("the alias match is not last: %v", ms)
	}
}

// A long count beside the filter line (the server filter's hint) gives way
// to the pattern typed, and a wider screen shows more of the pattern.
func TestFilterPatternKeepsItsRoomBesideALongCount(t *testing.T) {
	src := &source{n: 5000}
	m, _ := newTable(t, 10, nil)
	m.cfg.List = paging.New(context.Background(), src.list, func(r *row) string { return r.uid })
	drive(m, m.Init())
	m.cfg.Server = &ServerFilter[row]{
		Chip: func(p string) string { return `name = "` + p + `"` },
		List: func(string) *paging.List[row] { return m.cfg.List },
	}
	m.SetSize(60, 10)
	press(m, "/")
	typeAndSettle(m, "name-0499")
	if s := screen(m); !strings.Contains(s, "/name-0499") {
		t.Errorf("the pattern is squeezed by the count:\n%s", s)
	}
	m.SetSize(160, 10)
	if s := screen(m); !strings.Contains(s, "/name-0499") || !strings.Contains(s, `ctrl+s: server name = "name-0499"`) {
		t.Errorf("at 160 columns:\n%s", s)
	}
}

// TestFuzzyRankingSaysItIsNotTheSort: while a fuzzy filter ranks the rows
// best match first, the header has no sort mark and the line under the
// rows says so (and which order comes back); cleared, the mark is back.
func TestFuzzyRankingSaysItIsNotTheSort(t *testing.T) {
	m, _ := newTable(t, 1000, nil)
	head := func() string { return strings.Split(screen(m), "\n")[0] }
	before := head()
	press(m, "/")
	typeAndSettle(m, "0099")
	s := screen(m)
	if !strings.Contains(s, "best first") || head() == before {
		t.Errorf("the ranking is not said, or the header keeps its mark %q:\n%s", before, s)
	}
	press(m, "esc")
	if s := screen(m); head() != before || strings.Contains(s, "best first") {
		t.Errorf("cleared, the sort is not back:\n%s", s)
	}
}
