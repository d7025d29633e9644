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
