package emulator

// find returns the id of the item with this uid by binary search.
func (c *coll[T]) find(uid string) (int32, bool) {
	l := c.global.lists[fieldUID]
	k := posKey{UID: uid}
	i := l.search(func(x int32) bool { return c.cmpKey(fieldUID, x, k) >= 0 })
	if i < l.Len() {
		if id := l.at(i); c.cmpUID(&c.items[id], uid) == 0 {
			return id, true
		}
	}
	return 0, false
}

// get returns a pointer to the live item with this uid.
func (c *coll[T]) get(uid string) (*T, bool) {
	id, ok := c.find(uid)
	if !ok {
		return nil, false
	}
	return &c.items[id], true
}

// scope picks the index for a hierarchy filter: children (or descendants) of
// uid, or everything when uid is "" and neither is asked.
func (c *coll[T]) scope(descendantsOf, childrenOf string, inRoot bool) *scopeIdx {
	switch {
	case inRoot:
		return c.children[""]
	case childrenOf != "":
		return c.children[childrenOf]
	case descendantsOf != "":
		return c.desc[descendantsOf]
	}
	return c.global
}

// childIDs is the ids of the live items directly under parent, by uid.
func (c *coll[T]) childIDs(parent string) []int32 {
	if s := c.children[parent]; s != nil {
		return s.lists[fieldUID].all()
	}
	return nil
}

// count is the number of live items in a scope (children of parent when
// direct, else descendants).
func (c *coll[T]) count(parent string, direct bool) int {
	m := c.desc
	if direct {
		m = c.children
	}
	return c.size(m[parent])
}
