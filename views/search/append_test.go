package search

import (
	"context"
	"fmt"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/filter"
	"canopy/views/viewstest"
)

// rowsOwner is an owner whose rows come in pages: row i's names are made
// from i, the loaded rows are kept in position order, and it counts the
// full snapshots taken.
type rowsOwner struct {
	loaded    []int // positions, ascending
	snapshots int
}

func (o *rowsOwner) names(rows []int) Names {
	out := Names{Primary: make([]string, len(rows)), Secondary: make([]string, len(rows)), Rows: slices.Clone(rows)}
	for k, i := range rows {
		out.Primary[k] = fmt.Sprintf("tag-%d.%d-r%d", i%7, i%13, i%5)
		out.Secondary[k] = fmt.Sprintf("sha256:%08x repo-%d", uint32(i*2654435761), i%37)
	}
	return out
}

func (o *rowsOwner) snapshot() Snapshot {
	o.snapshots++
	rows := slices.Clone(o.loaded)
	return func() Names { return o.names(rows) }
}

// load adds the page of positions [from, to) and returns its snapshot.
func (o *rowsOwner) load(from, to int) Snapshot {
	var page []int
	for i := from; i < to; i++ {
		page = append(page, i)
	}
	o.loaded = append(o.loaded, page...)
	slices.Sort(o.loaded)
	return func() Names { return o.names(page) }
}

// shownRows are the owner rows of the matches, in the order shown.
func shownRows(m *Model) []int {
	out := make([]int, 0, len(m.Matches()))
	for _, ix := range m.Matches() {
		out = append(out, m.Names().Rows[ix])
	}
	return out
}

// Pages that arrive under a kept filter are filtered alone and merged: the
// rows shown, and their order, are what filtering every loaded row shows,
// whether pages come in order, out of order, or while a run goes on, with
// no new snapshot of every row taken for them.
func TestAppendedPagesRankAsAFullRun(t *testing.T) {
	for _, pattern := range []string{"r3", "1.1", "repo-2", "re:^tag-3", "!r4"} {
		t.Run(pattern, func(t *testing.T) {
			o := &rowsOwner{}
			o.load(0, 200)
			common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
			m := New(common, o.snapshot)
			viewstest.Drive(m.Open(), func(tea.Msg) bool { return false }, m.Update)
			answers, _ := burst(m, pattern)
			settle(m, answers)
			full := o.snapshots

			// In order, one at a time.
			settle(m, viewstest.Drive(m.Append(o.load(200, 400), -1), func(tea.Msg) bool { return false }, m.Update))
			// Out of order: 600-799 before 400-599.
			settle(m, viewstest.Drive(m.Append(o.load(600, 800), -1), func(tea.Msg) bool { return false }, m.Update))
			// Two while a merge runs: they wait, then merge together.
			running := m.Append(o.load(400, 600), -1)
			if m.Append(o.load(1000, 1200), -1) != nil || m.Append(o.load(800, 1000), -1) != nil {
				t.Fatal("a merge started while one runs")
			}
			settle(m, viewstest.Drive(running, func(tea.Msg) bool { return false }, m.Update))
			if m.busy || len(m.pending) != 0 {
				t.Fatalf("rows left pending: busy %v, %d pending", m.busy, len(m.pending))
			}
			if o.snapshots != full {
				t.Errorf("%d snapshots of every row taken for appended pages", o.snapshots-full)
			}
			want, _, err := Run(context.Background(), filter.ParseQuery(pattern), o.names(o.loaded), Narrowing{})
			if err != nil {
				t.Fatal(err)
			}
			if got := shownRows(m); !slices.Equal(got, want) {
				t.Fatalf("after the pages: %d rows shown, a run over all %d rows shows %d\n got %v\nwant %v",
					len(got), len(o.loaded), len(want), got[:min(len(got), 20)], want[:min(len(want), 20)])
			}

			// The next key narrows or runs over every row, and finds what a
			// run over every row finds.
			answers, _ = burst(m, "1")
			settle(m, answers)
			want, _, _ = Run(context.Background(), filter.ParseQuery(pattern+"1"), o.names(o.loaded), Narrowing{})
			if got := shownRows(m); !slices.Equal(got, want) {
				t.Fatalf("the key after the pages: %d rows shown, want %d", len(got), len(want))
			}
		})
	}
}

// A key typed while a merge runs drops the merge's answer; the rows it
// held are not lost: the key's run takes new names with them.
func TestAKeyDuringAMergeKeepsItsRows(t *testing.T) {
	o := &rowsOwner{}
	o.load(0, 200)
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	m := New(common, o.snapshot)
	viewstest.Drive(m.Open(), func(tea.Msg) bool { return false }, m.Update)
	answers, _ := burst(m, "r")
	settle(m, answers)
	running := m.Append(o.load(200, 400), -1)
	keyed, _ := burst(m, "3")
	settle(m, append(viewstest.Drive(running, func(tea.Msg) bool { return false }, m.Update), keyed...))
	want, _, _ := Run(context.Background(), filter.ParseQuery("r3"), o.names(o.loaded), Narrowing{})
	if got := shownRows(m); !slices.Equal(got, want) || len(m.Names().Primary) != 400 {
		t.Fatalf("%d rows shown over %d names, want %d over 400", len(got), len(m.Names().Primary), len(want))
	}
}
