package detail

import (
	"slices"
	"strings"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views/identity"
)

// renderIdentity shows who the identity is, how it is assumed (whatever
// way: claim match, static keys, AWS, a service), and its role bindings
// when its page reads them (withBindings).
func (m *Model) renderIdentity(s *sheet, id *api.Identity, withBindings bool) {
	now := m.common.Clock()
	s.field("uid", safe.Of(id.UID))
	s.field("description", safe.Of(id.Description))
	s.field("email", safe.Of(id.Email))
	s.given("unverified", id.EmailUnverified)
	s.given("company", id.Company)
	kind := identity.Kind(id)
	if kind == "" {
		kind = "signs in (no claim match, keys or service)"
	}
	s.field("assumed by", safe.Of(kind))
	for _, p := range identity.Parts(id) {
		s.field(p.Label, safe.Of(p.Value))
	}
	if sk := id.StaticKeys; sk != nil && !sk.ExpirationTime.IsZero() {
		expires := text.When(sk.ExpirationTime.Time(), now)
		if sk.ExpirationTime.Time().Before(now) {
			expires = m.common.Theme.Bad.Render("expired " + expires)
		}
		s.own("keys expire", expires)
	}
	seen := "never"
	if !id.LastSeenTime.IsZero() {
		seen = text.When(id.LastSeenTime.Time(), now)
	}
	s.own("last seen", seen)
	s.times(id.CreateTime, id.UpdateTime)
	if !withBindings {
		return
	}
	s.section("ROLE BINDINGS")
	e, ok := m.lazy(s)
	if !ok {
		return
	}
	if len(e.bindings) == 0 {
		s.muted("  none: this identity can do nothing yet")
		return
	}
	bs := slices.Clone(e.bindings)
	slices.SortFunc(bs, func(a, b api.RoleBinding) int { return strings.Compare(refName(a.Role), refName(b.Role)) })
	for _, b := range bs {
		s.line("  " + text.Fit(safe.String(refName(b.Role)), 18, false, "~") + " on " +
			safe.String(refName(b.Group)) + m.common.Theme.Muted.Render("  "+text.Ago(b.CreateTime.Time(), now)))
	}
}
