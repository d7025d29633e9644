package api

import (
	"strconv"
	"testing"
)

// A detector with a window keeps the last n items read and no more: its
// set stays the same size however many are read, a repeat within the
// window is dropped, one from before it is taken as new.
func TestWindowKeepsTheLastItems(t *testing.T) {
	t.Parallel()
	key := func(s *string) string { return *s }
	d := NewRestartDetector(key)
	d.Window(1000)
	item := func(i int) *string { s := "uid-" + strconv.Itoa(i); return &s }
	slots := 0
	for i := range 200_000 {
		if !d.Add(item(i)) {
			t.Fatalf("item %d taken as a repeat", i)
		}
		if i == 10_000 {
			slots = len(d.seen.slots)
		}
	}
	if got := len(d.seen.slots); got > slots || d.seen.Len() != 1000 {
		t.Errorf("after 200,000 items: %d slots (%d after 10,000), %d held, want 1000", got, slots, d.seen.Len())
	}
	if d.Add(item(199_500)) {
		t.Error("a repeat within the window was taken as new")
	}
	if !d.Add(item(5)) {
		t.Error("an item from before the window was dropped")
	}
}
