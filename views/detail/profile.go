package detail

import (
	"context"

	"canopy/api"
	"canopy/safe"
)

// An identity's profile (its metadata) is set by the identity itself and
// read by no call: the service shows it only in answer to a change. The
// page of the caller's own identity shows what the service last answered
// this session, or says it has not been shown.

// Profile is what the caller's identity's page shows of its profile.
type Profile struct {
	Company, JobTitle, Product string
	UpdatesOptIn               bool
	// Known: the service answered with it this session.
	Known bool
}

// The labels of a profile's fields on the page (an edit names its field
// by the label, for the field cursor).
const (
	ProfileCompany  = "employer"
	ProfileJobTitle = "job title"
	ProfileProduct  = "interested in"
	ProfileUpdates  = "updates"
)

// IdentityPageOf is IdentityPage with the caller's profile: profile is
// an identity's when it is the caller's, nil otherwise (no section).
func IdentityPageOf(bindings func(ctx context.Context, identityUID string) ([]api.RoleBinding, error),
	profile func(id *api.Identity) *Profile) Page {
	p := IdentityPage(bindings)
	plain := p.write
	p.write = func(m *Model, s *sheet, item any) {
		plain(m, s, item)
		if id, ok := item.(*api.Identity); ok && profile != nil {
			m.renderProfile(s, profile(id))
		}
	}
	return p
}

// renderProfile writes the profile section of the caller's identity.
func (m *Model) renderProfile(s *sheet, p *Profile) {
	if p == nil {
		return
	}
	s.section("YOUR PROFILE")
	s.muted("  yours alone to set; no call reads it: the service shows it only in answer to a change")
	if !p.Known {
		for _, l := range []string{ProfileCompany, ProfileJobTitle, ProfileProduct, ProfileUpdates} {
			s.own(l, m.common.Theme.Muted.Render("not shown yet"))
		}
		return
	}
	s.field(ProfileCompany, safe.Of(p.Company))
	s.field(ProfileJobTitle, safe.Of(p.JobTitle))
	s.field(ProfileProduct, safe.Of(p.Product))
	updates := "no news from the vendor"
	if p.UpdatesOptIn {
		updates = "yes, the vendor's news"
	}
	s.own(ProfileUpdates, updates)
}
