package emulator

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"canopy/api"
)

// bindingRec is a role binding as stored; it is hydrated on the way out.
type bindingRec struct {
	UID, IdentityUID, RoleUID string
	Create, Update            api.Time
}

// repoRec is a repo and its readme.
type repoRec struct {
	api.Repo
	Readme string
	// seeded, when set, is what a seeded repo's readme is made from when
	// asked for, in place of Readme: the large demo's 7,700 readmes of
	// ≈ 1.4 KB were 10 MB of its heap (10 B a tag), and seeding spent
	// its time writing them.
	seeded *seededReadme
}

// seededReadme is what readme (seed_registry.go) makes a seeded repo's
// readme of.
type seededReadme struct {
	name, desc, latest, org string
	variants                []string
}

// readme is the repo's readme.
func (r *repoRec) readme() string {
	if r.seeded != nil {
		return readme(r.seeded.name, r.seeded.desc, r.seeded.latest, r.seeded.variants, r.seeded.org)
	}
	return r.Readme
}

// setReadme replaces the repo's readme.
func (r *repoRec) setReadme(s string) { r.Readme, r.seeded = s, nil }

// tagRec is a tag, kept compact: 64 bytes and no string of its own (the
// store held ≈ 570 bytes a tag with them). A tag's uid is its repo's and a
// 16-hex-digit segment, so it keeps the repo's uid once per repo
// (store.tagParents) and the segment as a number; its name is one of a
// pool (latest, versions: they repeat from repo to repo), whose index
// shares a word with its class and whether it is deprecated; its digest
// is the 32 bytes. The strings are made on the way out (tagrec.go).
type tagRec struct {
	Parent int32  // index into store.tagParents: its repo's uid
	Name   uint32 // index into store.tagNames, class and deprecation (nameBits)
	Suffix uint64 // the uid's last segment, as 16 hex digits
	Digest [32]byte
	Create int64 // unix milliseconds
	Update int64
}

// A tagRec's Name word: the name's index in bits 0–28, the class in 29–30,
// deprecated in 31 (a whole byte each would round the record up to 72).
const (
	nameBits       = 29
	nameMask       = 1<<nameBits - 1
	deprecatedFlag = 1 << 31
)

func (t *tagRec) nameID() int32    { return int32(t.Name & nameMask) }
func (t *tagRec) class() uint8     { return uint8(t.Name >> nameBits & 3) }
func (t *tagRec) deprecated() bool { return t.Name&deprecatedFlag != 0 }

// store is the emulator's data. Every field is guarded by mu.
type store struct {
	mu sync.RWMutex

	groups    *coll[api.Group]
	idents    *coll[api.Identity]
	roles     *coll[api.Role]
	bindings  *coll[bindingRec]
	repos     *coll[repoRec]
	tags      *coll[tagRec]
	subs      *coll[api.Subscription]
	providers *coll[api.IdentityProvider]
	invites   *coll[api.GroupInvite]
	mappings  *coll[api.ExternalGroupRoleMapping]
	assocs    *coll[api.AccountAssociation]
	terms     *coll[termsRec]
	advs      *coll[api.Advisory]
	artifacts *coll[api.Artifact]
	versions  *coll[api.ArtifactVersion]
	people    *people // persons of no group, profiles, requests to join (people.go)

	lazy       *lazyTags // the tags not made yet (lazy.go); nil: none ever
	tagParents pool      // the uids of the repos of tags
	tagNames   pool      // the names of tags

	orgs []string  // root group uids, primary first
	pcg  *rand.PCG // rng's state, copied by a fork
	rng  *rand.Rand

	// provRecs are what the service keeps of identity providers and never
	// answers, by uid (provider_update.go).
	provRecs map[string]providerRec
}

func ms(t api.Time) int64 { return t.Time().UnixMilli() }

func newStore(seed uint64) *store {
	s := &store{people: newPeople(),
		groups: newColl(accessors[api.Group]{
			uid: func(g *api.Group) string { return g.UID }, name: func(g *api.Group) string { return g.Name },
			ctime: func(g *api.Group) int64 { return ms(g.CreateTime) }, utime: func(g *api.Group) int64 { return ms(g.UpdateTime) }}),
		idents: newColl(accessors[api.Identity]{
			uid: func(g *api.Identity) string { return g.UID }, name: func(g *api.Identity) string { return g.Name },
			ctime: func(g *api.Identity) int64 { return ms(g.CreateTime) }, utime: func(g *api.Identity) int64 { return ms(g.UpdateTime) }}),
		roles: newColl(accessors[api.Role]{
			uid: func(g *api.Role) string { return g.UID }, name: func(g *api.Role) string { return g.Name },
			ctime: func(g *api.Role) int64 { return ms(g.CreateTime) }, utime: func(g *api.Role) int64 { return ms(g.UpdateTime) }}),
		bindings: newColl(accessors[bindingRec]{
			uid: func(g *bindingRec) string { return g.UID }, name: func(g *bindingRec) string { return g.IdentityUID },
			ctime: func(g *bindingRec) int64 { return ms(g.Create) }, utime: func(g *bindingRec) int64 { return ms(g.Update) }}),
		repos: newColl(accessors[repoRec]{
			uid: func(g *repoRec) string { return g.UID }, name: func(g *repoRec) string { return g.Name },
			ctime: func(g *repoRec) int64 { return ms(g.CreateTime) }, utime: func(g *repoRec) int64 { return ms(g.UpdateTime) }}),
		subs: newColl(accessors[api.Subscription]{
			uid: func(g *api.Subscription) string { return g.UID }, name: func(g *api.Subscription) string { return g.Sink },
			// A subscription has no times: both orders are by uid.
			ctime: func(*api.Subscription) int64 { return 0 }, utime: func(*api.Subscription) int64 { return 0 }}),
		providers: newColl(accessors[api.IdentityProvider]{
			uid: func(g *api.IdentityProvider) string { return g.UID }, name: func(g *api.IdentityProvider) string { return g.Name },
			ctime: func(g *api.IdentityProvider) int64 { return ms(g.CreateTime) }, utime: func(g *api.IdentityProvider) int64 { return ms(g.UpdateTime) }}),
		invites: newColl(accessors[api.GroupInvite]{
			// An invite has no name nor update time.
			uid: func(g *api.GroupInvite) string { return g.UID }, name: func(g *api.GroupInvite) string { return g.UID },
			ctime: func(g *api.GroupInvite) int64 { return ms(g.CreateTime) }, utime: func(g *api.GroupInvite) int64 { return ms(g.CreateTime) }}),
		mappings: newColl(accessors[api.ExternalGroupRoleMapping]{
			// A mapping has no name nor update time.
			uid: func(g *api.ExternalGroupRoleMapping) string { return g.UID }, name: func(g *api.ExternalGroupRoleMapping) string { return g.UID },
			ctime: func(g *api.ExternalGroupRoleMapping) int64 { return ms(g.CreateTime) },
			utime: func(g *api.ExternalGroupRoleMapping) int64 { return ms(g.CreateTime) }}),
		advs: newColl(accessors[api.Advisory]{
			uid: func(g *api.Advisory) string { return g.UID }, name: func(g *api.Advisory) string { return g.AdvisoryID },
			ctime: func(g *api.Advisory) int64 { return ms(g.CreateTime) }, utime: func(g *api.Advisory) int64 { return ms(g.UpdateTime) }}),
		artifacts: newColl(accessors[api.Artifact]{
			uid: func(g *api.Artifact) string { return g.UID }, name: func(g *api.Artifact) string { return g.Name },
			ctime: func(g *api.Artifact) int64 { return ms(g.CreateTime) }, utime: func(g *api.Artifact) int64 { return ms(g.UpdateTime) }}),
		versions: newColl(accessors[api.ArtifactVersion]{
			// Versions sort by version, numerically: 2.10 after 2.9.
			uid: func(g *api.ArtifactVersion) string { return g.UID }, name: func(g *api.ArtifactVersion) string { return versionKey(g.Version) },
			cmpNames: func(a, b *api.ArtifactVersion) int { return compareVersionKeys(a.Version, b.Version) },
			ctime:    func(g *api.ArtifactVersion) int64 { return ms(g.CreateTime) }, utime: func(g *api.ArtifactVersion) int64 { return ms(g.UpdateTime) }}),
		tagParents: newPool(),
		tagNames:   newPool(),
		pcg:        rand.NewPCG(seed, seed^0x9e3779b97f4a7c15),
	}
	s.rng = rand.New(s.pcg)
	s.assocs, s.terms = newAssociations(), newTerms()
	s.provRecs = map[string]providerRec{}
	s.tags = newColl(accessors[tagRec]{
		uid: s.tagUID, name: s.tagName,
		ctime: func(g *tagRec) int64 { return g.Create }, utime: func(g *tagRec) int64 { return g.Update },
		class:  func(g *tagRec) uint8 { return g.class() },
		cmpUID: s.cmpTagUID, cmpUIDs: s.cmpTagUIDs,
		parent: func(g *tagRec) string { return s.tagParents.at(g.Parent) },
		// A walk through the global lists for the main scope skips at most
		// one entry in 16 on average.
		small: smallTagScope, nameRanges: true, mainShare: 16})
	return s
}

// buildAll indexes every collection after seeding.
func (s *store) buildAll() {
	s.groups.build()
	s.idents.build()
	s.roles.build()
	s.bindings.build()
	s.repos.build()
	s.tags.build()
	s.subs.build()
	s.providers.build()
	s.invites.build()
	s.mappings.build()
	s.assocs.build()
	s.terms.build()
	s.advs.build()
	s.artifacts.build()
	s.versions.build()
}

// hex16 is a fresh 16-hex-digit uid segment.
func (s *store) hex16() string { return fmt.Sprintf("%016x", s.rng.Uint64()) }

// childUID makes a uid under parent that no collection uses yet.
func (s *store) childUID(parent string) string {
	for {
		uid := parent + "/" + s.hex16()
		if _, ok := s.groups.find(uid); ok {
			continue
		}
		if _, ok := s.repos.find(uid); ok {
			continue
		}
		return uid
	}
}

// tagClass says whether a tag name is hidden by default and why, by the
// forms the API gives (the client holds lists to the same).
func tagClass(name string) uint8 {
	switch api.TagShownBy(name) {
	case "include_referrers":
		return classReferrer
	case "include_dates":
		return classDate
	case "include_epochs":
		return classEpoch
	}
	return classNormal
}

// tagOut renders a stored tag. A tag has no creation time on the wire:
// the stored one only orders the tags (created_at).
func (s *store) tagOut(t *tagRec) api.Tag {
	var b strings.Builder
	return s.tagOutIn(&b, t)
}

// tagOutIn is tagOut with the uid and digest strings written to b, and
// cut from it: what b holds is never written again, so they stay as they
// are while b grows.
func (s *store) tagOutIn(b *strings.Builder, t *tagRec) api.Tag {
	start := b.Len()
	s.writeUID(b, t, digestLen)
	n := b.Len()
	writeDigest(b, t.Digest)
	all := b.String()
	return api.Tag{UID: all[start:n], Name: s.tagName(t), Digest: all[n:], Deprecated: t.deprecated(),
		UpdateTime: api.TimeOf(msTime(t.Update))}
}

// bindingOut hydrates a stored binding.
func (s *store) bindingOut(b *bindingRec) api.RoleBinding {
	out := api.RoleBinding{UID: b.UID, CreateTime: b.Create}
	if id, ok := s.idents.get(b.IdentityUID); ok {
		bi := &api.BindingIdentity{UID: id.UID, Name: id.Name, Description: id.Description, Email: id.Email}
		// The binding shows who assumes the identity: a claim match's issuer
		// and subject (exact, else the pattern) or its static keys'.
		switch {
		case id.ClaimMatch != nil:
			bi.Issuer = cmp.Or(id.ClaimMatch.Issuer, id.ClaimMatch.IssuerPattern)
			bi.Subject = cmp.Or(id.ClaimMatch.Subject, id.ClaimMatch.SubjectPattern)
		case id.StaticKeys != nil:
			bi.Issuer, bi.Subject = id.StaticKeys.Issuer, id.StaticKeys.Subject
		}
		out.Identity = bi
	}
	if g, ok := s.groups.get(api.ParentUID(b.UID)); ok {
		out.Group = &api.Ref{UID: g.UID, Name: g.Name, Description: g.Description}
	}
	if r, ok := s.roles.get(b.RoleUID); ok {
		out.Role = &api.Ref{UID: r.UID, Name: r.Name, Description: r.Description}
	}
	return out
}
