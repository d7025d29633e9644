package emulator

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlockListMatchesASlice drives a blockList and a plain sorted slice
// with the same random inserts and deletes (splits and emptied blocks
// included) and compares every query after each step.
func TestBlockListMatchesASlice(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	classOf := func(id int32) uint8 { return uint8(id % numClasses) }
	var ref []int32 // kept sorted by id: the list's order here
	start := make([]int32, 0, 3000)
	for i := range 3000 {
		start = append(start, int32(i*1000))
	}
	ref = slices.Clone(start)
	cls := make([]uint8, len(start))
	for i, id := range start {
		cls[i] = classOf(id)
	}
	l := buildBlockList(start, cls, true)
	check := func(step int) {
		t.Helper()
		if l.Len() != len(ref) || !slices.Equal(l.all(), ref) {
			t.Fatalf("step %d: %d ids, want %d (or different ids)", step, l.Len(), len(ref))
		}
		for _, mask := range []kindMask{1, 1 | 4, 2 | 8, kindMask(maskAll), kindsAll} {
			p := rng.IntN(len(ref) + 1)
			want := 0
			for _, id := range ref[:p] {
				if mask1(mask, classOf(id)) {
					want++
				}
			}
			if got := l.visibleBefore(mask, p); got != want {
				t.Fatalf("step %d: visibleBefore(%b, %d) = %d, want %d", step, mask, p, got, want)
			}
			if rp := l.rawPos(mask, want); rp < len(ref) && (rp < p || !mask1(mask, classOf(ref[rp]))) {
				t.Fatalf("step %d: rawPos(%b, %d) = %d", step, mask, want, rp)
			}
		}
		x := int32(rng.IntN(3000 * 1000))
		if got, want := l.search(func(id int32) bool { return id >= x }), len(ref)-len(slices.DeleteFunc(slices.Clone(ref), func(id int32) bool { return id < x })); got != want {
			t.Fatalf("step %d: search(>= %d) = %d, want %d", step, x, got, want)
		}
		if len(ref) > 0 {
			p := rng.IntN(len(ref))
			var back []int32
			l.walk(p, false, func(id int32, cls uint8) bool {
				if cls != classOf(id) {
					t.Fatalf("walk: class %d for id %d", cls, id)
				}
				back = append(back, id)
				return len(back) < 700
			})
			want := slices.Clone(ref[max(0, p-699) : p+1])
			slices.Reverse(want)
			if !slices.Equal(back, want) {
				t.Fatalf("step %d: walk back from %d: %d ids", step, p, len(back))
			}
		}
	}
	for step := range 6000 {
		switch r := rng.IntN(100); {
		case r < 75 || len(ref) == 0: // insert, half the time in one place so that blocks split
			id := int32(rng.IntN(3000 * 1000))
			if rng.IntN(2) == 0 {
				id = 1_500_000 + int32(rng.IntN(100_000))
			}
			i, found := slices.BinarySearch(ref, id)
			if found {
				continue
			}
			ref = slices.Insert(ref, i, id)
			l.insert(l.search(func(x int32) bool { return x >= id }), id, classOf(id))
		case r < 99:
			p := rng.IntN(len(ref))
			ref = slices.Delete(ref, p, p+1)
			l.remove(p)
		default: // a batch, like a repo's tags
			n := min(len(ref), 1+rng.IntN(150))
			p0 := rng.IntN(len(ref) - n + 1)
			var ps []int
			for p := p0; p < p0+n; p += 1 + rng.IntN(2) {
				ps = append(ps, p)
			}
			for k := len(ps) - 1; k >= 0; k-- {
				ref = slices.Delete(ref, ps[k], ps[k]+1)
			}
			l.removeMany(ps)
		}
		if step%40 == 0 {
			check(step)
		}
	}
	check(-1)
	// Many inserts in one place split blocks; a batch that empties some
	// removes them.
	before := len(l.blocks)
	for i := range 3000 {
		id := int32(2_999_999 - 2*i)
		if j, found := slices.BinarySearch(ref, id); !found {
			ref = slices.Insert(ref, j, id)
			l.insert(l.search(func(x int32) bool { return x >= id }), id, classOf(id))
		}
	}
	if len(l.blocks) < before+3 {
		t.Fatalf("%d blocks after 3,000 inserts in one place, had %d", len(l.blocks), before)
	}
	check(-2)
	var ps []int
	for p := len(ref) / 3; p < len(ref)-10; p++ {
		ps = append(ps, p)
	}
	for k := len(ps) - 1; k >= 0; k-- {
		ref = slices.Delete(ref, ps[k], ps[k]+1)
	}
	l.removeMany(ps)
	check(-3)
	t.Logf("%d ids in %d blocks", l.Len(), len(l.blocks))
}
