package census

import (
	"time"

	"canopy/api"
)

// People is the organization's identities and role bindings.
type People struct {
	Identities []api.Identity
	Bindings   []api.RoleBinding
	// Truncated says a listing stopped at its bound.
	Truncated bool
}

// OwnerRole is the name of the built-in role that holds every right.
const OwnerRole = "owner"

// Lines of the identities part: each a question about an identity.
const (
	NeverSeen = iota // never seen by the service
	NotSeen          // not seen for the stale span, but seen once
	Unbound          // no role binding anywhere in the organization
	Owner            // bound as owner at the organization
	IdentityLines
)

// Identities is how many identities answer each line's question.
type Identities struct {
	Total int
	Count [IdentityLines]int
	// OwnerRole is the owner role's uid, as the bindings name it ("" when
	// no binding names it).
	OwnerRole string
}

// Asks are the questions of the identities part, as predicates over an
// identity; they are what a line's table keeps.
type Asks struct {
	Stale time.Duration // how long unseen is too long
	Now   time.Time
	Bound map[string]bool // identities with a binding
}

// Is reports whether id answers line (Owner is a question of bindings,
// not of identities: false).
func (a Asks) Is(line int, id *api.Identity) bool {
	switch line {
	case NeverSeen:
		return id.LastSeenTime.IsZero()
	case NotSeen:
		return !id.LastSeenTime.IsZero() && a.Now.Sub(id.LastSeenTime.Time()) > a.Stale
	case Unbound:
		return !a.Bound[id.UID]
	}
	return false
}

// Bound is the set of identities with a role binding.
func Bound(bindings []api.RoleBinding) map[string]bool {
	out := make(map[string]bool, len(bindings))
	for i := range bindings {
		if b := bindings[i].Identity; b != nil {
			out[b.UID] = true
		}
	}
	return out
}

// IsOwnerAt reports whether b binds the owner role at group.
func IsOwnerAt(b *api.RoleBinding, group string) bool {
	return b.Group != nil && b.Group.UID == group && b.Role != nil && b.Role.Name == OwnerRole
}

// CountIdentities answers each line's question for every identity.
func CountIdentities(p *People, org string, a Asks) Identities {
	out := Identities{Total: len(p.Identities)}
	for i := range p.Identities {
		for line := range Owner {
			if a.Is(line, &p.Identities[i]) {
				out.Count[line]++
			}
		}
	}
	owners := map[string]bool{}
	for i := range p.Bindings {
		if b := &p.Bindings[i]; IsOwnerAt(b, org) && b.Identity != nil {
			owners[b.Identity.UID] = true
			out.OwnerRole = b.Role.UID
		}
	}
	out.Count[Owner] = len(owners)
	return out
}

// BindingsByRole counts bindings per role (Key: the role's uid).
func BindingsByRole(bindings []api.RoleBinding) []Bar {
	seen := map[string]bool{}
	var out []Bar
	for i := range bindings {
		r := bindings[i].Role
		if r == nil || seen[r.UID] {
			continue
		}
		seen[r.UID] = true
		out = append(out, Bar{Key: r.UID, Label: r.Name})
	}
	return countInto(out, bindings, func(b *api.RoleBinding) string {
		if b.Role == nil {
			return ""
		}
		return b.Role.UID
	})
}

// BindingsByFolder counts bindings per folder they are made on (Key: the
// folder's uid; the organization is labelled by its name).
func BindingsByFolder(bindings []api.RoleBinding, l *Layout) []Bar {
	seen := map[string]bool{}
	var out []Bar
	for i := range bindings {
		g := bindings[i].Group
		if g == nil || seen[g.UID] {
			continue
		}
		seen[g.UID] = true
		label := l.Path(g.UID)
		if label == "" {
			label = g.Name
			if n := l.Folders[g.UID]; n != "" {
				label = n
			}
			label += " (organization)"
		}
		out = append(out, Bar{Key: g.UID, Label: label})
	}
	return countInto(out, bindings, func(b *api.RoleBinding) string {
		if b.Group == nil {
			return ""
		}
		return b.Group.UID
	})
}

// countInto counts each binding into the bar of its key, then ranks.
func countInto(bars []Bar, bindings []api.RoleBinding, key func(*api.RoleBinding) string) []Bar {
	at := make(map[string]int, len(bars))
	for i, b := range bars {
		at[b.Key] = i
	}
	for i := range bindings {
		if j, ok := at[key(&bindings[i])]; ok && bars[j].Key != "" {
			bars[j].N++
		}
	}
	return ranked(bars)
}
