package emulator

import (
	"strings"
	"time"

	"canopy/api"
)

// idleIdentity is an identity nobody uses any more, or never did: what an
// access review is for. seen is how long ago it was last seen, between
// its two values (zero: never).
type idleIdentity struct {
	seedIdentity
	seen [2]time.Duration
}

var idleIdentities = []idleIdentity{
	{seedIdentity{"platform/ci", "legacy-jenkins", "Jenkins pulls, replaced by GitHub Actions", "", issuerGitHub,
		"repo:acme/jenkins-jobs:ref:refs/heads/master", []string{"registry.pull@platform/ci"}}, [2]time.Duration{200 * day, 300 * day}},
	{seedIdentity{"data", "warehouse-export", "Nightly export to the warehouse, never set up", "", issuerGitHub,
		"repo:acme/warehouse:ref:refs/heads/main", nil}, [2]time.Duration{}},
	{seedIdentity{"apps/web", "eve", "Eve Laurent, contractor (engagement ended)", "eve@contractor.example", issuerGoogle,
		"108877665544332211009", nil}, [2]time.Duration{120 * day, 180 * day}},
}

// subpackageAdvisories are advisories of subpackages of images' origin
// packages (curl-dev of curl): a filter by origin finds them with the
// origin's own, a filter by artifact name does not.
var subpackageAdvisories = []struct{ artifact, component string }{
	{"curl-dev", "libcurl"}, {"curl-libs", "nghttp2"}, {"nginx-config", "nginx"}, {"redis-compat", "redis"},
}

// seedIdle adds the idle identities and the subpackages' advisories. It
// runs after everything else that draws from the seed's sequence, so the
// rest of the data is the same as before they were added.
func (s *seeder) seedIdle() {
	for _, a := range subpackageAdvisories {
		s.advisory(a.artifact, a.component, false)
	}
	for _, id := range idleIdentities {
		group := s.folders[id.folder]
		c, u := s.createdIn(group, 400*day)
		var seen api.Time
		if id.seen[1] > 0 {
			t := s.ago(id.seen[1], id.seen[0])
			if t.Before(c.Time()) {
				t = c.Time()
			}
			seen = api.TimeOf(t)
		}
		uid := group + "/" + s.hex16()
		s.idents.add(api.Identity{UID: uid, Name: id.name, Description: id.desc, Email: id.email,
			ClaimMatch: &api.ClaimMatch{Issuer: id.issuer, Subject: id.subject}, LastSeenTime: seen, CreateTime: c, UpdateTime: u})
		for _, b := range id.bindings {
			role, path, _ := strings.Cut(b, "@")
			on := s.folders[path]
			t := api.TimeOf(s.after(later(c.Time(), s.born[on]), 30*day))
			s.bindings.add(bindingRec{UID: on + "/" + s.hex16(), IdentityUID: uid, RoleUID: builtinRoleUID(role), Create: t, Update: t})
		}
	}
}
