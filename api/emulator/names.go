package emulator

import (
	"strings"

	"canopy/api"
)

// siblingNamed finds a live item of coll directly under parent with this name.
func siblingNamed[T any](cl *coll[T], parent, name, except string) bool {
	found := false
	eachChildNamed(cl, parent, name, func(id int32) bool {
		found = cl.acc.uid(&cl.items[id]) != except
		return !found
	})
	return found
}

// childNamed is the live item directly under parent with this name.
func childNamed[T any](cl *coll[T], parent, name string) (int32, bool) {
	var out int32
	found := false
	eachChildNamed(cl, parent, name, func(id int32) bool { out, found = id, true; return false })
	return out, found
}

// eachChildNamed calls fn with the items directly under parent named name,
// until it returns false: the name's index by uid holds them side by side
// (uids start with the parent's), so this costs a binary search.
func eachChildNamed[T any](cl *coll[T], parent, name string, fn func(int32) bool) {
	s := cl.byName[name]
	if s == nil {
		return
	}
	l := s.lists[fieldUID]
	prefix := parent + "/"
	if parent == "" {
		prefix = ""
	}
	k := posKey{UID: prefix}
	l.walk(l.search(func(x int32) bool { return cl.cmpKey(fieldUID, x, k) >= 0 }), true, func(id int32, _ uint8) bool {
		uid := cl.acc.uid(&cl.items[id])
		if !strings.HasPrefix(uid, prefix) {
			return false
		}
		if api.ParentUID(uid) == parent {
			return fn(id)
		}
		return true
	})
}
