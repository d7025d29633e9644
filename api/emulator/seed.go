package emulator

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"canopy/api"
)

// shape says how much a size adds to the demo organization.
type shape struct {
	extraFolders int // generated team folders
	extraRepos   int // generated repos spread over them
}

// sizes are the organization sizes New accepts.
var sizes = sync.OnceValue(func() map[string]shape {
	return map[string]shape{
		"small":  {},
		"medium": {extraFolders: 12, extraRepos: 640},
		"large":  {extraFolders: 60, extraRepos: 7700},
	}
})

// seeder builds a store: every random choice comes from the store's seeded
// PCG, so the same seed and size give the same data, uids included. No draw
// depends on the clock: a time is an offset before now computed from a draw
// (frac), so seeding at another time draws the same numbers in the same
// order and only the times move.
type seeder struct {
	*store
	seedVal  uint64
	now      time.Time
	shape    shape
	folders  map[string]string    // folder path ("" = org) → uid; "globex:" prefix for the second org
	born     map[string]time.Time // group uid → its create time, for what is created in it
	progress *progress            // nil: none kept
	// eager makes every tag while seeding; else the repos' tags are
	// made when first asked for (lazy.go), the same ones.
	eager bool
	// catalogue is api.Capabilities, made once: every role's
	// capabilities are chosen from it.
	catalogue []api.Capability
}

func newSeeder(seedVal uint64, sh shape, now time.Time, p *progress) *seeder {
	return &seeder{store: newStore(seedVal), seedVal: seedVal, now: now.UTC(), shape: sh, folders: map[string]string{},
		born: map[string]time.Time{}, progress: p, catalogue: api.Capabilities()}
}

// populate adds the seeded data without indexing it.
func populate(seedVal uint64, sh shape, now time.Time, hostile bool) *store {
	s := newSeeder(seedVal, sh, now, nil)
	acme, globex := s.seedOrgs(hostile)
	s.seedRest(acme, globex, hostile)
	return s.store
}

// seedOrgs adds the roles and both organizations with their folders.
func (s *seeder) seedOrgs(hostile bool) (acme, globex string) {
	s.seedRoles()
	acmeDesc := "Acme Corp: production images and CI identities."
	if hostile {
		acmeDesc = hostileOrgDesc
	}
	acme = s.seedOrg("acme.example", acmeDesc, acmeFolders, true, 3*365*day)
	globex = s.seedOrg("globex.example", "Globex: a second organization, for switching between orgs.", globexFolders, false, 2*365*day)
	s.orgs = []string{acme, globex}
	return acme, globex
}

// seedRest adds everything in the organizations, after seedOrgs.
func (s *seeder) seedRest(acme, globex string, hostile bool) {
	s.seedIAM(acme, globex)
	s.seedRegistry(acme, globex)
	s.seedAdvisories()
	s.seedArtifacts()
	s.seedIdentityKinds()
	s.seedSyncedRepo()
	s.seedAccess(s.seedVal, acme)
	s.seedAssociations()
	s.seedIdle()
	s.seedPeople()
	if hostile {
		// Last, so the rest of the data is the same with and without it.
		s.seedHostile(acme)
	}
}

const day = 24 * time.Hour

// frac is a random fraction in [0, 1): always exactly one draw.
func (s *seeder) frac() float64 { return s.rng.Float64() }

// ago is a random time between max and min before now.
func (s *seeder) ago(max, min time.Duration) time.Time {
	return s.now.Add(-min - time.Duration(s.frac()*float64(max-min))).Truncate(time.Millisecond)
}

// after is a random time within span after t, and not after now.
func (s *seeder) after(t time.Time, span time.Duration) time.Time {
	span = max(0, min(span, s.now.Sub(t)))
	return t.Add(time.Duration(s.frac() * float64(span))).Truncate(time.Millisecond)
}

// createdIn is the create time of something made in a group (within span
// after the group), and an update time after it.
func (s *seeder) createdIn(group string, span time.Duration) (api.Time, api.Time) {
	c := s.after(s.born[group], span)
	return api.TimeOf(c), api.TimeOf(s.after(c, s.now.Sub(c)))
}

func (s *seeder) rootUID() string {
	return fmt.Sprintf("%016x%016x%08x", s.rng.Uint64(), s.rng.Uint64(), s.rng.Uint32())
}

// seedOrg adds an organization, created about age ago, and its folders, each
// created after its parent; the folders are remembered by path for the
// registry and IAM seeds.
func (s *seeder) seedOrg(name, desc string, folders []folder, primary bool, age time.Duration) string {
	org := s.rootUID()
	created := s.ago(age, age-90*day)
	s.born[org] = created
	s.store.groups.add(api.Group{UID: org, Name: name, Description: desc, Kind: "ORG_KIND_CUSTOMER",
		Status: "ORG_STATUS_READY", Verified: true, ResourceLimits: map[string]int32{"repos": 10000, "identities": 500},
		CreateTime: api.TimeOf(created), UpdateTime: api.TimeOf(s.after(created, s.now.Sub(created)))})
	paths := map[string]string{"": org}
	add := func(path, desc string) {
		parent := paths[parentPath(path)]
		uid := parent + "/" + s.hex16()
		c, u := s.createdIn(parent, 120*day)
		s.born[uid] = c.Time()
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
			Capabilities: r.caps(s.catalogue), CreateTime: t, UpdateTime: t})
	}
}
