package overview

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/census"
)

// Changes made in canopy while the overview is open (below a table it
// opened) are counted at once, from what the server answered: the tags'
// and advisories' counts are the shell's caches, which the shell changed
// before telling the screens; the layout and the people are the
// overview's own and change here. Where the answer does not say all a
// change did (what went with a deleted identity or folder), that part is
// listed again rather than guessed.

// created counts what was made: identities and role bindings among the
// people, folders and repos in the layout.
func (m *Model) created(items []any) {
	for _, it := range items {
		switch it := it.(type) {
		case *api.Identity:
			if m.people != nil && m.inOrg(it.UID) && !slices.ContainsFunc(m.people.Identities, sameIdentity(it.UID)) {
				m.people.Identities = append(m.people.Identities, *it)
				m.stale |= peoplePart
			}
		case *api.RoleBinding:
			if m.people != nil && m.inOrg(it.UID) && !slices.ContainsFunc(m.people.Bindings, sameBinding(it.UID)) {
				m.people.Bindings = append(m.people.Bindings, *it)
				m.stale |= peoplePart
			}
		case *api.Group:
			if m.layout != nil && m.inOrg(it.UID) {
				m.layout.Folders[it.UID] = it.Name
				m.stale |= allParts // paths and the folders' sums
			}
		case *api.Repo:
			if m.layout != nil && m.inOrg(it.UID) && !slices.ContainsFunc(m.layout.Repos, sameRepo(it.UID)) {
				m.layout.Repos = append(m.layout.Repos, census.Repo{UID: it.UID, Name: it.Name})
				m.dups = duplicates(m.layout.Repos)
				m.stale |= allParts
			}
		}
	}
}

// updated takes a new version of what the overview names or counts: a
// binding's role, an identity, a folder's or repo's name.
func (m *Model) updated(item any) {
	switch it := item.(type) {
	case *api.Identity:
		if m.people != nil {
			if i := slices.IndexFunc(m.people.Identities, sameIdentity(it.UID)); i >= 0 {
				m.people.Identities[i] = *it
				m.stale |= peoplePart
			}
		}
	case *api.RoleBinding:
		if m.people != nil {
			if i := slices.IndexFunc(m.people.Bindings, sameBinding(it.UID)); i >= 0 {
				m.people.Bindings[i] = *it
				m.stale |= peoplePart
			}
		}
	case *api.Group:
		if m.layout != nil {
			if _, ok := m.layout.Folders[it.UID]; ok {
				m.layout.Folders[it.UID] = it.Name
				m.stale |= allParts
			}
		}
	case *api.Repo:
		if m.layout != nil {
			if i := slices.IndexFunc(m.layout.Repos, sameRepo(it.UID)); i >= 0 {
				m.layout.Repos[i].Name = it.Name
				m.dups = duplicates(m.layout.Repos)
				m.stale |= allParts
			}
		}
	}
}

// deleted drops what went; it reports whether the people must be listed
// again: an identity's bindings, or what a folder held, may have gone
// with it on the server, which did not say.
func (m *Model) deleted(uids []string) (again bool) {
	for _, uid := range uids {
		if m.people != nil {
			if i := slices.IndexFunc(m.people.Identities, sameIdentity(uid)); i >= 0 {
				m.people.Identities = slices.Delete(m.people.Identities, i, i+1)
				m.stale |= peoplePart
				again = true
			}
			if i := slices.IndexFunc(m.people.Bindings, sameBinding(uid)); i >= 0 {
				m.people.Bindings = slices.Delete(m.people.Bindings, i, i+1)
				m.stale |= peoplePart
			}
		}
		if m.layout == nil {
			continue
		}
		if _, ok := m.layout.Folders[uid]; ok && uid != m.layout.Org {
			// Nothing is left below a folder that went.
			below := func(u string) bool { return u == uid || strings.HasPrefix(u, uid+"/") }
			for f := range m.layout.Folders {
				if below(f) {
					delete(m.layout.Folders, f)
				}
			}
			m.layout.Repos = slices.DeleteFunc(m.layout.Repos, func(r census.Repo) bool { return below(r.UID) })
			m.dups = duplicates(m.layout.Repos)
			m.stale |= allParts
			again = again || m.people != nil
		}
		if i := slices.IndexFunc(m.layout.Repos, sameRepo(uid)); i >= 0 {
			m.layout.Repos = slices.Delete(m.layout.Repos, i, i+1)
			m.dups = duplicates(m.layout.Repos)
			m.stale |= allParts
		}
	}
	return again
}

// listPeopleAgain queues a new listing of the people in the run (one
// already queued is enough).
func (m *Model) listPeopleAgain() tea.Cmd {
	r := m.run
	if r == nil || r.ctx.Err() != nil || slices.ContainsFunc(r.fixed, func(j job) bool { return j.kind == jobPeople }) {
		return nil
	}
	r.fixed = append(r.fixed, job{kind: jobPeople})
	return m.pump()
}

// inOrg reports whether uid is below the overview's organization.
func (m *Model) inOrg(uid string) bool {
	return m.layout != nil && strings.HasPrefix(uid, m.layout.Org+"/")
}

func sameIdentity(uid string) func(api.Identity) bool {
	return func(id api.Identity) bool { return id.UID == uid }
}
func sameBinding(uid string) func(api.RoleBinding) bool {
	return func(b api.RoleBinding) bool { return b.UID == uid }
}
func sameRepo(uid string) func(census.Repo) bool {
	return func(r census.Repo) bool { return r.UID == uid }
}
