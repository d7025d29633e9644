package filter

import (
	"context"
	"errors"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sahilm/fuzzy"
)

// indexes returns the Index of every match.
func indexes(ms []Match) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.Index
	}
	return out
}

// TestInverse: "!x" keeps exactly the rows fuzzy.Find does not match, in
// their original order, with score 0.
func TestInverse(t *testing.T) {
	r := rand.New(rand.NewPCG(equalSeed, 10))
	ctx := context.Background()
	for trial := range 200 {
		names := randomNames(r, 1+r.IntN(300))
		p := randomPattern(r, names)
		res, err := Filter(ctx, Query{Kind: Inverse, Pattern: p}, names)
		if err != nil {
			t.Fatal(err)
		}
		matched := make([]bool, len(names))
		for _, m := range fuzzy.Find(p, names) {
			matched[m.Index] = true
		}
		var want []int
		for i, ok := range matched {
			if !ok {
				want = append(want, i)
			}
		}
		if got := indexes(res.Matches); !slices.Equal(got, want) {
			t.Fatalf("trial %d: !%q kept %v, want %v", trial, p, got, want)
		}
		for _, m := range res.Matches {
			if m.Score != 0 {
				t.Fatalf("trial %d: !%q: score %d, want 0", trial, p, m.Score)
			}
		}
		if res.Total != len(names) || res.Query != (Query{Kind: Inverse, Pattern: p}) {
			t.Fatalf("trial %d: Total %d Query %#v", trial, res.Total, res.Query)
		}
	}
}

// TestRegexp: "re:x" keeps the rows the case-insensitive expression
// matches, in their original order; (?-i) turns case-insensitivity off.
func TestRegexp(t *testing.T) {
	r := rand.New(rand.NewPCG(equalSeed, 11))
	names := make([]string, 2000)
	for i := range names {
		names[i] = tagName(r)
	}
	names[7] = "NGINX:1.2"
	ctx := context.Background()
	for _, expr := range []string{
		"nginx", "^acme/", `:1\.2\.`, "-r4$", "(?-i)NGINX", "NGINX", "ng.*x", "python|redis", `\d+\.\d+\.\d+-dev`,
		"^$", "k", "zzz",
	} {
		res, err := Filter(ctx, Query{Kind: Regexp, Pattern: expr}, names)
		if err != nil {
			t.Fatalf("re:%s: %v", expr, err)
		}
		re := regexp.MustCompile("(?i)" + expr)
		var want []int
		for i, s := range names {
			if re.MatchString(s) {
				want = append(want, i)
			}
		}
		if got := indexes(res.Matches); !slices.Equal(got, want) {
			t.Fatalf("re:%s kept %d rows, want %d", expr, len(got), len(want))
		}
		if expr == "nginx" && (len(want) == 0 || !slices.Contains(want, 7)) {
			t.Fatalf("re:nginx should match case-insensitively (row 7 %q)", names[7])
		}
		if expr == "(?-i)NGINX" && !slices.Equal(want, []int{7}) {
			t.Fatalf("re:(?-i)NGINX kept %v, want [7]", want)
		}
	}
}

// TestRegexpInvalid: an invalid expression is an error, not an empty result.
func TestRegexpInvalid(t *testing.T) {
	for _, expr := range []string{"(", "[a-", "a**", `\`, "(?z)"} {
		res, err := Filter(context.Background(), Query{Kind: Regexp, Pattern: expr}, []string{"a", "("})
		if err == nil {
			t.Errorf("re:%s: no error, result %v", expr, res.Matches)
			continue
		}
		if !strings.Contains(err.Error(), "invalid regular expression") {
			t.Errorf("re:%s: error %q does not say what is wrong", expr, err)
		}
		// Narrow falls back to Filter for a regexp and must report the error too.
		if _, err := Narrow(context.Background(), Query{Kind: Regexp, Pattern: expr}, []string{"a"}, Result{}); err == nil {
			t.Errorf("Narrow re:%s: no error", expr)
		}
	}
}

// TestParseQuery: prefixes select the kind, and String is ParseQuery's inverse.
func TestParseQuery(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Query
	}{
		{"", Query{Kind: Fuzzy}},
		{"ngx", Query{Kind: Fuzzy, Pattern: "ngx"}},
		{" ngx ", Query{Kind: Fuzzy, Pattern: " ngx "}},
		{"!ngx", Query{Kind: Inverse, Pattern: "ngx"}},
		{"!", Query{Kind: Inverse}},
		{"!!x", Query{Kind: Inverse, Pattern: "!x"}},
		{"!re:x", Query{Kind: Inverse, Pattern: "re:x"}},
		{"re:^a.*b$", Query{Kind: Regexp, Pattern: "^a.*b$"}},
		{"re:", Query{Kind: Regexp}},
		{"re:!x", Query{Kind: Regexp, Pattern: "!x"}},
		{"RE:x", Query{Kind: Fuzzy, Pattern: "RE:x"}},
		{"re", Query{Kind: Fuzzy, Pattern: "re"}},
		{"x!", Query{Kind: Fuzzy, Pattern: "x!"}},
	} {
		got := ParseQuery(c.in)
		if got != c.want {
			t.Errorf("ParseQuery(%q) = %#v, want %#v", c.in, got, c.want)
		}
		if s := got.String(); s != c.in {
			t.Errorf("ParseQuery(%q).String() = %q", c.in, s)
		}
		if got.IsEmpty() != (got.Pattern == "") {
			t.Errorf("%#v.IsEmpty() = %v", got, got.IsEmpty())
		}
	}
	// Random strings built from the prefixes' characters round-trip both ways.
	r := rand.New(rand.NewPCG(equalSeed, 12))
	const alphabet = "!re:xR "
	for range 5000 {
		b := make([]byte, r.IntN(7))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		q := ParseQuery(s)
		if q.String() != s {
			t.Fatalf("ParseQuery(%q).String() = %q", s, q.String())
		}
		if ParseQuery(q.String()) != q {
			t.Fatalf("ParseQuery(%#v.String()) = %#v", q, ParseQuery(q.String()))
		}
	}
}

// TestEmptyPattern: an empty pattern of any kind keeps every row in order.
func TestEmptyPattern(t *testing.T) {
	names := []string{"b", "a", "", "c\x00", "a"}
	want := []Match{{Index: 0}, {Index: 1}, {Index: 2}, {Index: 3}, {Index: 4}}
	for _, s := range []string{"", "!", "re:"} {
		q := ParseQuery(s)
		res, err := Filter(context.Background(), q, names)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Matches, want) || res.Total != len(names) || res.Query != q {
			t.Errorf("%q: %+v, want every row in order", s, res)
		}
		res, err = Narrow(context.Background(), q, names, Result{Query: Query{Kind: Fuzzy, Pattern: "zzz"}, Total: len(names)})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Matches, want) {
			t.Errorf("Narrow %q: %+v, want every row in order", s, res.Matches)
		}
	}
	// No names: nothing to keep, for every kind.
	for _, s := range []string{"", "x", "!x", "re:x"} {
		res, err := Filter(context.Background(), ParseQuery(s), nil)
		if err != nil || len(res.Matches) != 0 || res.Total != 0 {
			t.Errorf("%q over no names: %+v, %v", s, res, err)
		}
	}
}

// TestNarrowFallsBack: Narrow only narrows a fuzzy pattern that extends
// the previous fuzzy pattern over the same number of names; otherwise it
// answers like Filter (a previous result that would give a wrong answer if
// narrowed is used here on purpose).
func TestNarrowFallsBack(t *testing.T) {
	names := []string{"nginx", "node", "go", "nginx-ingress", "postgres", "ngx"}
	ctx := context.Background()
	// A bogus previous result that kept only row 5: narrowing from it
	// would miss rows 0 and 3.
	bogus := func(q Query, total int) Result {
		return Result{Query: q, Matches: []Match{{Index: 5, Score: 1}}, Total: total}
	}
	for _, c := range []struct {
		name string
		q    Query
		prev Result
	}{
		{"not an extension", Query{Kind: Fuzzy, Pattern: "ngx"}, bogus(Query{Kind: Fuzzy, Pattern: "nx"}, len(names))},
		{"shorter (backspace)", Query{Kind: Fuzzy, Pattern: "n"}, bogus(Query{Kind: Fuzzy, Pattern: "ng"}, len(names))},
		{"prev inverse", Query{Kind: Fuzzy, Pattern: "ngx"}, bogus(Query{Kind: Inverse, Pattern: "ng"}, len(names))},
		{"prev regexp", Query{Kind: Fuzzy, Pattern: "ngx"}, bogus(Query{Kind: Regexp, Pattern: "ng"}, len(names))},
		{"prev empty", Query{Kind: Fuzzy, Pattern: "ngx"}, bogus(Query{Kind: Fuzzy}, len(names))},
		{"names appended", Query{Kind: Fuzzy, Pattern: "ngx"}, bogus(Query{Kind: Fuzzy, Pattern: "ng"}, len(names)-1)},
		{"inverse extends", Query{Kind: Inverse, Pattern: "ngx"}, bogus(Query{Kind: Inverse, Pattern: "ng"}, len(names))},
		{"zero prev", Query{Kind: Fuzzy, Pattern: "ngx"}, Result{}},
	} {
		got, err := Narrow(ctx, c.q, names, c.prev)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Filter(ctx, c.q, names)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Matches, want.Matches) || got.Query != want.Query || got.Total != want.Total {
			t.Errorf("%s: Narrow = %+v, Filter = %+v", c.name, got, want)
		}
	}
	// And it does narrow when it may: from the same bogus result, only row 5.
	got, err := Narrow(ctx, Query{Kind: Fuzzy, Pattern: "ngx"}, names, bogus(Query{Kind: Fuzzy, Pattern: "ng"}, len(names)))
	if err != nil {
		t.Fatal(err)
	}
	if idx := indexes(got.Matches); !slices.Equal(idx, []int{5}) {
		t.Errorf("extension: Narrow searched %v, want only the previous matches [5]", idx)
	}
}

// manyNames returns n names of the benchmark's shape, cheaply: the slice
// repeats a few thousand distinct strings, which is all the engine sees.
func manyNames(n int) []string {
	r := rand.New(rand.NewPCG(equalSeed, 13))
	base := make([]string, 4096)
	for i := range base {
		base[i] = tagName(r)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = base[i%len(base)]
	}
	return names
}

// askedCtx is a context whose Err turns Canceled once it was asked n
// times: Filter asks before each chunk, so it is cancelled at a point of
// the work, not of the clock.
type askedCtx struct {
	context.Context
	n     int64
	asked atomic.Int64
}

func (c *askedCtx) Err() error {
	if c.asked.Add(1) > c.n {
		return context.Canceled
	}
	return nil
}

// TestCancelled: a context cancelled before the call returns ctx.Err() on
// 10⁶ names, for every kind that scans, without examining a name; Narrow
// too.
func TestCancelled(t *testing.T) {
	names := manyNames(1_000_000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, s := range []string{"o", "!o", "re:o", "ngx1.2"} {
		start := time.Now()
		res, err := Filter(ctx, ParseQuery(s), names)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%q: err = %v, want context.Canceled", s, err)
		}
		t.Logf("%q: a cancelled Filter took %v", s, time.Since(start))
		if res.Matches != nil || res.Total != 0 {
			t.Errorf("%q: a cancelled Filter returned rows: %+v", s, res.Query)
		}
	}
	// What Filter runs every name through is never run.
	var examined atomic.Int64
	keep := func(string) (int, bool) { examined.Add(1); return 0, true }
	if _, err := collect(ctx, len(names), nil, names, keep); !errors.Is(err, context.Canceled) || examined.Load() != 0 {
		t.Errorf("a cancelled scan: err = %v, %d names examined, want none", err, examined.Load())
	}
	prev := Result{Query: Query{Kind: Fuzzy, Pattern: "o"}, Matches: make([]Match, len(names)), Total: len(names)}
	for i := range prev.Matches {
		prev.Matches[i].Index = i
	}
	if _, err := Narrow(ctx, Query{Kind: Fuzzy, Pattern: "oo"}, names, prev); !errors.Is(err, context.Canceled) {
		t.Fatalf("Narrow: err = %v, want context.Canceled", err)
	}
}

// TestCancelMidway: cancelling while Filter runs over 10⁶ names stops it
// at the next chunk, far sooner than the whole run; a deadline reports
// context.DeadlineExceeded. The cancel comes at a point of the work (once
// two chunks were taken), never of the clock.
func TestCancelMidway(t *testing.T) {
	names := manyNames(1_000_000)
	q := Query{Kind: Fuzzy, Pattern: "e1"} // broad: nearly every row is scored

	// Each chunk is taken after asking the context: cancelled after two,
	// the workers examine those two chunks' names, and no others.
	match := newMatcher(q.Pattern).match
	var examined atomic.Int64
	keep := func(s string) (int, bool) {
		examined.Add(1)
		return match(s)
	}
	if _, err := collect(&askedCtx{Context: context.Background(), n: 2}, len(names), nil, names, keep); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := examined.Load(); got == 0 || got > 2*chunkSize {
		t.Errorf("%d of %d names examined, want two chunks' (%d) at most", got, len(names), 2*chunkSize)
	}
	// Filter and Narrow stop there too, and say so.
	if _, err := Filter(&askedCtx{Context: context.Background(), n: 2}, q, names); !errors.Is(err, context.Canceled) {
		t.Fatalf("Filter: err = %v, want context.Canceled", err)
	}
	prev := Result{Query: Query{Kind: Fuzzy, Pattern: "e"}, Matches: make([]Match, len(names)), Total: len(names)}
	for i := range prev.Matches {
		prev.Matches[i].Index = i
	}
	if _, err := Narrow(&askedCtx{Context: context.Background(), n: 2}, q, names, prev); !errors.Is(err, context.Canceled) {
		t.Fatalf("Narrow: err = %v, want context.Canceled", err)
	}

	late, stop := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer stop()
	if _, err := Filter(late, q, names); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("with a deadline: err = %v, want context.DeadlineExceeded", err)
	}
}
