package paging

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestKeySetAgainstMap adds, re-adds and deletes random hashes (the two
// reserved values among them) and checks the set answers as a map does.
func TestKeySetAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s keySet
	want := map[uint64]bool{}
	pick := func() uint64 {
		switch r.IntN(50) {
		case 0:
			return empty
		case 1:
			return tomb
		}
		return r.Uint64N(30_000) * 0x9e3779b97f4a7c15
	}
	for i := range 200_000 {
		h := pick()
		if i%7 == 0 {
			s.Delete(h)
			delete(want, norm(h))
			continue
		}
		if added := s.Add(h); added == want[norm(h)] {
			t.Fatalf("Add(%#x) = %v with the hash already there: %v", h, added, want[norm(h)])
		}
		want[norm(h)] = true
	}
	if s.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", s.Len(), len(want))
	}
	for range 50_000 {
		h := pick()
		if s.Has(h) != want[norm(h)] {
			t.Fatalf("Has(%#x) = %v, want %v", h, s.Has(h), want[norm(h)])
		}
	}
	if load := float64(s.used) / float64(len(s.slots)); load > maxLoad {
		t.Errorf("load %.2f over %.2f", load, maxLoad)
	}
}

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
