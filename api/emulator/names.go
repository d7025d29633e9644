package emulator

import (
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
// until it returns false: the name's items by uid hold them side by side
// (uids start with the parent's), so this costs a binary search.
func eachChildNamed[T any](cl *coll[T], parent, name string, fn func(int32) bool) {
	prefix := parent + "/"
	if parent == "" {
		prefix = ""
	}
	cl.eachNamed(name, prefix, func(id int32, _ uint8) bool {
		if api.ParentUID(cl.acc.uid(&cl.items[id])) == parent {
			return fn(id)
		}
		return true
	})
}
