package table

import (
	"strings"
	"testing"

	"canopy/views"
	"canopy/views/viewstest"
)

// A server may leave totalCount out: the table counts "at least" what it
// has seen, G follows the pages to the end, and the count is exact there.
func TestWithoutATotalCountsAreAtLeastAndGFollowsToTheEnd(t *testing.T) {
	m, src := newTableOf(t, &source{n: 1000, noTotal: true}, nil, nil)
	s := screen(m)
	if !strings.Contains(s, "1 of 200+") || !strings.Contains(s, "200 loaded") {
		t.Fatalf("info without a total:\n%s", s)
	}
	before := src.calls.Load()
	press(m, "G")
	s = screen(m)
	if !strings.Contains(s, "name-00999") || !strings.Contains(s, "1,000 of 1,000") || strings.Contains(s, "+") {
		t.Fatalf("G did not reach the end:\n%s", s)
	}
	if got := src.calls.Load() - before; got != 4 {
		t.Errorf("G walked with %d requests, want 4 (one per page left)", got)
	}
}

// A key other than G stops the walk to the end.
func TestAKeyStopsTheWalkToTheEnd(t *testing.T) {
	m, _ := newTableOf(t, &source{n: 1000, noTotal: true}, nil, nil)
	cmd := m.Update(viewstest.Key("G"))
	m.Update(viewstest.Key("k"))
	drive(m, cmd)
	if m.toEnd {
		t.Error("k did not stop the walk to the end")
	}
}

// An order the server refuses falls back to its default order, says so
// through the shell once, and s skips it from then on.
func TestARefusedOrderFallsBackAndIsSkipped(t *testing.T) {
	src := &source{n: 50, refuse: map[string]bool{"name": true}}
	m := buildTable(src, nil, nil)
	told := 0
	for _, msg := range drive(m, m.Init()) {
		if r, ok := msg.(views.OrderRefusedMsg); ok && r.Order == "name" && r.Collection == "rows" {
			told++
		}
	}
	if told != 1 {
		t.Errorf("the shell was told %d times, want once", told)
	}
	s := screen(m)
	if !strings.Contains(s, "sort: server order") || !strings.Contains(s, "name-00000") || strings.Contains(s, "failed") {
		t.Fatalf("after the refusal:\n%s", s)
	}
	press(m, "s")
	if s := screen(m); !strings.Contains(s, "sort: name ↓") {
		t.Fatalf("s after the refusal:\n%s", s)
	}
	press(m, "s")
	if s := screen(m); !strings.Contains(s, "sort: server order") {
		t.Errorf("s went back to a refused order:\n%s", s)
	}
}

// An order the shell already knows is refused is never asked for.
func TestAKnownRefusalIsNotAskedAgain(t *testing.T) {
	src := &source{n: 50, refuse: map[string]bool{"name": true}}
	m, _ := newTableOf(t, src, nil, func(o string) bool { return o == "name" })
	// It starts in the server's own order, as it fell back to before, not
	// in another order the user did not choose.
	if s := screen(m); !strings.Contains(s, "sort: server order") || strings.Contains(s, "failed") {
		t.Fatalf("start:\n%s", s)
	}
	if got := src.calls.Load(); got != 1 {
		t.Errorf("%d requests, want 1 (the refused order not tried)", got)
	}
}
