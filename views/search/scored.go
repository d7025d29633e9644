package search

import (
	"context"

	"canopy/views/filter"
)

// Scored is one match of Ranked: Index is its row in the names, Tier 0
// when its Primary matched and 1 when only its Secondary did, Score its
// score in that tier (0 for a query that is not fuzzy).
type Scored struct{ Index, Tier, Score int }

// Ranked is Run with each match's tier and score, in Run's order. It is
// for a caller that searches rows in parts (canopy list --rank, a page at
// a time) and keeps the best of them: Before orders matches from any part
// as one Run over every row would.
func Ranked(ctx context.Context, q filter.Query, names Names) ([]Scored, error) {
	t, _, err := runTiers(ctx, q, names, Narrowing{})
	if err != nil {
		return nil, err
	}
	out := make([]Scored, 0, len(t.first)+len(t.second))
	for _, mt := range t.first {
		out = append(out, Scored{Index: mt.Index, Score: mt.Score})
	}
	for _, mt := range t.second {
		out = append(out, Scored{Index: mt.Index, Tier: 1, Score: mt.Score})
	}
	return out, nil
}

// Before reports whether a ranks before b, as Run ranks them: the first
// tier before the second, then the higher score, then the earlier row
// (rowA and rowB are where each stands among every row searched).
func (a Scored) Before(b Scored, rowA, rowB int) bool {
	if a.Tier != b.Tier {
		return a.Tier < b.Tier
	}
	return before(filter.Match{Index: 0, Score: a.Score}, filter.Match{Index: 1, Score: b.Score}, []int{rowA, rowB})
}
