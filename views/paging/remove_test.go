package paging

import (
	"context"
	"strconv"
	"testing"
)

// TestRemoveReplaceAcrossPages removes and replaces items in a window made
// of several pages and checks positions, and that a snapshot taken before
// keeps what it saw.
func TestRemoveReplaceAcrossPages(t *testing.T) {
	src := &fakeSource{n: 1000}
	l := New(context.Background(), src.source, key)
	run(t, l, l.Start())
	for cursor := 0; cursor < 1000; cursor += 100 {
		run(t, l, l.Ensure(cursor, 0))
	}
	if !l.Done() || len(l.Runs()) != 5 {
		t.Fatalf("done %v, %d runs; want 5 pages in one window", l.Done(), len(l.Runs()))
	}
	before := l.Runs()
	for _, uid := range []string{"u0", "u199", "u200", "u999", "u500"} {
		if !l.Remove(uid) {
			t.Fatalf("Remove(%s) = false", uid)
		}
	}
	if !l.Replace("u300", item{uid: "u300"}) || l.Replace("u0", item{}) {
		t.Fatal("Replace answered wrong")
	}
	if l.Len() != 995 || l.Loaded() != 995 {
		t.Fatalf("Len %d Loaded %d, want 995", l.Len(), l.Loaded())
	}
	want := 0
	skip := map[int]bool{0: true, 199: true, 200: true, 999: true, 500: true}
	for pos := range 995 {
		for skip[want] {
			want++
		}
		it, ok := l.At(pos)
		if !ok || it.uid != "u"+strconv.Itoa(want) {
			t.Fatalf("At(%d) = %v %v, want u%d", pos, it, ok, want)
		}
		want++
	}
	if before[0].Items[0].uid != "u0" || before[1].Items[0].uid != "u200" || before[4].Items[199].uid != "u999" {
		t.Error("a snapshot taken before the removals changed")
	}
}
