package emulator

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"time"

	"canopy/api"
)

// shape says how much a size adds to the demo organization.
type shape struct {
	extraFolders int // generated team folders
	extraRepos   int // generated repos spread over them
}

// sizes are the organization sizes New accepts.
var sizes = map[string]shape{
	"small":  {},
	"medium": {extraFolders: 12, extraRepos: 640},
	"large":  {extraFolders: 60, extraRepos: 7400},
}

// seeder builds a store: every random choice comes from the store's seeded
// PCG, so the same seed and size give the same data, uids included.
type seeder struct {
	*store
	now     time.Time
	shape   shape
	folders map[string]string // folder path ("" = org) → uid; "globex:" prefix for the second org
}

func seed(seedVal uint64, sh shape, now time.Time, hostile bool) *store {
	s := &seeder{store: newStore(seedVal), now: now.UTC(), shape: sh, folders: map[string]string{}}
	s.seedRoles()
	acmeDesc := "Acme Corp: production images and CI identities."
	if hostile {
		acmeDesc = hostileOrgDesc
	}
	acme := s.seedOrg("acme.example", acmeDesc, acmeFolders, true)
	globex := s.seedOrg("globex.example", "Globex: a second organization, for switching between orgs.", globexFolders, false)
	s.orgs = []string{acme, globex}
	s.seedIAM(acme, globex)
	s.seedRegistry(acme, globex)
	s.seedAdvisories()
	s.seedArtifacts()
	if hostile {
		// Last, so the rest of the data is the same with and without it.
		s.seedHostile(acme)
	}
	s.buildAll()
	return s.store
}

// between is a random time in [a, b).
func (s *seeder) between(a, b time.Time) time.Time {
	if !b.After(a) {
		return a
	}
	return a.Add(time.Duration(s.rng.Int64N(int64(b.Sub(a))))).Truncate(time.Millisecond)
}

// ago is a random time between max and min before now.
func (s *seeder) ago(max, min time.Duration) time.Time {
	return s.between(s.now.Add(-max), s.now.Add(-min))
}

const day = 24 * time.Hour

// created is a create time in the last 2-3 years and an update time after it.
func (s *seeder) created() (api.Time, api.Time) {
	c := s.ago(3*365*day, 2*365*day)
	return api.TimeOf(c), api.TimeOf(s.between(c, s.now))
}

func (s *seeder) rootUID() string {
	return fmt.Sprintf("%016x%016x%08x", s.rng.Uint64(), s.rng.Uint64(), s.rng.Uint32())
}

// seedOrg adds an organization and its folders; the primary org's folders
// are remembered by path for the registry and IAM seeds.
func (s *seeder) seedOrg(name, desc string, folders []folder, primary bool) string {
	org := s.rootUID()
	c, u := s.created()
	s.store.groups.add(api.Group{UID: org, Name: name, Description: desc, Kind: "ORG_KIND_CUSTOMER",
		Status: "ORG_STATUS_READY", Verified: true, ResourceLimits: map[string]int32{"repos": 10000, "identities": 500},
		CreateTime: c, UpdateTime: u})
	paths := map[string]string{"": org}
	add := func(path, desc string) {
		parent := paths[parentPath(path)]
		uid := parent + "/" + s.hex16()
		c, u := s.created()
		s.store.groups.add(api.Group{UID: uid, Name: baseName(path), Description: desc, CreateTime: c, UpdateTime: u})
		paths[path] = uid
	}
	for _, f := range folders {
		add(f.path, f.desc)
	}
	if primary {
		if s.shape.extraFolders > 0 {
			// The team folders live under "teams": without it their parent
			// path is unknown and they (and their repos) would belong to no
			// organization.
			add("teams", "Generated team folders.")
		}
		for i := range s.shape.extraFolders {
			add(fmt.Sprintf("teams/team-%02d", i+1), fmt.Sprintf("Generated team folder %d.", i+1))
		}
		for p, uid := range paths {
			s.folders[p] = uid
		}
	} else {
		for p, uid := range paths {
			s.folders["globex:"+p] = uid
		}
	}
	return org
}

func parentPath(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return ""
}

func baseName(p string) string { return p[len(parentPath(p))+min(1, len(parentPath(p))):] }

// builtinRoleUID is the flat uid of a built-in role, the same in every
// emulator (the viewer's is the real one).
func builtinRoleUID(name string) string {
	if name == "viewer" {
		return viewerRoleUID
	}
	sum := sha1.Sum([]byte("canopy built-in role " + name))
	return hex.EncodeToString(sum[:])
}

// viewerRoleUID is the uid of the built-in viewer role.
const viewerRoleUID = "63921b2c44617e3f2603851537be0123af4a57d7"

func (s *seeder) seedRoles() {
	t := api.TimeOf(time.Date(2023, 3, 1, 12, 0, 0, 0, time.UTC))
	for _, r := range builtinRoles {
		s.roles.add(api.Role{UID: builtinRoleUID(r.name), Name: r.name, Description: r.desc,
			Capabilities: r.caps(), CreateTime: t, UpdateTime: t})
	}
}
