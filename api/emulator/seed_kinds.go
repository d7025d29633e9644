package emulator

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"canopy/api"
)

// Identities assumed otherwise than by an exact issuer and subject, and a
// repo that syncs from another. They are seeded after everything else
// (but the hostile data), so the rest of the organization is what it was
// before they were added.

// kindIdentity is a seeded identity with any relationship, and its role
// bindings (role name @ folder path).
type kindIdentity struct {
	folder   string
	id       api.Identity
	bindings []string
}

// consoleAudience is the audience tokens for the API carry.
const consoleAudience = "https://console-api.enforce.dev"

var kindIdentities = []kindIdentity{
	{"", api.Identity{Name: "github-actions-main", Description: "Any acme repository's workflows on main",
		ClaimMatch: &api.ClaimMatch{Issuer: issuerGitHub, SubjectPattern: `repo:acme/.*:ref:refs/heads/main`, Audience: consoleAudience}},
		[]string{"registry.pull@"}},
	{"apps/web", api.Identity{Name: "web-buildkite-deploy", Description: "Buildkite deploy pipelines of the web team",
		ClaimMatch: &api.ClaimMatch{IssuerPattern: `https://agent\.buildkite\.com`, SubjectPattern: `organization:acme:pipeline:deploy-.*`,
			AudiencePattern: `https://console-api\.enforce\.dev|cgr\.dev`,
			Claims:          map[string]string{"organization_slug": "acme", "build_branch": "main"},
			ClaimPatterns:   map[string]string{"pipeline_slug": `deploy-(web|edge)`}}},
		[]string{"viewer@apps/web"}},
	{"platform/ci", api.Identity{Name: "lab-airgap-builder", Description: "Builder in the air-gapped lab (no online issuer)"},
		[]string{"registry.push@"}},
	{"", api.Identity{Name: "eks-nodes", Description: "EKS worker nodes of the production account",
		AWSIdentity: &api.AWSIdentity{AWSAccount: "123456789012", ARNPattern: `arn:aws:sts::123456789012:assumed-role/eks-node-.*`,
			UserIDPattern: `AROA[A-Z0-9]{16}:i-[0-9a-f]{17}`}},
		[]string{"registry.pull@"}},
	{"", api.Identity{Name: "catalog-syncer", Description: "Chainguard's catalog syncer, which copies images into acme",
		ServicePrincipal: "SERVICE_PRINCIPAL_CATALOG_SYNCER"},
		[]string{"registry.push@"}},
}

// jwks is a JSON Web Key Set of one EC P-256 key, drawn from the seed.
func (s *seeder) jwks() string {
	coord := func() string {
		b := make([]byte, 32)
		for i := range b {
			b[i] = byte(s.rng.IntN(256))
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	kid := s.hex16()
	return fmt.Sprintf(`{"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":%q,"x":%q,"y":%q}]}`, kid, coord(), coord())
}

// cloneIdentity copies an identity and everything it points to.
func cloneIdentity(id api.Identity) api.Identity {
	if id.ClaimMatch != nil {
		cm := *id.ClaimMatch
		cm.Claims, cm.ClaimPatterns = maps.Clone(cm.Claims), maps.Clone(cm.ClaimPatterns)
		id.ClaimMatch = &cm
	}
	if id.StaticKeys != nil {
		sk := *id.StaticKeys
		sk.Audiences = slices.Clone(sk.Audiences)
		id.StaticKeys = &sk
	}
	if id.AWSIdentity != nil {
		a := *id.AWSIdentity
		id.AWSIdentity = &a
	}
	return id
}

// seedIdentityKinds adds kindIdentities, each created after its group and
// bound after it was created.
func (s *seeder) seedIdentityKinds() {
	for _, k := range kindIdentities {
		group := s.folders[k.folder]
		c, u := s.createdIn(group, 300*day)
		id := cloneIdentity(k.id) // each store its own: a server must not change the template
		id.UID, id.CreateTime, id.UpdateTime = group+"/"+s.hex16(), c, u
		if id.Name == "lab-airgap-builder" {
			// Static keys expire at most a year after they were registered.
			id.StaticKeys = &api.StaticKeys{Issuer: "https://builder.lab.acme.example", Subject: "lab-airgap-builder",
				IssuerKeys: s.jwks(), Audiences: []string{consoleAudience},
				ExpirationTime: api.TimeOf(s.now.Add(time.Duration(30+s.rng.IntN(300)) * day))}
		}
		id.LastSeenTime = api.TimeOf(s.recently(c.Time(), 30*day))
		s.idents.add(id)
		for _, b := range k.bindings {
			role, path, _ := strings.Cut(b, "@")
			on := s.folders[path]
			t := api.TimeOf(s.after(later(c.Time(), s.born[on]), 60*day))
			s.bindings.add(bindingRec{UID: on + "/" + s.hex16(), IdentityUID: id.UID, RoleUID: builtinRoleUID(role), Create: t, Update: t})
		}
	}
}

// seedSyncedRepo adds a repo of the second organization that syncs from
// another of it: its tier, bundles, aliases and active tags are its
// source's. (The primary organization keeps its repos as they were.)
func (s *seeder) seedSyncedRepo() {
	var def seedRepo
	for _, r := range globexRepos() {
		if r.name == "static" {
			def = r
		}
	}
	src := -1
	for i := range s.repos.items {
		if r := &s.repos.items[i]; r.Name == def.name && api.RootUID(r.UID) == s.orgs[1] {
			src = i
		}
	}
	if src < 0 {
		return
	}
	def.desc = s.repos.items[src].Description
	s.seedRepo(&def, s.folders["globex:engineering/tools"], "static-synced", "globex.example")
	// By index: adding the repo may have moved the items.
	from, r := &s.repos.items[src], &s.repos.items[len(s.repos.items)-1]
	inherit(&r.Repo, from)
	r.SyncConfig = &api.SyncConfig{Source: from.UID, UniqueTags: true, ExpirationTime: api.TimeOf(s.now.Add(10 * day))}
}
