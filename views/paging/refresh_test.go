package paging

import (
	"testing"
)

// A refresh keeps the rows until its first page comes; when it fails they
// stay, stale, with the error, and Retry refreshes again.
func TestAFailedRefreshKeepsTheRowsStale(t *testing.T) {
	f := &fakeSource{n: 300}
	l := New(t.Context(), f.source, key)
	run(t, l, l.Reset(""))
	f.fail.Store(true)
	cmd := l.Refresh()
	if l.Loaded() != 200 {
		t.Fatalf("the rows went before the refresh answered: %d loaded", l.Loaded())
	}
	run(t, l, cmd)
	err, _ := l.Err()
	if l.Loaded() != 200 || !l.Stale() || err == nil {
		t.Fatalf("after a failed refresh: %d loaded, stale %v, err %v", l.Loaded(), l.Stale(), err)
	}
	if l.FailedAt(0) {
		t.Error("a stale row reads as failed")
	}
	if cmd := l.Ensure(150, 60); cmd != nil {
		t.Error("a stale list asked for more of the old rows")
	}
	f.fail.Store(false)
	f.n = 250
	run(t, l, l.Retry(0, 60))
	if l.Stale() || l.Total() != 250 {
		t.Fatalf("after the retry: stale %v, total %d", l.Stale(), l.Total())
	}
	for i := range 200 {
		checkRow(t, l, i)
	}
}
