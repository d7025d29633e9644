package emulator

import "slices"

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

// A list entry's kind is its class, and numClasses<<j more when the item
// lies in the collection's main scope j (index_view.go): a mask over
// kinds reads such a scope out of the global lists.
const (
	numMains          = 2
	numKinds          = numClasses << numMains
	kindsAll kindMask = 1<<numKinds - 1
)

// kindMask admits the kinds whose bits it has.
type kindMask uint16

// posKey is the sort key of one item: the page cursor remembers the last item
// returned this way, so a cursor survives inserts and deletes.
type posKey struct {
	S   string `json:"s,omitempty"`
	N   int64  `json:"n,omitempty"`
	UID string `json:"u"`
}

// scopeIdx holds the orderings of the items of one scope. A small scope
// (at most accessors.small items when built or made) keeps its uid order only
// and sorts the others when asked (see list): most names are one tag's
// (signatures), and four lists of one id cost ten times the id.
type scopeIdx struct {
	lists [numFields]*blockList // [fieldUID] always; the others nil while small, or a view
	seq   int32                 // its number in the build that made it (1-based)
	// view: 1 + j for the collection's main scope j, which has no lists
	// of its own but reads the global ones through a mask (index_view.go);
	// 0 for any other.
	view int8
}

// smallScope is the most items a scope may have and keep its uid order
// only: sorting them for a request costs a few microseconds.
// smallTagScope is the same for tags: most repos have 50–250, and
// the three lists more would cost 12 bytes a tag, at 10⁶ tags (sorting
// 256 for a page takes ≈ 30 µs).
const (
	smallScope    = 32
	smallTagScope = 256
)

// accessors tell a collection how to read the sort keys of its items.
type accessors[T any] struct {
	uid   func(*T) string
	name  func(*T) string
	ctime func(*T) int64
	utime func(*T) int64
	class func(*T) uint8 // nil: every item is classNormal

	// For items whose uid is not stored whole (tags), so that an order or
	// a lookup does not make one; nil: the uid strings are compared.
	cmpUID  func(it *T, uid string) int // the item's uid against a uid
	cmpUIDs func(a, b *T) int           // two items' uids
	// cmpNames, when set, compares two items' names as strings.Compare
	// of name would, without making them: for names made on each call
	// (versions' keys), which sorting would otherwise make n log n times.
	cmpNames func(a, b *T) int
	// parent, when set, is the uid of the item's parent, which is of
	// another collection (a tag's repo): nothing of this collection lies
	// below an item, so the parent's descendants are its children, and
	// one index serves both.
	parent func(*T) string
	// small is the most items a scope keeps its uid order only for
	// (smallScope when 0).
	small int
	// nameRanges: the items of a name have a scope of their own only
	// when they are more than small (index_names.go); else they are a
	// range of the global list by name, in uid order there (ties are by
	// uid). Most tag names are one signature's: a scope each cost ≈ 250
	// bytes.
	nameRanges bool
	// mainShare, when set, lets a classed collection with parents keep
	// one organization's scope as a view of the global lists: when the
	// others hold at most 1/mainShare of the items (index_view.go).
	mainShare int
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
	// mains are the uids whose descendants are flagged in every list's
	// entries (their kind) and whose scopes are views of the global lists
	// (index_view.go).
	mains []string
}

func newColl[T any](acc accessors[T]) *coll[T] {
	if acc.small == 0 {
		acc.small = smallScope
	}
	c := &coll[T]{acc: acc, desc: map[string]*scopeIdx{}, children: map[string]*scopeIdx{}, byName: map[string]*scopeIdx{}}
	c.global = c.newScope()
	return c
}

// newScope is an empty scope, small until it grows.
func (c *coll[T]) newScope() *scopeIdx {
	s := &scopeIdx{}
	s.lists[fieldUID] = newBlockList(c.acc.class != nil)
	return s
}

// list is the scope's list in field f's order: for a small scope, other
// than by uid, a copy sorted now (not to be changed).
func (c *coll[T]) list(s *scopeIdx, f int) *blockList {
	if s == nil {
		return nil
	}
	if s.view != 0 {
		return c.global.lists[f]
	}
	if l := s.lists[f]; l != nil {
		return l
	}
	return c.sortedList(s.lists[fieldUID].all(), f)
}

// sortedList makes a list of ids in field f's order, taking ids over.
func (c *coll[T]) sortedList(ids []int32, f int) *blockList {
	slices.SortFunc(ids, func(a, b int32) int { return c.cmpIDs(f, a, b) })
	for i, id := range ids {
		ids[i] = pack(id, c.classOf(id))
	}
	return blocksOf(ids, c.acc.class != nil)
}

// grow gives a small scope that outgrew smallScope its other lists.
func (c *coll[T]) grow(s *scopeIdx) {
	if s.lists[fieldName] != nil || s.lists[fieldUID].Len() <= c.acc.small {
		return
	}
	for f := range numFields {
		if f != fieldUID {
			s.lists[f] = c.sortedList(s.lists[fieldUID].all(), f)
		}
	}
}

// classOf is item id's kind: its class, flagged with the main scopes it
// lies in.
func (c *coll[T]) classOf(id int32) uint8 {
	if c.acc.class == nil {
		return classNormal
	}
	it := &c.items[id]
	k := c.acc.class(it)
	for j, m := range c.mains {
		if c.inScope(it, m) {
			k += numClasses << j
		}
	}
	return k
}

// scopesOf calls fn with every index item id belongs to: the global one, the
// descendants of each of its ancestors, the children of its parent, and
// its name's; not the main scope, a view of the global one. create makes
// the missing ones.
func (c *coll[T]) scopesOf(id int32, create bool, fn func(*scopeIdx)) {
	fn(c.global)
	get := func(m map[string]*scopeIdx, k string) {
		s := m[k]
		if s != nil && s.view != 0 {
			return
		}
		if s == nil {
			if !create {
				return
			}
			s = c.newScope()
			m[k] = s
		}
		fn(s)
	}
	it := &c.items[id]
	if c.acc.parent != nil {
		p := c.acc.parent(it)
		for i := 0; i < len(p); i++ {
			if p[i] == '/' {
				get(c.desc, p[:i])
			}
		}
		// The parent's one index, under both maps (but for a main scope,
		// which stays a view: pickMains never picks a parent, yet a write
		// could make one).
		s := c.children[p]
		if s == nil && create {
			s = c.newScope()
			c.children[p] = s
			if d := c.desc[p]; d == nil || d.view == 0 {
				c.desc[p] = s
			}
		}
		if s != nil {
			fn(s)
		}
	} else {
		uid := c.acc.uid(it)
		parent := ""
		for i := 0; i < len(uid); i++ {
			if uid[i] == '/' {
				parent = uid[:i]
				get(c.desc, parent)
			}
		}
		get(c.children, parent)
	}
	if !c.acc.nameRanges {
		get(c.byName, c.acc.name(it))
	} else if s := c.bigName(c.acc.name(it), id, create); s != nil {
		fn(s)
	}
}

// add appends an item without indexing it (seeding indexes everything at once
// with build).
func (c *coll[T]) add(it T) int32 {
	if len(c.items) >= idMask {
		// A list entry keeps the id in 28 bits (pack): 2²⁸ tags would
		// take some 40 GB first.
		panic("emulator: a collection of over 2²⁸ items")
	}
	c.items = append(c.items, it)
	c.dead = append(c.dead, false)
	c.live++
	return int32(len(c.items) - 1)
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
		for f, l := range s.lists {
			if l != nil {
				l.insert(l.search(func(x int32) bool { return c.cmpIDs(f, x, id) >= 0 }), id, cls)
			}
		}
		c.grow(s)
	})
}

// position is where id is in l (ok false when it is not there).
func (c *coll[T]) position(l *blockList, f int, id int32) (int, bool) {
	i := l.search(func(x int32) bool { return c.cmpIDs(f, x, id) >= 0 })
	return i, i < l.Len() && l.at(i) == id
}

func (c *coll[T]) unindex(id int32) {
	c.scopesOf(id, false, func(s *scopeIdx) {
		for f, l := range s.lists {
			if l == nil {
				continue
			}
			if i, ok := c.position(l, f, id); ok {
				l.remove(i)
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
			for f, l := range s.lists {
				if l == nil {
					continue
				}
				if i, ok := c.position(l, f, id); ok {
					at[l] = append(at[l], i)
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
