package paging

import (
	"testing"
)

// A server that ignores skip answers a jump with the first page: the list
// notices once, then walks by token to where it was asked, never sending
// the same request twice.
func TestASkipTheServerIgnoresIsWalkedOnce(t *testing.T) {
	f := &fakeSource{n: 1000, ignoreSkip: true}
	l := New(t.Context(), f.source, key)
	run(t, l, l.Reset(""))
	// G: the last rows, asked for with skip; then, as an owner does after
	// each page, Ensure again until they are there.
	for range 20 {
		run(t, l, l.Ensure(999, 60))
		if _, ok := l.At(999); ok {
			break
		}
	}
	if _, ok := l.At(999); !ok {
		t.Fatalf("row 999 never loaded: %d loaded", l.Loaded())
	}
	skips := 0
	seen := map[Request]bool{}
	for _, r := range f.requests {
		if r.Token == "" && r.Skip > 0 {
			skips++
		}
		if seen[r] {
			t.Errorf("request %+v sent twice", r)
		}
		seen[r] = true
	}
	if skips != 1 {
		t.Errorf("%d skip requests, want 1 (then walking)", skips)
	}
	if got, want := len(f.requests), 1+1+4; got != want {
		t.Errorf("%d requests, want %d (first page, the ignored skip, 4 pages walked)", got, want)
	}
	for i := range 1000 {
		checkRow(t, l, i)
	}
}

// A server that leaves skipped out of its answers cannot be trusted to
// have skipped: whether it did or not, the list walks by token, and the
// rows land where they belong.
func TestAnAnswerWithoutSkippedIsWalked(t *testing.T) {
	f := &fakeSource{n: 1000, omitSkipped: true}
	l := New(t.Context(), f.source, key)
	run(t, l, l.Reset(""))
	for range 20 {
		run(t, l, l.Ensure(999, 60))
		if _, ok := l.At(999); ok {
			break
		}
	}
	for i := range 1000 {
		checkRow(t, l, i)
	}
	if len(f.requests) > 1+1+4 {
		t.Errorf("%d requests, want at most 6", len(f.requests))
	}
}

// A server that ignores skip, leaves skipped out and answers every request
// with items never seen (so no answer looks like the top of the list) is
// not asked the same thing again and again: G costs a bounded number of
// requests however often the owner asks (it sent the same skip request
// hundreds of times a second).
func TestGOnAServerThatIgnoresSkipAndRenewsIsBounded(t *testing.T) {
	f := &fakeSource{n: 1000, ignoreSkip: true, omitSkipped: true, renew: true}
	l := New(t.Context(), f.source, key)
	run(t, l, l.Reset(""))
	for range 200 {
		run(t, l, l.Ensure(999, 60))
	}
	seen := map[Request]bool{}
	for _, r := range f.requests {
		if seen[r] {
			t.Errorf("request %+v sent twice", r)
		}
		seen[r] = true
	}
	if len(f.requests) > 12 {
		t.Errorf("%d requests for G, want a handful", len(f.requests))
	}
}

// A server that serves smaller pages than asked (a --page-size of 20) is
// learned from its first page: G is then one request that lands where it
// was meant to, not one short of it and a walk by token.
func TestSmallerPagesAreLearnedForJumps(t *testing.T) {
	f := &fakeSource{n: 5602, serves: 20}
	l := New(t.Context(), f.source, key)
	run(t, l, l.Reset(""))
	before := len(f.requests)
	run(t, l, l.Ensure(5601, 40))
	if _, ok := l.At(5601); !ok {
		t.Fatalf("the last row is not loaded after one Ensure: %d loaded", l.Loaded())
	}
	if got := len(f.requests) - before; got > 2 {
		t.Errorf("G made %d requests, want at most 2 (the last page, and a screen ahead): %+v", got, f.requests[before:])
	}
}
