package emulator

import "slices"

// ofUIDs is the items of list l (in field's order, of the kinds mask
// admits) whose uids are among uids and that keep passes (nil: all), in
// l's order: the answer of a uidp.ids filter. Each uid is found in the uid
// index, then in l by its key: two binary searches a uid, where filtered
// would read every item of l (a scope's thousands of repos, for the few a
// page of tags names). The items are exactly filtered's, in its order.
func (c *coll[T]) ofUIDs(l *blockList, field int, mask kindMask, uids []string, keep func(*T) bool) *blockList {
	type found struct {
		pos int
		id  int32
	}
	var in []found
	for _, uid := range uids {
		id, ok := c.find(uid)
		if !ok || keep != nil && !keep(&c.items[id]) {
			continue
		}
		k := c.key(field, id)
		p := l.search(func(x int32) bool { return c.cmpKey(field, x, k) >= 0 })
		if p < l.Len() && l.at(p) == id && mask1(mask, l.kindAt(p)) {
			in = append(in, found{p, id})
		}
	}
	// l's order, each item once (a uid may be asked for twice).
	slices.SortFunc(in, func(a, b found) int { return a.pos - b.pos })
	in = slices.CompactFunc(in, func(a, b found) bool { return a.pos == b.pos })
	ids := make([]int32, len(in))
	for i, f := range in {
		ids[i] = f.id
	}
	return buildBlockList(ids, nil, false)
}
