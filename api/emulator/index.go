package emulator

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// Sort fields every collection is indexed by.
const (
	fieldUID = iota
	fieldName
	fieldCreate
	fieldUpdate
	numFields
)

// Tag classes: tags hidden by default are indexed with their class so that a
// list can count and skip them without scanning.
const (
	classNormal = iota
	classReferrer
	classEpoch
	classDate
	numClasses
)

// maskAll admits every class.
const maskAll uint8 = 1<<numClasses - 1

// posKey is the sort key of one item: the page cursor remembers the last item
// returned this way, so a cursor survives inserts and deletes.
type posKey struct {
	S   string `json:"s,omitempty"`
	N   int64  `json:"n,omitempty"`
	UID string `json:"u"`
}

// scopeIdx holds the orderings of the items of one scope.
type scopeIdx struct {
	lists      [numFields]*blockList
	pending    [numFields][]int32 // build's sorted ids, until they become lists
	pendingCls [numFields][]uint8 // and their classes
}

// accessors tell a collection how to read the sort keys of its items.
type accessors[T any] struct {
	uid   func(*T) string
	name  func(*T) string
	ctime func(*T) int64
	utime func(*T) int64
	class func(*T) uint8 // nil: every item is classNormal
}

// coll is a collection of one resource with sorted indexes per scope: all
// items (global), the descendants of each uid, the children of each uid,
// and the items of each name. Items are never moved; a deleted slot stays
// dead.
type coll[T any] struct {
	acc      accessors[T]
	items    []T
	dead     []bool
	live     int
	global   *scopeIdx
	desc     map[string]*scopeIdx
	children map[string]*scopeIdx
	byName   map[string]*scopeIdx
}

func newColl[T any](acc accessors[T]) *coll[T] {
	c := &coll[T]{acc: acc, desc: map[string]*scopeIdx{}, children: map[string]*scopeIdx{}, byName: map[string]*scopeIdx{}}
	c.global = c.newScope()
	return c
}

func (c *coll[T]) newScope() *scopeIdx {
	s := &scopeIdx{}
	for f := range numFields {
		s.lists[f] = newBlockList(c.acc.class != nil)
	}
	return s
}

func (c *coll[T]) classOf(id int32) uint8 {
	if c.acc.class == nil {
		return classNormal
	}
	return c.acc.class(&c.items[id])
}

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
	return strings.Compare(c.acc.uid(it), k.UID)
}

func (c *coll[T]) cmpIDs(field int, a, b int32) int {
	return c.cmpKey(field, a, c.key(field, b))
}

// scopesOf calls fn with every index item id belongs to: the global one, the
// descendants of each of its ancestors, the children of its parent, and
// its name's. create makes the missing ones.
func (c *coll[T]) scopesOf(id int32, create bool, fn func(*scopeIdx)) {
	fn(c.global)
	get := func(m map[string]*scopeIdx, k string) {
		s := m[k]
		if s == nil {
			if !create {
				return
			}
			s = c.newScope()
			m[k] = s
		}
		fn(s)
	}
	uid := c.acc.uid(&c.items[id])
	parent := ""
	for i := 0; i < len(uid); i++ {
		if uid[i] == '/' {
			parent = uid[:i]
			get(c.desc, parent)
		}
	}
	get(c.children, parent)
	get(c.byName, c.acc.name(&c.items[id]))
}

// add appends an item without indexing it (seeding indexes everything at once
// with build).
func (c *coll[T]) add(it T) int32 {
	c.items = append(c.items, it)
	c.dead = append(c.dead, false)
	c.live++
	return int32(len(c.items) - 1)
}

// build sorts every item once per field and distributes the sorted ids to the
// scopes in order, so no scope needs its own sort.
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
	c.global = c.newScope()
	// The four sorts are independent: run them side by side.
	var sorted [numFields][]int32
	var wg sync.WaitGroup
	for f := range numFields {
		sorted[f] = slices.Clone(ids)
		wg.Go(func() { slices.SortFunc(sorted[f], func(a, b int32) int { return c.cmpIDs(f, a, b) }) })
	}
	wg.Wait()
	// Every item's scopes, found once: the map lookups are what costs.
	classed := c.acc.class != nil
	var flat []*scopeIdx
	from := make([]int32, len(c.items)+1)
	cls := make([]uint8, len(c.items))
	for i := range c.items {
		from[i] = int32(len(flat))
		if !c.dead[i] {
			c.scopesOf(int32(i), true, func(s *scopeIdx) { flat = append(flat, s) })
			cls[i] = c.classOf(int32(i))
		}
	}
	from[len(c.items)] = int32(len(flat))
	for f := range numFields {
		for _, id := range sorted[f] {
			for _, s := range flat[from[id]:from[id+1]] {
				s.pending[f] = append(s.pending[f], id)
				if classed {
					s.pendingCls[f] = append(s.pendingCls[f], cls[id])
				}
			}
		}
	}
	finish := func(s *scopeIdx) {
		for f := range numFields {
			s.lists[f] = buildBlockList(s.pending[f], s.pendingCls[f], classed)
			s.pending[f], s.pendingCls[f] = nil, nil
		}
	}
	finish(c.global)
	for _, m := range []map[string]*scopeIdx{c.desc, c.children, c.byName} {
		for _, s := range m {
			finish(s)
		}
	}
}

// insert adds an item and indexes it everywhere.
func (c *coll[T]) insert(it T) int32 {
	id := c.add(it)
	c.index(id)
	return id
}

func (c *coll[T]) index(id int32) {
	cls := c.classOf(id)
	c.scopesOf(id, true, func(s *scopeIdx) {
		for f := range numFields {
			k := c.key(f, id)
			l := s.lists[f]
			l.insert(l.search(func(x int32) bool { return c.cmpKey(f, x, k) >= 0 }), id, cls)
		}
	})
}

// position is where id is in l (ok false when it is not there).
func (c *coll[T]) position(l *blockList, f int, id int32) (int, bool) {
	k := c.key(f, id)
	i := l.search(func(x int32) bool { return c.cmpKey(f, x, k) >= 0 })
	return i, i < l.Len() && l.at(i) == id
}

func (c *coll[T]) unindex(id int32) {
	c.scopesOf(id, false, func(s *scopeIdx) {
		for f := range numFields {
			if i, ok := c.position(s.lists[f], f, id); ok {
				s.lists[f].remove(i)
			}
		}
	})
}

// update replaces an item, keeping every index in order.
func (c *coll[T]) update(id int32, it T) {
	c.unindex(id)
	c.items[id] = it
	c.index(id)
}

// remove deletes an item.
func (c *coll[T]) remove(id int32) {
	c.removeAll([]int32{id})
}

// removeAll deletes items in one pass per index: each list they are in
// loses them with one rebuild of its counts, however many they are (a
// repo's tags).
func (c *coll[T]) removeAll(ids []int32) {
	at := map[*blockList][]int{}
	for _, id := range ids {
		c.scopesOf(id, false, func(s *scopeIdx) {
			for f := range numFields {
				if i, ok := c.position(s.lists[f], f, id); ok {
					at[s.lists[f]] = append(at[s.lists[f]], i)
				}
			}
		})
	}
	for l, ps := range at {
		l.removeMany(ps)
	}
	for _, id := range ids {
		c.dead[id] = true
		c.live--
	}
}

// find returns the id of the item with this uid by binary search.
func (c *coll[T]) find(uid string) (int32, bool) {
	l := c.global.lists[fieldUID]
	k := posKey{UID: uid}
	i := l.search(func(x int32) bool { return c.cmpKey(fieldUID, x, k) >= 0 })
	if i < l.Len() {
		if id := l.at(i); c.acc.uid(&c.items[id]) == uid {
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
	if s := m[parent]; s != nil {
		return s.lists[fieldUID].Len()
	}
	return 0
}
