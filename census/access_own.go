package census

import (
	"maps"
	"slices"

	"canopy/api"
)

// Changes made in canopy change a copy of the answers at once, from what
// the server answered (an access review is shared by the screens showing
// it, each holding the copy it was made from).

// clone is a copy whose maps and lists can change without touching a's.
func (a *Access) clone() *Access {
	b := *a
	l := *a.Layout
	l.Folders = maps.Clone(a.Layout.Folders)
	b.Layout = &l
	b.Roles, b.Identities = maps.Clone(a.Roles), maps.Clone(a.Identities)
	b.Bindings = slices.Clone(a.Bindings)
	return &b
}

// Made is a with resources made or changed (the server's answers): role
// bindings, identities, roles and folders of the organization; ok is false
// when none of them is one the answers count.
func (a *Access) Made(items ...any) (*Access, bool) {
	b, changed := a.clone(), false
	in := func(uid string) bool {
		return uid != "" && (uid == a.Layout.Org || api.IsDescendant(uid, a.Layout.Org))
	}
	for _, it := range items {
		switch it := it.(type) {
		case *api.RoleBinding:
			if it.Group == nil || !in(it.Group.UID) {
				continue
			}
			if i := slices.IndexFunc(b.Bindings, func(x api.RoleBinding) bool { return x.UID == it.UID }); i >= 0 {
				b.Bindings[i] = *it
			} else {
				b.Bindings = append(b.Bindings, *it)
			}
			changed = true
		case *api.Identity:
			if in(it.UID) {
				b.Identities[it.UID], changed = *it, true
			}
		case *api.Role:
			if it.BuiltIn() || in(it.UID) {
				b.Roles[it.UID], changed = *it, true
			}
		case *api.Group:
			if in(it.UID) {
				b.Layout.Folders[it.UID], changed = it.Name, true
			}
		}
	}
	return b, changed
}

// Deleted is a without what went; again is true when the server may have
// taken more with it than it said (an identity's bindings), which only a
// new reading tells.
func (a *Access) Deleted(uids ...string) (b *Access, changed, again bool) {
	b = a.clone()
	for _, uid := range uids {
		if i := slices.IndexFunc(b.Bindings, func(x api.RoleBinding) bool { return x.UID == uid }); i >= 0 {
			b.Bindings = slices.Delete(b.Bindings, i, i+1)
			changed = true
		}
		if _, ok := b.Identities[uid]; ok {
			delete(b.Identities, uid)
			changed, again = true, true
		}
		if _, ok := b.Roles[uid]; ok {
			delete(b.Roles, uid)
			changed = true
		}
		if _, ok := b.Layout.Folders[uid]; ok && uid != b.Layout.Org {
			delete(b.Layout.Folders, uid)
			changed = true
		}
	}
	return b, changed, again
}
