package api

import "math/bits"

// keySet holds the 64-bit hashes of the uids of the loaded items, to
// de-duplicate pages. Go's map[uint64]struct{} costs ~38 bytes per entry at
// 10⁶ entries (measured); this set costs 8.4–12.7, which is a tenth of
// what a loaded tag costs in all.
//
// It is open addressing over buckets of 8 slots (one cache line), probed
// bucket after bucket, so it can be kept 95% full and still find a free
// slot within a bucket or two. The bucket count is not a power of two: it
// grows by half (fastrange maps a hash to a bucket), so the load stays
// between 63% and 95% at any size instead of halving at each doubling.
type keySet struct {
	slots []uint64 // len = 8 × buckets; empty and tomb mark free slots
	used  int      // slots holding a hash or a tomb
	n     int      // hashes held
}

const (
	bucketSlots = 8
	empty       = 0
	tomb        = ^uint64(0) // a removed hash: probing goes on past it
	maxLoad     = 0.95
	minLoad     = 0.63 // the load just after growing by half from maxLoad
	minBuckets  = 2
)

// norm keeps the two reserved values out of the set. Folding them onto
// their neighbours costs a collision chance of 2⁻⁶³, far below that of the
// 64-bit hash itself.
func norm(h uint64) uint64 {
	switch h {
	case empty:
		return 1
	case tomb:
		return tomb - 1
	}
	return h
}

func (s *keySet) buckets() int { return len(s.slots) / bucketSlots }

// home is the first bucket probed for h.
func (s *keySet) home(h uint64) int {
	hi, _ := bits.Mul64(h, uint64(s.buckets()))
	return int(hi)
}

// find returns the slot holding h, or -1.
func (s *keySet) find(h uint64) int {
	if s.n == 0 {
		return -1
	}
	nb := s.buckets()
	for b, i := s.home(h), 0; i < nb; b, i = b+1, i+1 {
		if b == nb {
			b = 0
		}
		for j := b * bucketSlots; j < (b+1)*bucketSlots; j++ {
			switch s.slots[j] {
			case h:
				return j
			case empty:
				return -1
			}
		}
	}
	return -1
}

// Has reports whether h is in the set.
func (s *keySet) Has(h uint64) bool { return s.find(norm(h)) >= 0 }

// Add puts h in the set and reports whether it was new.
func (s *keySet) Add(h uint64) bool {
	h = norm(h)
	if s.find(h) >= 0 {
		return false
	}
	if float64(s.used+1) > maxLoad*float64(len(s.slots)) {
		s.grow()
	}
	s.place(h)
	s.n++
	s.used++
	return true
}

// place writes h in the first empty slot of its probe sequence (tombs are
// not reused, so a later find never stops short of an equal hash).
func (s *keySet) place(h uint64) {
	nb := s.buckets()
	for b := s.home(h); ; b++ {
		if b == nb {
			b = 0
		}
		for j := b * bucketSlots; j < (b+1)*bucketSlots; j++ {
			if s.slots[j] == empty {
				s.slots[j] = h
				return
			}
		}
	}
}

// grow re-places every hash, dropping tombs, in a table half as large
// again; or as large as it was when tombs took most of the room (a set
// that forgets as it learns, see RestartDetector.Window, stays its size).
func (s *keySet) grow() {
	old := s.slots
	nb := s.buckets()
	if float64(s.n+1) > minLoad*float64(len(s.slots)) {
		nb += nb / 2
	}
	nb = max(minBuckets, nb, int(float64(s.n+1)/(maxLoad*bucketSlots))+1)
	s.slots = make([]uint64, nb*bucketSlots)
	s.used = s.n
	for _, h := range old {
		if h != empty && h != tomb {
			s.place(h)
		}
	}
}

// Delete removes h if it is there.
func (s *keySet) Delete(h uint64) {
	if j := s.find(norm(h)); j >= 0 {
		s.slots[j] = tomb
		s.n--
	}
}

// Reset empties the set and gives its memory back.
func (s *keySet) Reset() { *s = keySet{} }

// Len is the number of hashes held.
func (s *keySet) Len() int { return s.n }
