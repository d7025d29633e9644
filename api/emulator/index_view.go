package emulator

import (
	"cmp"
	"slices"

	"canopy/api"
)

// A collection of tags may have main scopes: the descendants of a group
// that holds all but a few of its items (the large demo's organization
// holds 10⁶ tags, the other one 195; its folder of teams all but 1%).
// Such a scope's four lists would be the global ones less those few, 16
// bytes a tag: instead, every entry of every list carries, beside its
// class, which main scopes its item lies in (its kind), the lists count
// kinds as they count classes, and a main scope is the global lists read
// through a mask of its kinds. A page of it is found as one of hidden
// classes is: by the counts, then a walk that skips what the mask does
// not admit; its positions, skips and tokens are those of a scope of its
// own.

// pickMains chooses the main scopes of a collection about to be built
// from ids, its live items: the largest groups (at most numMains) that
// hold all but 1/mainShare of them. Only classed collections with
// parents (tags) have any, and never a group an item lies directly in
// (whose children are its descendants: one scope under both maps).
func (c *coll[T]) pickMains(ids []int32) []string {
	if c.acc.mainShare == 0 || c.acc.class == nil || c.acc.parent == nil || len(ids) == 0 {
		return nil
	}
	per := map[string]int{}
	direct := map[string]bool{}
	// A repo's tags come one after another: counted by runs, its
	// ancestors are looked up once a run, not once a tag.
	count := func(p string, n int) {
		direct[p] = true
		for i := range len(p) {
			if p[i] == '/' {
				per[p[:i]] += n
			}
		}
		per[p] += n
	}
	run, n := "", 0
	for _, id := range ids {
		if p := c.acc.parent(&c.items[id]); p != run {
			if n > 0 {
				count(run, n)
			}
			run, n = p, 0
		}
		n++
	}
	count(run, n)
	var mains []string
	for g, n := range per {
		if !direct[g] && (len(ids)-n)*c.acc.mainShare <= len(ids) {
			mains = append(mains, g)
		}
	}
	// They are nested (each holds most items): the outermost first.
	slices.SortFunc(mains, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
	return mains[:min(len(mains), numMains)]
}

// inScope says whether an item lies below group.
func (c *coll[T]) inScope(it *T, group string) bool {
	p := c.acc.parent(it)
	return p == group || api.IsDescendant(p, group)
}

// listIn is scope s's list in field f's order and the mask over kinds
// that reads the items of classes mask (over classes) from it.
func (c *coll[T]) listIn(s *scopeIdx, f int, mask uint8) (*blockList, kindMask) {
	var kinds kindMask
	for k := range numKinds {
		in := s == nil || s.view == 0 || (k/numClasses)&(1<<(s.view-1)) != 0
		if in && mask1(kindMask(mask&maskAll), uint8(k%numClasses)) {
			kinds |= 1 << k
		}
	}
	return c.list(s, f), kinds
}

// size is the number of live items in scope s.
func (c *coll[T]) size(s *scopeIdx) int {
	switch {
	case s == nil:
		return 0
	case s.view != 0:
		l, kinds := c.listIn(s, fieldUID, maskAll)
		return l.visibleBefore(kinds, l.Len())
	}
	return s.lists[fieldUID].Len()
}
