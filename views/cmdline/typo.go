package cmdline

import (
	"slices"
	"strings"
)

// near are the commands a name is a typo of (":repoz", ":tgas"), closest
// first: within one edit (a letter changed, added, dropped, or two
// swapped) of a name or an alias, two for names of six letters or more.
// Fuzzy matching finds what a name abbreviates; this finds what it
// misspells.
func near(commands []Command, name string) []int {
	limit := 1
	if len([]rune(name)) >= 6 {
		limit = 2
	}
	type hit struct{ i, d int }
	var hits []hit
	for i, c := range commands {
		best := limit + 1
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			best = min(best, edits(strings.ToLower(name), n, limit+1))
		}
		if best <= limit {
			hits = append(hits, hit{i, best})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.d - b.d })
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.i
	}
	return out
}

// edits is the optimal string alignment distance between a and b (a
// swap of two neighbours counts one), or cap when it is cap or more.
func edits(a, b string, cap int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= cap || -d >= cap {
		return cap
	}
	// Three rows: the one two back is for swaps.
	prev2, prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= cap {
			return cap
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(rb)], cap)
}
