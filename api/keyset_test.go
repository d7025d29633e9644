package api

import (
	"math/rand/v2"
	"testing"
)

// TestKeySetAgainstMap adds, re-adds and deletes random hashes (the two
// reserved values among them) and checks the set answers as a map does.
func TestKeySetAgainstMap(t *testing.T) {
	t.Parallel()
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
