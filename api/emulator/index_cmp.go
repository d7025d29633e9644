package emulator

import (
	"cmp"
	"strings"
)

// key is item id's sort key in field's order: what a page token keeps.
func (c *coll[T]) key(field int, id int32) posKey {
	it := &c.items[id]
	k := posKey{UID: c.acc.uid(it)}
	switch field {
	case fieldName:
		k.S = c.acc.name(it)
	case fieldCreate:
		k.N = c.acc.ctime(it)
	case fieldUpdate:
		k.N = c.acc.utime(it)
	}
	return k
}

// cmpUID compares an item's uid with uid.
func (c *coll[T]) cmpUID(it *T, uid string) int {
	if c.acc.cmpUID != nil {
		return c.acc.cmpUID(it, uid)
	}
	return strings.Compare(c.acc.uid(it), uid)
}

// cmpKey compares item id with k in the given field's order (uid breaks ties).
func (c *coll[T]) cmpKey(field int, id int32, k posKey) int {
	it := &c.items[id]
	var r int
	switch field {
	case fieldName:
		r = strings.Compare(c.acc.name(it), k.S)
	case fieldCreate:
		r = cmp.Compare(c.acc.ctime(it), k.N)
	case fieldUpdate:
		r = cmp.Compare(c.acc.utime(it), k.N)
	}
	if r != 0 {
		return r
	}
	return c.cmpUID(it, k.UID)
}

// cmpIDs compares items a and b in the given field's order (uid breaks ties).
func (c *coll[T]) cmpIDs(field int, a, b int32) int {
	x, y := &c.items[a], &c.items[b]
	var r int
	switch field {
	case fieldName:
		if c.acc.cmpNames != nil {
			r = c.acc.cmpNames(x, y)
		} else {
			r = strings.Compare(c.acc.name(x), c.acc.name(y))
		}
	case fieldCreate:
		r = cmp.Compare(c.acc.ctime(x), c.acc.ctime(y))
	case fieldUpdate:
		r = cmp.Compare(c.acc.utime(x), c.acc.utime(y))
	}
	if r != 0 {
		return r
	}
	if c.acc.cmpUIDs != nil {
		return c.acc.cmpUIDs(x, y)
	}
	return strings.Compare(c.acc.uid(x), c.acc.uid(y))
}
