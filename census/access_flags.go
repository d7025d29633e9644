package census

import (
	"fmt"
	"slices"
	"strings"
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
	var below []string
	for _, g := range r.Grants {
		if g.On != org && org != "" && ManagesIAM(g.Capability) {
			if s := g.RoleName + " on " + a.Path(g.On); !slices.Contains(below, s) {
				below = append(below, s)
			}
		}
	}
	if len(below) > 0 {
		out = append(out, Flag{Kind: FlagIAMBelowOrg, Says: "manages IAM below the organization: " + strings.Join(below, ", ")})
	}
	if r.Who.Gone {
		out = append(out, Flag{Kind: FlagGone, Says: "bound, but the identity no longer exists"})
	}
	for _, name := range goneRoles {
		out = append(out, Flag{Kind: FlagGone, Says: "bound to role " + name + ", which no longer exists"})
	}
	return out
}

// FlagWord is a flag's kind in a word or two, for a column.
func FlagWord(kind int) string {
	return [...]string{"workload at org", "stale writer", "IAM below org", "gone"}[kind]
}
