package emulator

import "canopy/api"

// A collection of tags may have a main scope: the descendants of one
// organization, when it holds all but a few of them (the large demo's
// holds 10⁶ tags, the other 195). Its four lists would be the global
// ones less those few, 16 bytes a tag: instead, every entry of every
// list carries, beside its class, whether its item lies in the main
// scope (its kind), the lists count kinds as they count classes, and the
// main scope is the global lists read through kindsMain. A page of it is
// found as one of hidden classes is: by the counts, then a walk that
// skips what the mask does not admit; its positions, skips and tokens
// are those of a scope of its own.

// pickMain chooses the main scope of a collection about to be built from
// ids, its live items: the organization with all but 1/mainShare of them,
// or none (""). Only classed collections with parents (tags) have one, and
// never an organization an item lies directly in (whose children are its
// descendants: one scope under both maps).
func (c *coll[T]) pickMain(ids []int32) string {
	if c.acc.mainShare == 0 || c.acc.class == nil || c.acc.parent == nil || len(ids) == 0 {
		return ""
	}
	per := map[string]int{}
	direct := map[string]bool{}
	for _, id := range ids {
		p := c.acc.parent(&c.items[id])
		root := api.RootUID(p)
		per[root]++
		if root == p {
			direct[root] = true
		}
	}
	for root, n := range per {
		if !direct[root] && (len(ids)-n)*c.acc.mainShare <= len(ids) {
			return root
		}
	}
	return ""
}

// inMain says whether an item lies in the main scope.
func (c *coll[T]) inMain(it *T) bool {
	p := c.acc.parent(it)
	return p == c.main || api.IsDescendant(p, c.main)
}

// listIn is scope s's list in field f's order and the mask over kinds
// that reads the items of classes mask (over classes) from it.
func (c *coll[T]) listIn(s *scopeIdx, f int, mask uint8) (*blockList, uint8) {
	mask &= maskAll
	if s != nil && s.view {
		return c.list(s, f), mask << numClasses
	}
	return c.list(s, f), mask | mask<<numClasses
}

// size is the number of live items in scope s.
func (c *coll[T]) size(s *scopeIdx) int {
	switch {
	case s == nil:
		return 0
	case s.view:
		l := c.global.lists[fieldUID]
		return l.visibleBefore(kindsMain, l.Len())
	}
	return s.lists[fieldUID].Len()
}
