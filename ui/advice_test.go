package ui

import (
	"slices"
	"testing"

	"canopy/census"
	"canopy/safe"
)

// A repo row's note names its advisories by every status its page counts
// them by, in the page's order; shorter forms drop the not affected, the
// fixed, the not planned and the pending upstream in turn, down to the
// detected alone.
func TestAdviceNotesKeepTheOpenLongest(t *testing.T) {
	t.Parallel()
	count := func(detected, upstream, fixed, notAffected, notPlanned int, partial bool) census.AdvisoryCount {
		var c census.AdvisoryCount
		c.N[census.Detected], c.N[census.PendingUpstream], c.N[census.Fixed] = detected, upstream, fixed
		c.N[census.NotAffected], c.N[census.NotPlanned], c.Partial = notAffected, notPlanned, partial
		return c
	}
	for _, tc := range []struct {
		c    census.AdvisoryCount
		want []safe.Text
	}{
		{count(1, 0, 3, 0, 1, false), []safe.Text{"advisories: 1 detected, 3 fixed, 1 not planned", "adv: 1 detected, 3 fixed, 1 not planned",
			"adv: 1 detected, 1 not planned, …", "adv: 1 detected, …"}},
		{count(2, 3, 1, 0, 0, false), []safe.Text{"advisories: 2 detected, 3 pending upstream, 1 fixed", "adv: 2 detected, 3 pending upstream, 1 fixed",
			"adv: 2 detected, 3 pending upstream, …", "adv: 2 detected, …"}},
		{count(5, 1, 1, 1, 0, false), []safe.Text{"advisories: 5 detected, 1 pending upstream, 1 fixed, 1 not affected",
			"adv: 5 detected, 1 pending upstream, 1 fixed, 1 not affected", "adv: 5 detected, 1 pending upstream, 1 fixed, …",
			"adv: 5 detected, 1 pending upstream, …", "adv: 5 detected, …"}},
		{count(0, 1, 0, 0, 2, false), []safe.Text{"advisories: 1 pending upstream, 2 not planned", "adv: 1 pending upstream, 2 not planned",
			"adv: 1 pending upstream, …"}},
		{count(0, 0, 0, 0, 3, false), []safe.Text{"advisories: 3 not planned", "adv: 3 not planned"}},
		{count(0, 0, 2, 0, 0, true), []safe.Text{"advisories: 2+ fixed", "adv: 2+ fixed"}},
		{count(0, 0, 0, 2, 0, false), []safe.Text{"advisories: 2 not affected", "adv: 2 not affected"}},
		{count(0, 0, 0, 0, 0, false), nil},
	} {
		if got := adviceNotes(tc.c); !slices.Equal(got, tc.want) {
			t.Errorf("%v: %q, want %q", tc.c.N, got, tc.want)
		}
	}
}
