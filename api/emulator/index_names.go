package emulator

// A collection of name ranges (accessors.nameRanges) keeps a scope for a
// name only when more than small items have it: the others are a range
// of the global list by name, found by binary search and sorted in
// another order when asked, as a small scope is. A name's scope, once
// made, holds every item of that name until the next build.

// bigName is the scope of name, an item id's, in a collection of name
// ranges: the one it has, or with create one made now when the name's
// items (id among them: the global list has it already) grew past small,
// of them all but id (which the caller adds); nil while it has none.
func (c *coll[T]) bigName(name string, id int32, create bool) *scopeIdx {
	if s := c.byName[name]; s != nil || !create {
		return s
	}
	n := 0
	c.eachNamed(name, "", func(int32, uint8) bool { n++; return n <= c.acc.small })
	if n <= c.acc.small {
		return nil
	}
	var es []int32
	c.eachNamed(name, "", func(x int32, cls uint8) bool {
		if x != id {
			es = append(es, pack(x, cls))
		}
		return true
	})
	s := &scopeIdx{}
	s.lists[fieldUID] = blocksOf(es, c.acc.class != nil)
	c.grow(s)
	c.byName[name] = s
	return s
}

// bigNames gives the names of more than small items an empty scope each,
// for a build to fill (a collection of name ranges).
func (c *coll[T]) bigNames() {
	if !c.acc.nameRanges {
		return
	}
	count := map[string]int{}
	for i := range c.items {
		if !c.dead[i] {
			count[c.acc.name(&c.items[i])]++
		}
	}
	for name, n := range count {
		if n > c.acc.small {
			c.byName[name] = c.newScope()
		}
	}
}

// named is the scope of the items named name: its own, or in a
// collection of name ranges without one, a small one made now of the
// range (its other orders sorted when asked); nil when none has it.
func (c *coll[T]) named(name string) *scopeIdx {
	if s := c.byName[name]; s != nil || !c.acc.nameRanges {
		return s
	}
	var es []int32
	c.eachNamed(name, "", func(id int32, cls uint8) bool {
		es = append(es, pack(id, cls))
		return true
	})
	if len(es) == 0 {
		return nil
	}
	s := &scopeIdx{}
	s.lists[fieldUID] = blocksOf(es, c.acc.class != nil)
	return s
}

// eachNamed calls fn with the items named name whose uids begin with
// prefix (which ends in '/', or is ""), in uid order, until it returns
// false: a binary search into the name's own scope, or into the global
// list by name.
func (c *coll[T]) eachNamed(name, prefix string, fn func(id int32, cls uint8) bool) {
	l, f, k := (*blockList)(nil), fieldUID, posKey{UID: prefix}
	if s := c.byName[name]; s != nil {
		l = s.lists[fieldUID]
	} else if c.acc.nameRanges {
		l, f, k.S = c.list(c.global, fieldName), fieldName, name
	}
	if l == nil {
		return
	}
	// The uids that begin with prefix sort before end ('0' follows '/');
	// compared without making them.
	end := ""
	if prefix != "" {
		end = prefix[:len(prefix)-1] + "0"
	}
	l.walk(l.search(func(x int32) bool { return c.cmpKey(f, x, k) >= 0 }), true, func(id int32, cls uint8) bool {
		it := &c.items[id]
		if c.acc.name(it) != name || end != "" && c.cmpUID(it, end) >= 0 {
			return false
		}
		return fn(id, cls)
	})
}
