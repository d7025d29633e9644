package emulator

import (
	"slices"
	"sync"
)

// build indexes every item at once (seeding adds them unindexed). It sorts
// every item once per field and deals the sorted ids out to the scopes in
// order, so no scope needs its own sort; the lists of every scope are cut
// from one array, sized exactly beforehand, so that a million tags are not
// also a few hundred thousand small allocations and slices grown by
// doubling.
func (c *coll[T]) build() {
	ids := make([]int32, 0, c.live)
	for i := range c.items {
		if !c.dead[i] {
			ids = append(ids, int32(i))
		}
	}
	clear(c.desc)
	clear(c.children)
	clear(c.byName)
	c.bigNames()
	// The main scopes, if any, before the kinds are read (classOf).
	c.mains = c.pickMains(ids)
	for j, m := range c.mains {
		c.desc[m] = &scopeIdx{view: int8(1 + j)}
	}
	c.global = c.newScope()
	// The four sorts are independent: run them side by side.
	var sorted [numFields][]int32
	var wg sync.WaitGroup
	for f := range numFields {
		sorted[f] = slices.Clone(ids)
		wg.Go(func() { slices.SortFunc(sorted[f], func(a, b int32) int { return c.cmpIDs(f, a, b) }) })
	}
	// Meanwhile, every item's scopes, found once (the map lookups are what
	// costs) and numbered in the order they appear.
	var scopes []*scopeIdx
	var size []int
	flat := make([]int32, 0, 2*len(ids))
	from := make([]int32, len(c.items)+1)
	cls := make([]uint8, len(c.items))
	for i := range c.items {
		from[i] = int32(len(flat))
		if c.dead[i] {
			continue
		}
		cls[i] = c.classOf(int32(i))
		c.scopesOf(int32(i), true, func(s *scopeIdx) {
			if s.seq == 0 {
				scopes = append(scopes, s)
				size = append(size, 0)
				s.seq = int32(len(scopes))
			}
			size[s.seq-1]++
			flat = append(flat, s.seq-1)
		})
	}
	from[len(c.items)] = int32(len(flat))
	wg.Wait()
	// Each scope's runs in the array: one per field, or the uid one alone
	// for a small scope.
	start := make([]int, len(scopes))
	total := 0
	for k, n := range size {
		start[k] = total
		if n <= c.acc.small {
			total += n
		} else {
			total += numFields * n
		}
	}
	arena := make([]int32, total)
	cur := make([]int, len(scopes))
	for f := range numFields {
		for k, n := range size {
			cur[k] = -1
			if f == fieldUID || n > c.acc.small {
				cur[k] = start[k] + f*n
			}
		}
		for _, id := range sorted[f] {
			e := pack(id, cls[id])
			for _, k := range flat[from[id]:from[id+1]] {
				if cur[k] >= 0 {
					arena[cur[k]] = e
					cur[k]++
				}
			}
		}
		sorted[f] = nil
	}
	classed := c.acc.class != nil
	for k, s := range scopes {
		n := size[k]
		for f := range numFields {
			if f == fieldUID || n > c.acc.small {
				at := start[k] + f*n
				s.lists[f] = blocksOf(arena[at:at+n:at+n], classed)
			}
		}
	}
}
