package table

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
	"canopy/views/paging"
)

// scanned is D on m with every page read.
func scanned(t *testing.T, m *Model[row]) {
	t.Helper()
	driveScan(m, m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"}))
	for !m.cfg.List.Done() {
		driveScan(m, m.cfg.List.Scan(scanParallel))
	}
}

// held counts the rows the list holds.
func held(m *Model[row]) int {
	n := 0
	m.cfg.List.Each(func(int, *row) bool { n++; return true })
	return n
}

// checkPlaces checks that every row shown is the one at its place in the
// server's order (name-%05d at position i).
func checkPlaces(t *testing.T, m *Model[row]) {
	t.Helper()
	for i := range m.rows() {
		p := m.position(i)
		if it, ok := m.cfg.List.At(p); ok && it.name != rowName(p) {
			t.Fatalf("row %d shows %s at position %d", i, it.name, p)
		}
	}
}

func rowName(p int) string { return fmt.Sprintf("name-%05d", p) }

// A D view holds the rows it shows and the page it was opened on, not
// every row its scan read; what it shows is what it showed before.
func TestAFlaggedViewHoldsWhatItShows(t *testing.T) {
	m, _ := triageTable(t, 4210)
	scanned(t, m)
	s := screen(m)
	if !strings.Contains(s, "1 of 421 old · all 4,210 rows scanned") {
		t.Fatalf("after the scan:\n%s", s)
	}
	// 421 flagged rows, and the 180 others of the first page.
	if n := held(m); n != 601 {
		t.Errorf("the list holds %d rows, want the 421 shown and the 180 others of the first page", n)
	}
	if got := shownPositions(m); len(got) != 421 || got[0] != 0 || got[420] != 4200 {
		t.Errorf("shown %d rows %v…", len(got), got[:min(5, len(got))])
	}
	checkPlaces(t, m)
}

// The scan asks what it asked before thinning: one request a page.
func TestAFlaggedViewsScanAsksOnceAPage(t *testing.T) {
	m, _ := triageTable(t, 4210)
	src := m.cfg.List
	before := src.Requests()
	scanned(t, m)
	if got := src.Requests() - before; got != 21 {
		t.Errorf("the scan took %d requests, want the 21 pages after the first", got)
	}
}

// Rows marked before D stay held, wherever they are: they are what y and
// d act on.
func TestMarkedRowsStayThroughAFlaggedView(t *testing.T) {
	m, _ := triageTable(t, 4210)
	press(m, "j", " ", " ") // marks name-00001 and name-00002
	press(m, "G")
	driveScan(m, m.Update(tea.KeyPressMsg{Code: ' ', Text: " "})) // and name-04209, once it loads
	press(m, "g")
	scanned(t, m)
	if s := screen(m); !strings.Contains(s, "3 marked") {
		t.Fatalf("the marks went:\n%s", s)
	}
	msgs := press(m, "y")
	if cp, ok := msgs[0].(views.CopyMsg); !ok || cp.Text != "name-00001\nname-00002\nname-04209" {
		t.Errorf("y copies %v, want the three marked rows", msgs)
	}
}

// D off after a scan shows every row again: the rows about the cursor's
// load (one request for a screen), each at its place, the cursor on its
// row; the rows the scan dropped are new rows then.
func TestLeavingAFlaggedViewLoadsTheRowsAboutTheCursor(t *testing.T) {
	m, _ := triageTable(t, 4210)
	scanned(t, m)
	press(m, "G", "k", "k")
	on, _ := m.Selected()
	before := m.cfg.List.Requests()
	cmd := m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"})
	if s := screen(m); strings.Contains(s, " old ·") || !strings.Contains(s, "of 4,210") {
		t.Fatalf("D did not show every row:\n%s", s)
	}
	driveScan(m, cmd)
	if got := m.cfg.List.Requests() - before; got != 1 {
		t.Errorf("%d requests to show the rows about the cursor, want 1", got)
	}
	if now, _ := m.Selected(); now == nil || now.name != on.name {
		t.Fatalf("the cursor is on %v, want %s", now, on.name)
	}
	s := screen(m)
	for _, name := range []string{"name-04178", "name-04180", "name-04182"} {
		if !strings.Contains(s, name) {
			t.Errorf("%s is not shown:\n%s", name, s)
		}
	}
	checkPlaces(t, m)
	// And the list reads on from there as any other.
	press(m, "g")
	driveScan(m, m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"}))
	checkPlaces(t, m)
	if s := screen(m); !strings.Contains(s, "name-04209") {
		t.Errorf("G does not show the last row:\n%s", s)
	}
}

// D and back at once shows the rows it left, with no request: the page it
// was opened on is held.
func TestDAndBackAtOnceNeedsNoRequest(t *testing.T) {
	m, _ := triageTable(t, 4210)
	scanned(t, m)
	before := m.cfg.List.Requests()
	if cmd := m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"}); cmd != nil {
		driveScan(m, cmd)
	}
	if got := m.cfg.List.Requests() - before; got != 0 {
		t.Errorf("%d requests, want none", got)
	}
	if s := screen(m); !strings.Contains(s, "name-00000") || !strings.Contains(s, "name-00009") {
		t.Errorf("the first rows are not shown:\n%s", s)
	}
}

// pagesThenSorts runs cmd, delivering every page it brings until no more
// come, and returns the sorts it asked for, undelivered: the test says
// when the sort lands.
func pagesThenSorts(m *Model[row], cmd tea.Cmd) []tea.Msg {
	var sorts []tea.Msg
	for cmd != nil {
		var next []tea.Cmd
		for _, msg := range runParallel(cmd) {
			switch msg.(type) {
			case paging.PageMsg:
				next = append(next, m.Update(msg))
			case sortedMsg:
				sorts = append(sorts, msg)
			}
		}
		cmd = tea.Batch(next...)
	}
	return sorts
}

// In a local order, a D view shows its flagged rows in that order once the
// scan has read them all, the cursor on its row; every row is sorted again
// when D goes off.
func TestAFlaggedViewInALocalOrder(t *testing.T) {
	m, _ := triageTable(t, 2000)
	addReversedOrder(m)
	press(m, "j", "j", "j")
	deliverSorted(m, drive(m, m.Update(tea.KeyPressMsg{Code: 's', Text: "s"}))) // name ↓
	deliverSorted(m, drive(m, m.Update(tea.KeyPressMsg{Code: 's', Text: "s"}))) // reversed: every row loads
	sorts := pagesThenSorts(m, m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"}))
	on, _ := m.Selected()
	deliverSorted(m, sorts)
	s := screen(m)
	if !strings.Contains(s, "sort: reversed") || strings.Contains(s, "every row loads") || !strings.Contains(s, "of 200 old") {
		t.Fatalf("not sorted once every row was read:\n%s", s)
	}
	if now, _ := m.Selected(); now == nil || now.name != on.name {
		t.Errorf("the cursor moved from %s to %v", on.name, now)
	}
	press(m, "g")
	if first := strings.Fields(strings.Split(screen(m), "\n")[1])[0]; first != "name-01990" {
		t.Errorf("first row %q, want name-01990:\n%s", first, screen(m))
	}
	if n := held(m); n > 400 {
		t.Errorf("the sorted D view holds %d rows", n)
	}
	// Every row again: they load, then sort.
	press(m, "j")
	on, _ = m.Selected()
	deliverSorted(m, pagesThenSorts(m, m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"})))
	if now, _ := m.Selected(); now == nil || now.name != on.name {
		t.Errorf("after D the cursor moved from %s to %v", on.name, now)
	}
	press(m, "g")
	if s := screen(m); !strings.Contains(s, "1 of 2,000") || strings.Fields(strings.Split(s, "\n")[1])[0] != "name-01999" {
		t.Errorf("every row is not sorted again:\n%s", s)
	}
}

// H in a D view reloads a list that holds what the view shows too.
func TestHiddenRowsInAFlaggedViewAreThinnedToo(t *testing.T) {
	m, _ := hiddenTable(t, true)
	driveAll(m, m.Update(tea.KeyPressMsg{Code: 'H', Text: "H"}))
	for !m.cfg.List.Done() {
		driveAll(m, m.cfg.List.Scan(scanParallel))
	}
	if !m.cfg.List.Thinned() {
		t.Fatal("the list H made holds every row")
	}
	if n := held(m); n != 60+180 {
		t.Errorf("holds %d rows, want the 60 shown and the 180 others of the first page", n)
	}
}
