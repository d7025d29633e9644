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
	"math/bits"
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
			_, ok := m.match(s)
			return 0, !ok
		}
	default:
		keep = newMatcher(q.Pattern).match
	}
	chunks, err := collect(ctx, len(names), nil, names, keep)
	if err != nil {
		return Result{}, err
	}
	if q.Kind == Fuzzy {
		res.Matches = rank(chunks)
	} else {
		res.Matches = concat(chunks)
	}
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
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	from := indexOrder(prev.Matches, len(names))
	chunks, err := collect(ctx, len(from), from, names, newMatcher(q.Pattern).match)
	if err != nil {
		return Result{}, err
	}
	return Result{Query: q, Matches: rank(chunks), Total: len(names)}, nil
}

// indexOrder returns the rows of ms (indexes below n) in ascending order.
// Scanning them in row order reads the names in memory order, and gives
// rank its input in row order. A bitmap of n bits sorts them in
// O(n/64 + len(ms)).
func indexOrder(ms []Match, n int) []int {
	set := make([]uint64, (n+63)/64)
	for _, m := range ms {
		set[m.Index>>6] |= 1 << (m.Index & 63)
	}
	out := make([]int, 0, len(ms))
	for w, word := range set {
		for word != 0 {
			out = append(out, w<<6+bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
	return out
}

// chunkPool recycles the per-chunk match buffers: they live only until
// rank or concat has copied them into the result.
var chunkPool = sync.Pool{New: func() any { s := make([]Match, 0, chunkSize); return &s }}

// collect runs keep over n rows in chunks on GOMAXPROCS workers and returns
// the kept rows, chunk by chunk, in row order. Row i is names[i], or
// names[from[i]] when from is non-nil. It stops between chunks once ctx is
// done. The chunks come from chunkPool; rank and concat return them.
func collect(ctx context.Context, n int, from []int, names []string, keep func(string) (int, bool)) ([][]Match, error) {
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
		release(chunks)
		return nil, err
	}
	return chunks, nil
}

// collectChunk runs keep over rows [lo, hi).
func collectChunk(lo, hi int, from []int, names []string, keep func(string) (int, bool)) []Match {
	out := (*chunkPool.Get().(*[]Match))[:0]
	if from != nil {
		// The rows are scattered over names, so reading each string is a
		// cache miss. Touching a batch of them first lets those misses
		// overlap instead of each waiting behind the previous row's scan.
		var touched byte
		for rows := from[lo:hi]; len(rows) > 0; {
			batch := rows[:min(len(rows), touchBatch)]
			rows = rows[len(batch):]
			for _, idx := range batch {
				if s := names[idx]; s != "" {
					touched += s[0]
				}
			}
			for _, idx := range batch {
				if score, ok := keep(names[idx]); ok {
					out = append(out, Match{Index: idx, Score: score})
				}
			}
		}
		touchSink.Store(uint32(touched)) // keeps the touching loads
		return out
	}
	for i, s := range names[lo:hi] {
		if score, ok := keep(s); ok {
			out = append(out, Match{Index: lo + i, Score: score})
		}
	}
	return out
}

// touchBatch is how many scattered rows collectChunk touches ahead.
const touchBatch = 32

// touchSink receives the bytes collectChunk touches, so the compiler keeps
// the loads.
var touchSink atomic.Uint32

// release returns the chunk buffers to chunkPool.
func release(chunks [][]Match) {
	for _, c := range chunks {
		if c != nil {
			chunkPool.Put(&c)
		}
	}
}

// concat joins the chunks (and releases them).
func concat(chunks [][]Match) []Match {
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	out := make([]Match, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	release(chunks)
	return out
}

// maxCountingSpan bounds the score range rank sorts by counting: beyond
// len(matches) plus this, it sorts by comparison instead.
const maxCountingSpan = 1 << 16

// rank joins the chunks (matches in row order) and orders them as
// fuzzy.Find does: sort.Stable by descending score over matches found in
// index order, i.e. score descending, then index ascending. Scores span a
// small range (a few hundred values for names of usual length), so a
// stable counting sort on the score does it in linear time; a wide range
// (long runs of adjacent matches double their bonus) falls back to a
// comparison sort on (score, index), a total order, so the result is the
// same.
func rank(chunks [][]Match) []Match {
	defer release(chunks)
	total := 0
	lo, hi := 0, 0
	for _, c := range chunks {
		for _, m := range c {
			if total == 0 || m.Score < lo {
				lo = m.Score
			}
			if total == 0 || m.Score > hi {
				hi = m.Score
			}
			total++
		}
	}
	out := make([]Match, total)
	if total == 0 {
		return out
	}
	span := uint(hi) - uint(lo) // hi >= lo; unsigned, so no overflow
	if span > uint(total)+maxCountingSpan {
		out = out[:0]
		for _, c := range chunks {
			out = append(out, c...)
		}
		slices.SortFunc(out, func(a, b Match) int {
			if a.Score != b.Score {
				return cmp.Compare(b.Score, a.Score)
			}
			return cmp.Compare(a.Index, b.Index)
		})
		return out
	}
	// start[b] is where bucket b (score hi-b) begins in out.
	start := make([]int, span+2)
	for _, c := range chunks {
		for _, m := range c {
			start[uint(hi)-uint(m.Score)+1]++
		}
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	for _, c := range chunks {
		for _, m := range c {
			b := uint(hi) - uint(m.Score)
			out[start[b]] = m
			start[b]++
		}
	}
	return out
}
