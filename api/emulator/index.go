package emulator

import (
	"cmp"
	"slices"
	"sort"
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

// blockSize is the granularity of the per-class counts kept beside a list.
const blockSize = 64

// posKey is the sort key of one item: the page cursor remembers the last item
// returned this way, so a cursor survives inserts and deletes.
type posKey struct {
	S   string `json:"s,omitempty"`
	N   int64  `json:"n,omitempty"`
	UID string `json:"u"`
}

// sortedList is one ordering of the items of one scope, with cumulative class
// counts per block when the collection has classes.
type sortedList struct {
	ids []int32
	cum [][numClasses]int32 // cum[b][c]: items of class c in ids[:b*blockSize]
}

// scopeIdx holds the orderings of the items of one scope.
type scopeIdx struct {
	lists [numFields]sortedList
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
// items (global), the descendants of each uid and the children of each uid.
// Items are never moved; a deleted slot stays dead.
type coll[T any] struct {
	acc      accessors[T]
	items    []T
	dead     []bool
	live     int
	global   scopeIdx
	desc     map[string]*scopeIdx
	children map[string]*scopeIdx
}

func newColl[T any](acc accessors[T]) *coll[T] {
	return &coll[T]{acc: acc, desc: map[string]*scopeIdx{}, children: map[string]*scopeIdx{}}
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

// scopesOf calls fn with every index an item of this uid belongs to.
func (c *coll[T]) scopesOf(uid string, create bool, fn func(*scopeIdx)) {
	fn(&c.global)
	get := func(m map[string]*scopeIdx, k string) {
		s := m[k]
		if s == nil {
			if !create {
				return
			}
			s = &scopeIdx{}
			m[k] = s
		}
		fn(s)
	}
	parent := ""
	for i := 0; i < len(uid); i++ {
		if uid[i] == '/' {
			parent = uid[:i]
			get(c.desc, parent)
		}
	}
	get(c.children, parent)
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
	c.global = scopeIdx{}
	clear(c.desc)
	clear(c.children)
	// The four sorts are independent: run them side by side.
	var sorted [numFields][]int32
	var wg sync.WaitGroup
	for f := range numFields {
		sorted[f] = slices.Clone(ids)
		wg.Go(func() { slices.SortFunc(sorted[f], func(a, b int32) int { return c.cmpIDs(f, a, b) }) })
	}
	wg.Wait()
	for f := range numFields {
		for _, id := range sorted[f] {
			c.scopesOf(c.acc.uid(&c.items[id]), true, func(s *scopeIdx) {
				s.lists[f].ids = append(s.lists[f].ids, id)
			})
		}
	}
	c.eachList(func(l *sortedList) { c.recount(l) })
}

func (c *coll[T]) eachList(fn func(*sortedList)) {
	for f := range numFields {
		fn(&c.global.lists[f])
	}
	for _, m := range []map[string]*scopeIdx{c.desc, c.children} {
		for _, s := range m {
			for f := range numFields {
				fn(&s.lists[f])
			}
		}
	}
}

// recount rebuilds a list's block counts.
func (c *coll[T]) recount(l *sortedList) {
	if c.acc.class == nil {
		return
	}
	l.cum = l.cum[:0]
	var run [numClasses]int32
	for i, id := range l.ids {
		if i%blockSize == 0 {
			l.cum = append(l.cum, run)
		}
		run[c.classOf(id)]++
	}
	l.cum = append(l.cum, run)
}

// insert adds an item and indexes it everywhere.
func (c *coll[T]) insert(it T) int32 {
	id := c.add(it)
	c.index(id)
	return id
}

func (c *coll[T]) index(id int32) {
	c.scopesOf(c.acc.uid(&c.items[id]), true, func(s *scopeIdx) {
		for f := range numFields {
			l := &s.lists[f]
			k := c.key(f, id)
			i := sort.Search(len(l.ids), func(i int) bool { return c.cmpKey(f, l.ids[i], k) >= 0 })
			l.ids = slices.Insert(l.ids, i, id)
			c.recount(l)
		}
	})
}

func (c *coll[T]) unindex(id int32) {
	c.scopesOf(c.acc.uid(&c.items[id]), false, func(s *scopeIdx) {
		for f := range numFields {
			l := &s.lists[f]
			k := c.key(f, id)
			i := sort.Search(len(l.ids), func(i int) bool { return c.cmpKey(f, l.ids[i], k) >= 0 })
			if i < len(l.ids) && l.ids[i] == id {
				l.ids = slices.Delete(l.ids, i, i+1)
				c.recount(l)
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
	c.unindex(id)
	c.dead[id] = true
	c.live--
}

// find returns the id of the item with this uid by binary search.
func (c *coll[T]) find(uid string) (int32, bool) {
	l := &c.global.lists[fieldUID]
	k := posKey{UID: uid}
	i := sort.Search(len(l.ids), func(i int) bool { return c.cmpKey(fieldUID, l.ids[i], k) >= 0 })
	if i < len(l.ids) && c.acc.uid(&c.items[l.ids[i]]) == uid {
		return l.ids[i], true
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
	return &c.global
}

// count is the number of live items in a scope (children of parent when
// direct, else descendants).
func (c *coll[T]) count(parent string, direct bool) int {
	m := c.desc
	if direct {
		m = c.children
	}
	if s := m[parent]; s != nil {
		return len(s.lists[fieldUID].ids)
	}
	return 0
}

// pageReq is one page of a list, in list positions.
type pageReq struct {
	field int
	desc  bool
	mask  uint8
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

// visibleBefore counts the items of l[:p] whose class is admitted by mask.
func (c *coll[T]) visibleBefore(l *sortedList, mask uint8, p int) int {
	if c.acc.class == nil || mask == maskAll {
		return p
	}
	b := p / blockSize
	n := 0
	for cl := range numClasses {
		if mask&(1<<cl) != 0 {
			n += int(l.cum[b][cl])
		}
	}
	for _, id := range l.ids[b*blockSize : p] {
		if mask&(1<<c.classOf(id)) != 0 {
			n++
		}
	}
	return n
}

// rawPos is the list position of the r-th (0-based) admitted item.
func (c *coll[T]) rawPos(l *sortedList, mask uint8, r int) int {
	if c.acc.class == nil || mask == maskAll {
		return r
	}
	blockCount := func(b int) int {
		n := 0
		for cl := range numClasses {
			if mask&(1<<cl) != 0 {
				n += int(l.cum[b][cl])
			}
		}
		return n
	}
	// The last block whose start has at most r admitted items before it.
	b := sort.Search(len(l.cum), func(b int) bool { return blockCount(b) > r }) - 1
	n := blockCount(b)
	for p := b * blockSize; p < len(l.ids); p++ {
		if mask&(1<<c.classOf(l.ids[p])) != 0 {
			if n == r {
				return p
			}
			n++
		}
	}
	return len(l.ids)
}

// page answers one page of list l without sorting or scanning the list.
func (c *coll[T]) page(l *sortedList, q pageReq) pageResult {
	var res pageResult
	if l == nil {
		return res
	}
	total := c.visibleBefore(l, q.mask, len(l.ids))
	res.total = total
	// start: the view rank (0-based, in the requested direction) of the first item after the cursor.
	start := 0
	if q.after != nil {
		if !q.desc {
			p := sort.Search(len(l.ids), func(i int) bool { return c.cmpKey(q.field, l.ids[i], *q.after) > 0 })
			start = c.visibleBefore(l, q.mask, p)
		} else {
			p := sort.Search(len(l.ids), func(i int) bool { return c.cmpKey(q.field, l.ids[i], *q.after) >= 0 })
			start = total - c.visibleBefore(l, q.mask, p)
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
	p := c.rawPos(l, q.mask, rank)
	for len(res.ids) < n && p >= 0 && p < len(l.ids) {
		id := l.ids[p]
		if q.mask == maskAll || mask1(q.mask, c.classOf(id)) {
			res.ids = append(res.ids, id)
		}
		if q.desc {
			p--
		} else {
			p++
		}
	}
	res.more = start+len(res.ids) < total
	return res
}

func mask1(mask, class uint8) bool { return mask&(1<<class) != 0 }

// filtered builds a temporary list of the items of l (in field order) that
// keep passes; used for filters no index answers (names, advisory ids, scope
// of a non-admin caller). It costs a scan of l.
func (c *coll[T]) filtered(l *sortedList, mask uint8, keep func(*T) bool) *sortedList {
	out := &sortedList{}
	if l == nil {
		return out
	}
	for _, id := range l.ids {
		if mask1(mask, c.classOf(id)) && keep(&c.items[id]) {
			out.ids = append(out.ids, id)
		}
	}
	return out
}
