package detail

import (
	"strings"
	"testing"

	"canopy/theme"
	"canopy/views"
)

// A collection's total loading (a feed's, advisories, while its first
// page is read) shows a spinner that turns with the shell's ticks, as the
// tree row's does.
func TestSummarySpinnerTurns(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Dark})
	m.Show(&Summary{Title: "advisories", What: "advisories", State: func() (int, bool, error) { return -1, true, nil }})
	frames := m.common.Theme.Glyphs.Spinner
	for f := 1; f <= 3; f++ {
		m.Update(views.TickMsg{Frame: f})
		if got, want := lineOf(screen(m), "total"), frames[f%len(frames)]+" loading"; !strings.Contains(got, want) {
			t.Fatalf("after tick %d the total is %q, want %q", f, got, want)
		}
	}
}
