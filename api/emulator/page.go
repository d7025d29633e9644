package emulator

// pageReq is one page of a list, in list positions.
type pageReq struct {
	field int
	desc  bool
	mask  kindMask
	after *posKey // cursor: the last item of the previous page
	skip  int
	size  int
}

// pageResult is what a page query found.
type pageResult struct {
	ids     []int32
	total   int
	skipped int
	more    bool
}

// page answers one page of list l without sorting or scanning the list.
func (c *coll[T]) page(l *blockList, q pageReq) pageResult {
	var res pageResult
	if l == nil {
		return res
	}
	total := l.visibleBefore(q.mask, l.Len())
	res.total = total
	// start: the view rank (0-based, in the requested direction) of the first item after the cursor.
	start := 0
	if q.after != nil {
		if !q.desc {
			p := l.search(func(x int32) bool { return c.cmpKey(q.field, x, *q.after) > 0 })
			start = l.visibleBefore(q.mask, p)
		} else {
			p := l.search(func(x int32) bool { return c.cmpKey(q.field, x, *q.after) >= 0 })
			start = total - l.visibleBefore(q.mask, p)
		}
	}
	res.skipped = min(q.skip, total-start)
	start += res.skipped
	n := min(q.size, total-start)
	if n <= 0 {
		return res
	}
	res.ids = make([]int32, 0, n)
	rank := start
	if q.desc {
		rank = total - 1 - start
	}
	l.walk(l.rawPos(q.mask, rank), !q.desc, func(id int32, cls uint8) bool {
		if mask1(q.mask, cls) {
			res.ids = append(res.ids, id)
		}
		return len(res.ids) < n
	})
	res.more = start+len(res.ids) < total
	return res
}

func mask1(mask kindMask, kind uint8) bool { return mask&(1<<kind) != 0 }

// filtered builds a temporary list of the items of l (in field order) that
// keep passes; used for filters no index answers (advisory ids and text, a
// name within a scope, the scope of a non-admin caller outside the
// registry). It costs a scan of l.
func (c *coll[T]) filtered(l *blockList, mask kindMask, keep func(*T) bool) *blockList {
	var ids []int32
	l.walk(0, true, func(id int32, cls uint8) bool {
		if mask1(mask, cls) && keep(&c.items[id]) {
			ids = append(ids, id)
		}
		return true
	})
	return buildBlockList(ids, nil, false)
}

// below is the items of scope s that lie below group (its descendants), in
// field order, of the classes mask admits. In the scope's uid order they
// are one range, found by two binary searches, so no item is read: the
// range's ids are then picked out of the field's list.
func (c *coll[T]) below(s *scopeIdx, field int, group string, mask kindMask) *blockList {
	u := s.lists[fieldUID]
	from, to := posKey{UID: group + "/"}, posKey{UID: group + "0"} // '0' follows '/'
	lo := u.search(func(x int32) bool { return c.cmpKey(fieldUID, x, from) >= 0 })
	hi := u.search(func(x int32) bool { return c.cmpKey(fieldUID, x, to) >= 0 })
	var ids []int32
	if field == fieldUID {
		n := 0
		u.walk(lo, true, func(id int32, cls uint8) bool {
			if n == hi-lo {
				return false
			}
			n++
			if mask1(mask, cls) {
				ids = append(ids, id)
			}
			return true
		})
		return buildBlockList(ids, nil, false)
	}
	in := make(map[int32]struct{}, hi-lo)
	n := 0
	u.walk(lo, true, func(id int32, _ uint8) bool {
		if n == hi-lo {
			return false
		}
		n++
		in[id] = struct{}{}
		return true
	})
	c.list(s, field).walk(0, true, func(id int32, cls uint8) bool {
		if _, ok := in[id]; ok && mask1(mask, cls) {
			ids = append(ids, id)
		}
		return true
	})
	return buildBlockList(ids, nil, false)
}
