// Package filter is the fuzzy filter engine behind `/` in canopy's lists.
//
// It gives the same matches and the same ranking as github.com/sahilm/fuzzy
// (fuzzy.Find), fast enough for a keystroke over 10⁶ loaded names: an
// allocation-free byte-level pre-check rejects most names before scoring,
// the work runs in chunks on every core and stops between chunks when the
// context is cancelled, a pattern that extends the previous one searches
// only the previous matches (Narrow), and matches carry no strings or
// matched-index slices — Highlight computes those for displayed rows only.
//
// Queries follow k9s: plain text is fuzzy, "!text" inverts a fuzzy match,
// "re:expr" is a case-insensitive Go regular expression (see ParseQuery).
package filter

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// chunkSize is how many names one worker takes at a time; cancellation is
// checked between chunks, so it bounds the work done after a cancel.
const chunkSize = 16 << 10

// Match is one matching row: its index in the names slice and its fuzzy
// score (0 for Inverse and Regexp queries, which keep original order).
type Match struct {
	Index int
	Score int
}

// Result is the answer to one query over one snapshot of names.
type Result struct {
	Query   Query   // the query answered; compare with the current one to drop stale results
	Matches []Match // fuzzy: best first, ties by index (as fuzzy.Find); otherwise in index order
	Total   int     // len(names) searched, for "matches/total"
}

// Filter runs q over names. A Fuzzy query returns exactly fuzzy.Find's
// matches in fuzzy.Find's order (score descending, then index ascending);
// Inverse and Regexp queries return rows in original order; an empty
// pattern returns every row. It returns ctx.Err() when cancelled, and an
// error for an invalid regular expression.
func Filter(ctx context.Context, q Query, names []string) (Result, error) {
	res := Result{Query: q, Total: len(names)}
	var keep func(string) (int, bool)
	switch {
	case q.IsEmpty():
		res.Matches = make([]Match, len(names))
		for i := range res.Matches {
			res.Matches[i].Index = i
		}
		return res, nil
	case q.Kind == Regexp:
		re, err := regexp.Compile("(?i)" + q.Pattern)
		if err != nil {
			return Result{}, fmt.Errorf("filter: invalid regular expression %q: %w", q.Pattern, err)
		}
		keep = func(s string) (int, bool) { return 0, re.MatchString(s) }
	case q.Kind == Inverse:
		m := newMatcher(q.Pattern)
		keep = func(s string) (int, bool) {
			if !m.mayMatch(s) {
				return 0, true
			}
			_, _, ok := m.score(s, nil)
			return 0, !ok
		}
	default:
		keep = fuzzyKeep(newMatcher(q.Pattern))
	}
	matches, err := collect(ctx, len(names), nil, names, keep)
	if err != nil {
		return Result{}, err
	}
	if q.Kind == Fuzzy {
		rank(matches)
	}
	res.Matches = matches
	return res, nil
}

// Narrow answers q using prev, the result of an earlier query over the same
// names: when q is a fuzzy pattern that extends prev's fuzzy pattern (the
// user typed one more character), only prev's matches are searched. In
// every other case (Inverse or Regexp queries, a pattern that is not an
// extension, an empty previous pattern, or a different number of names) it
// falls back to Filter. The names must be the same rows prev was computed
// on; rows only ever appended change the length and force the fallback.
func Narrow(ctx context.Context, q Query, names []string, prev Result) (Result, error) {
	if !q.extends(prev.Query) || prev.Total != len(names) {
		return Filter(ctx, q, names)
	}
	matches, err := collect(ctx, len(prev.Matches), prev.Matches, names, fuzzyKeep(newMatcher(q.Pattern)))
	if err != nil {
		return Result{}, err
	}
	rank(matches)
	return Result{Query: q, Matches: matches, Total: len(names)}, nil
}

// fuzzyKeep keeps the names m matches, with their fuzzy score.
func fuzzyKeep(m *matcher) func(string) (int, bool) {
	return func(s string) (int, bool) {
		if !m.mayMatch(s) {
			return 0, false
		}
		score, _, ok := m.score(s, nil)
		return score, ok
	}
}

// collect runs keep over n rows in chunks on GOMAXPROCS workers and returns
// the kept rows in row order. Row i is names[i], or names[from[i].Index]
// when from is non-nil. It stops between chunks once ctx is done.
func collect(ctx context.Context, n int, from []Match, names []string, keep func(string) (int, bool)) ([]Match, error) {
	chunks := make([][]Match, (n+chunkSize-1)/chunkSize)
	workers := min(runtime.GOMAXPROCS(0), len(chunks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				c := int(next.Add(1) - 1)
				if c >= len(chunks) {
					return
				}
				chunks[c] = collectChunk(c*chunkSize, min(n, (c+1)*chunkSize), from, names, keep)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	out := make([]Match, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

// collectChunk runs keep over rows [lo, hi).
func collectChunk(lo, hi int, from []Match, names []string, keep func(string) (int, bool)) []Match {
	var out []Match
	for i := lo; i < hi; i++ {
		idx := i
		if from != nil {
			idx = from[i].Index
		}
		if score, ok := keep(names[idx]); ok {
			out = append(out, Match{Index: idx, Score: score})
		}
	}
	return out
}

// rank orders matches as fuzzy.Find does: sort.Stable by descending score
// over matches found in index order, i.e. score descending, then index
// ascending. That is a total order, so an unstable sort gives the same result.
func rank(ms []Match) {
	slices.SortFunc(ms, func(a, b Match) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.Index, b.Index)
	})
}
