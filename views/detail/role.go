package detail

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views/capabilities"
)

// RoleSources are what a role's page (RolePage) shows its capabilities
// with and where it reads who holds it.
type RoleSources struct {
	// Catalogue is every capability known, by domain: a role's are shown
	// grouped as it groups them, by their short names. One it lacks (a
	// built-in role's deprecated one) is listed apart, as the role has it.
	Catalogue []capabilities.Option
	// Bindings reads the role bindings of a role (HELD BY); nil shows
	// none.
	Bindings func(ctx context.Context, roleUID string) ([]api.RoleBinding, error)
}

// otherDomain groups the capabilities of a role the catalogue lacks.
const otherDomain = "not in the catalogue"

// RolePage is a role's page: what it is, its capabilities by domain, and
// who holds it where (loaded lazily).
func RolePage(src RoleSources) Page {
	p := pageOf(func(m *Model, s *sheet, r *api.Role) { m.renderRole(s, r, src) })
	p.lazy = src.Bindings != nil
	p.load = loadOf(func(ctx context.Context, r *api.Role, out *extrasMsg) {
		out.bindings, out.err = src.Bindings(ctx, r.UID)
	})
	return p
}

// RoleGroup is a domain and a role's capabilities in it.
type RoleGroup struct {
	Domain string
	// Of is how many capabilities the domain has (0: not a domain of the
	// catalogue).
	Of    int
	Short []string
}

// RoleGroups groups a role's capabilities by the catalogue's domains, in
// its order; those it lacks come last, as the role has them.
func RoleGroups(catalogue []capabilities.Option, held []string) []RoleGroup {
	has := map[string]bool{}
	for _, c := range held {
		has[c] = true
	}
	var out []RoleGroup
	known := map[string]bool{}
	at := map[string]int{}
	for _, o := range catalogue {
		known[o.Name] = true
		i, ok := at[o.Domain]
		if !ok {
			i = len(out)
			at[o.Domain] = i
			out = append(out, RoleGroup{Domain: o.Domain})
		}
		out[i].Of++
		if has[o.Name] {
			out[i].Short = append(out[i].Short, o.Short)
		}
	}
	out = slices.DeleteFunc(out, func(g RoleGroup) bool { return len(g.Short) == 0 })
	other := RoleGroup{Domain: otherDomain}
	for _, c := range held {
		if !known[c] && !slices.Contains(other.Short, c) {
			other.Short = append(other.Short, c)
		}
	}
	if len(other.Short) > 0 {
		out = append(out, other)
	}
	return out
}

// renderRole writes a role: its fields, its capabilities by domain, and
// the bindings that hold it when its page reads them.
func (m *Model) renderRole(s *sheet, r *api.Role, src RoleSources) {
	th := m.common.Theme
	s.field("uid", safe.Of(r.UID))
	s.field("description", safe.Of(r.Description))
	kind := "custom"
	if r.BuiltIn() {
		kind = "built-in: the service's own, not changed"
	}
	s.own("kind", safe.String(kind))
	groups := RoleGroups(src.Catalogue, r.Capabilities)
	s.own("capabilities", fmt.Sprintf("%d in %d domains", len(r.Capabilities), len(groups)))
	s.times(r.CreateTime, r.UpdateTime)
	s.section("CAPABILITIES")
	if len(groups) == 0 {
		s.muted("  none: this role grants nothing")
	}
	domainW := min(24, max(m.width/3, 10))
	for _, g := range groups {
		head := text.Fit(safe.String(g.Domain), domainW, false, th.Glyphs.Ellipsis)
		if g.Of > 0 {
			head = text.Fit(safe.String(g.Domain)+fmt.Sprintf(" %d/%d", len(g.Short), g.Of), domainW, false, th.Glyphs.Ellipsis)
		}
		names := make([]string, len(g.Short))
		for i, n := range g.Short {
			names[i] = safe.String(n)
		}
		lines := strings.Split(text.Wrap(strings.Join(names, "  "), max(m.width-domainW-4, 10), " "), "\n")
		for i, l := range lines {
			lead := strings.Repeat(" ", domainW)
			if i == 0 {
				lead = th.Label.Render(head)
			}
			s.line("  " + lead + "  " + l)
		}
	}
	if src.Bindings == nil {
		return
	}
	s.section("HELD BY")
	e, ok := m.lazy(s)
	if !ok {
		return
	}
	if len(e.bindings) == 0 {
		s.muted("  nobody: no role binding holds it")
		return
	}
	bs := slices.Clone(e.bindings)
	who := func(b api.RoleBinding) string {
		if b.Identity == nil {
			return "?"
		}
		return b.Identity.Name
	}
	slices.SortFunc(bs, func(a, b api.RoleBinding) int {
		return cmp.Or(strings.Compare(who(a), who(b)), strings.Compare(refName(a.Group), refName(b.Group)))
	})
	now := m.common.Clock()
	for _, b := range bs {
		s.line("  " + text.Fit(safe.String(who(b)), 22, false, th.Glyphs.Ellipsis) + " " + th.Glyphs.Right + " " + safe.String(refName(b.Group)) +
			th.Muted.Render("  "+text.Ago(b.CreateTime.Time(), now)))
	}
}
