package api

import "testing"

type keyed struct{ k string }

func keyOf(it *keyed) string { return it.k }

func items(keys ...string) []keyed {
	out := make([]keyed, len(keys))
	for i, k := range keys {
		out[i] = keyed{k}
	}
	return out
}

// TestRestartDetector: the one rule of the Cursor and the paged lists. A
// page holding an item of the first page is a restart (even after new
// items came first); so is a page of items read before only; a page that
// brings new items past the first page goes on, even when it begins with
// one read before (rows moved up by an insert).
func TestRestartDetector(t *testing.T) {
	t.Parallel()
	d := NewRestartDetector(keyOf)
	first := items("a", "b", "c")
	d.LearnHead(first)
	for i := range first {
		d.Add(&first[i])
	}
	second := items("d", "e", "f")
	if d.Restarted(second) {
		t.Fatal("a continuation was taken for a restart")
	}
	for i := range second {
		d.Add(&second[i])
	}
	for _, tc := range []struct {
		page []keyed
		want bool
	}{
		{items("a", "b", "c"), true},   // the first page again
		{items("new", "a", "b"), true}, // from the top, a new item first
		{items("x", "y", "b"), true},   // past an insert, the first page's last item
		{items("d", "e"), true},        // only items read before: the place is lost
		{items("f", "g", "h"), false},  // the first overlaps (moved up), the rest is new
		{items("g", "h", "i"), false},  // a plain continuation
		{nil, false},                   // an empty page goes on
		{items("z", "a"), true},        // any item of the first page
	} {
		if got := d.Restarted(tc.page); got != tc.want {
			t.Errorf("Restarted(%v) = %v, want %v", tc.page, got, tc.want)
		}
	}
	if !d.Seen("e") || d.Seen("g") {
		t.Error("Seen answers wrong")
	}
	d.Forget("e")
	if d.Seen("e") {
		t.Error("a forgotten key is still seen")
	}
	d.ForgetRead()
	if d.Seen("a") || !d.HeadKnown() || !d.Restarted(items("a")) {
		t.Error("ForgetRead forgot the first page, or kept what was read")
	}
	d.Reset()
	if d.HeadKnown() || d.Restarted(items("q", "a")) {
		t.Error("Reset kept the first page")
	}
}
