package census

import (
	"fmt"
	"slices"
	"strings"

	"canopy/api"
)

// flags are the reasons to look at a row, each said with what causes it.
func (a *Access) flags(r *Row, goneRoles []string) []Flag {
	var out []Flag
	org := ""
	if a.Layout != nil {
		org = a.Layout.Org
	}
	if r.Who.Workload != "" && org != "" {
		var strong []string
		for _, g := range r.Grants {
			if g.On == org && (Writes(g.Capability) || ManagesIAM(g.Capability)) && !slices.Contains(strong, g.RoleName) {
				strong = append(strong, g.RoleName)
			}
		}
		if len(strong) > 0 {
			out = append(out, Flag{Kind: FlagWorkloadAtOrg, Says: fmt.Sprintf("a workload (%s) holds write capabilities at the organization: %s",
				r.Who.Workload, strings.Join(strong, ", "))})
		}
	}
	if a.Stale > 0 && !r.Who.Gone && slices.ContainsFunc(r.Grants, func(g Grant) bool { return Writes(g.Capability) }) {
		switch {
		case !r.Who.LastSeen.IsZero() && a.Now.Sub(r.Who.LastSeen) > a.Stale:
			out = append(out, Flag{Kind: FlagStaleWriter, Says: fmt.Sprintf("holds write capabilities, not seen for %d days", int(a.Now.Sub(r.Who.LastSeen).Hours()/24))})
		case r.Who.LastSeen.IsZero() && !r.Who.Created.IsZero() && a.Now.Sub(r.Who.Created) > a.Stale:
			out = append(out, Flag{Kind: FlagStaleWriter, Says: fmt.Sprintf("holds write capabilities, never seen in the %d days since it was made",
				int(a.Now.Sub(r.Who.Created).Hours()/24))})
		}
	}
	// What manages IAM below the organization, by binding: its role, its
	// folder, and the capabilities that do.
	var below []string
	caps := map[string][]string{}
	for _, g := range r.Grants {
		if g.On != org && org != "" && ManagesIAM(g.Capability) {
			s := g.RoleName + " on " + a.Path(g.On)
			if !slices.Contains(below, s) {
				below = append(below, s)
			}
			if c, ok := api.CapabilityOf(g.Capability); ok && !slices.Contains(caps[s], c.Short) {
				caps[s] = append(caps[s], c.Short)
			}
		}
	}
	if len(below) > 0 {
		parts := make([]string, len(below))
		for i, s := range below {
			parts[i] = s + " (" + few(caps[s], 3) + ")"
		}
		out = append(out, Flag{Kind: FlagIAMBelowOrg, Says: "manages IAM below the organization: " + strings.Join(parts, ", ")})
	}
	if r.Who.Gone {
		out = append(out, Flag{Kind: FlagGone, Says: "bound, but the identity no longer exists"})
	}
	for _, name := range goneRoles {
		out = append(out, Flag{Kind: FlagGone, Says: "bound to role " + name + ", which no longer exists"})
	}
	// What could not be judged is said, not taken for nothing to see.
	if len(r.Unread) > 0 {
		out = append(out, Flag{Kind: FlagUnjudged, Says: "what " + strings.Join(r.Unread, ", ") + " grants is not known: " + a.why("roles")})
	}
	if _, known := a.Identities[r.Who.UID]; !known && a.unread("identities") {
		out = append(out, Flag{Kind: FlagUnjudged, Says: "whether it is a workload, and when it was last seen, are not known: " + a.why("identities")})
	}
	return out
}

// why is what Unread says of a part.
func (a *Access) why(part string) string {
	for _, u := range a.Unread {
		if strings.HasPrefix(u, part+":") {
			return u
		}
	}
	return part + " not read"
}

// few is up to n names, then how many more.
func few(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// FlagWord is a flag's kind in a word or two, for a column.
func FlagWord(kind int) string {
	return [...]string{"workload at org", "stale writer", "IAM below org", "gone", "not judged"}[kind]
}
