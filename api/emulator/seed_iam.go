package emulator

import (
	"slices"
	"strings"
	"time"

	"canopy/api"
)

// folder is a seeded group below an organization, by path.
type folder struct{ path, desc string }

var acmeFolders = []folder{
	{"platform", "Platform engineering: base images and shared tooling."},
	{"platform/ci", "CI runners and build identities."},
	{"platform/base-images", "Base images every team builds on."},
	{"security", "Security team: scanners, audits, policy."},
	{"apps", "Product applications."},
	{"apps/payments", "Payments service and its deployers."},
	{"apps/web", "Public web frontends."},
	{"data", "Data platform."},
	{"data/ml", "Machine learning workloads."},
}

var globexFolders = []folder{
	{"engineering", "Globex engineering."},
	{"engineering/tools", "Internal developer tools."},
}

// roleDef is a role and how its capabilities are chosen from the
// catalogue of those a customer's role may hold (api.Capabilities: the
// vendor's enum less what it reserves), so that a role holds what its
// real counterpart does, not only what the emulator checks.
type roleDef struct {
	name, desc string
	keep       func(cap string) bool
	extra      []string
}

// caps are the names of the role's capabilities, chosen from catalogue.
func (r roleDef) caps(catalogue []api.Capability) []string {
	var out []string
	for _, c := range catalogue {
		if r.keep(c.Name) {
			out = append(out, c.Name)
		}
	}
	for _, c := range r.extra {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func isList(c string) bool { return strings.HasSuffix(c, "_LIST") }

// isRead reports whether a capability only reads: it lists, gets or reads.
func isRead(c string) bool {
	return isList(c) || strings.HasSuffix(c, "_GET") || strings.HasSuffix(c, "_READ")
}

// identityAdmin reports whether a capability manages identities, roles or
// role bindings.
func identityAdmin(c string) bool {
	return !isList(c) && (strings.HasPrefix(c, "CAP_IAM_IDENTITY_") || strings.HasPrefix(c, "CAP_IAM_ROLE") ||
		strings.HasPrefix(c, "CAP_IAM_GROUP_INVITES_") || c == capScimManage)
}

func oneOf(cs ...string) func(string) bool {
	return func(c string) bool { return slices.Contains(cs, c) }
}

// pullCaps are what pulling an image takes beyond listing repos and tags:
// reading its manifests and its blobs (the vendor's enum keeps the old
// registry pull and push capabilities reserved, never granted).
var pullCaps = []string{"CAP_MANIFEST_LIST", "CAP_REPO_BLOBS_GET"}

// builtinRoles are API.md's eight built-in roles. Editor may change
// everything except identities and role bindings; viewer only reads.
var builtinRoles = []roleDef{
	// Only owners manage SCIM provisioning, which makes and removes users.
	{name: "owner", desc: "Full control of the group and everything below it.", keep: func(string) bool { return true },
		extra: []string{capScimManage}},
	{name: "editor", desc: "Read and change resources; cannot manage identities, roles or role bindings.", keep: func(c string) bool { return !identityAdmin(c) }},
	{name: "viewer", desc: "Read-only access to every resource.", keep: isRead},
	{name: "console_viewer", desc: "Read-only access to the console, without the registry.", keep: func(c string) bool {
		return isList(c) && c != capRepoList && c != capTagList
	}},
	{name: "registry.pull", desc: "Pull images from the registry.", keep: oneOf(capGroupsList, capRepoList, capTagList), extra: pullCaps},
	{name: "registry.push", desc: "Push images and tags to the registry.", keep: oneOf(capGroupsList, capRepoList, capTagList, capRepoCreate, capTagCreate, capTagDelete), extra: append(slices.Clone(pullCaps), "CAP_MANIFEST_CREATE", "CAP_MANIFEST_UPDATE")},
	{name: "registry.pull_token_creator", desc: "Create pull tokens (identities bound to registry.pull).", keep: oneOf(capGroupsList, capRepoList, capTagList, capIdentityList, capIdentityCreate, capBindingsList, capBindingsCreate), extra: pullCaps},
	{name: "apk.pull", desc: "Pull APK packages.", keep: oneOf(capGroupsList), extra: []string{"CAP_APK_LIST", "CAP_APK_BLOBS_GET"}},
}

// customRoles are seeded in the primary organization.
var customRoles = []roleDef{
	{name: "release-manager", desc: "Curates repos and moves release tags.", keep: oneOf(capGroupsList, capRepoList, capRepoUpdate, capTagList, capTagCreate, capTagDelete)},
	{name: "auditor", desc: "Reads IAM and registry for quarterly access reviews.", keep: isList},
}

const (
	issuerGitHub = "https://token.actions.githubusercontent.com"
	issuerGoogle = "https://accounts.google.com"
	issuerGitLab = "https://gitlab.com"
	issuerCG     = "https://issuer.enforce.dev"
)

// seedIdentity is an identity and its role bindings (role name @ folder path).
type seedIdentity struct {
	folder, name, desc, email, issuer, subject string
	bindings                                   []string
}

var acmeIdentities = []seedIdentity{
	{"", "alice", "Alice Nakamura, platform lead", "alice@acme.example", issuerGoogle, "104829573610293847561", []string{"owner@"}},
	{"", "bob", "Bob Okafor, SRE", "bob@acme.example", issuerGoogle, "117730195837465019283", []string{"editor@"}},
	{"", "carol", "Carol Díaz, product manager", "carol@acme.example", issuerGoogle, "109283746501928374650", []string{"viewer@"}},
	{"", "github-actions-release", "Release workflow of acme/app on main", "", issuerGitHub, "repo:acme/app:ref:refs/heads/main", []string{"registry.push@", "release-manager@"}},
	{"", "gitlab-ci-infra", "GitLab CI of acme/infra", "", issuerGitLab, "project_path:acme/infra:ref_type:branch:ref:main", []string{"registry.pull@"}},
	{"", "pull-token-prod", "Pull token for the production clusters", "", issuerCG, "pull-token-7f3a9c2e41d8", []string{"registry.pull@"}},
	{"", "auditor-bot", "Quarterly access review", "audit@acme.example", issuerGitHub, "repo:acme/access-review:ref:refs/heads/main", []string{"auditor@"}},
	{"platform/ci", "ci-runner", "Self-hosted CI runners", "", issuerGitHub, "repo:acme/platform:environment:ci", []string{"editor@platform/ci"}},
	{"apps/payments", "payments-deployer", "Deploys the payments service", "", issuerGitHub, "repo:acme/payments:environment:production", []string{"viewer@apps/payments"}},
	{"apps/payments", "payments-ci", "Payments CI", "", issuerGitHub, "repo:acme/payments:ref:refs/heads/main", []string{"editor@apps/payments"}},
	{"security", "security-scanner", "Nightly image scanner", "secops@acme.example", issuerGitHub, "repo:acme/scanner:ref:refs/heads/main", []string{"console_viewer@security", "viewer@apps"}},
	{"apps/web", "web-deployer", "Deploys the web frontends", "", issuerGitLab, "project_path:acme/web:ref_type:branch:ref:main", []string{"editor@apps/web"}},
}

var globexIdentities = []seedIdentity{
	{"globex:", "dave", "Dave Miller, Globex admin", "dave@globex.example", issuerGoogle, "100200300400500600700", []string{"owner@globex:"}},
	{"globex:engineering", "globex-ci", "Globex CI", "", issuerGitHub, "repo:globex/tools:ref:refs/heads/main", []string{"registry.push@globex:"}},
}

var subscriptionSinks = []struct{ folder, sink string }{
	{"", "https://hooks.acme.example/chainguard/events"},
	{"", "https://events.pagerduty.com/integration/5f0e2b7c9a1d4e3f/enqueue"},
	{"platform", "https://ci.acme.example/webhooks/registry-push"},
	{"security", "https://siem.acme.example/ingest/chainguard"},
	{"apps/payments", "https://payments.acme.example/hooks/image-updates"},
	{"globex:", "https://hooks.globex.example/registry"},
}

// seedIAM adds custom roles, identities, their bindings and subscriptions,
// each created after the group it is in (a binding after its identity too).
func (s *seeder) seedIAM(acme, globex string) {
	roleUID := map[string]string{}
	for _, r := range builtinRoles {
		roleUID[r.name] = builtinRoleUID(r.name)
	}
	for _, r := range customRoles {
		c, u := s.createdIn(acme, 90*day)
		uid := acme + "/" + s.hex16()
		s.roles.add(api.Role{UID: uid, Name: r.name, Description: r.desc, Capabilities: r.caps(s.catalogue), CreateTime: c, UpdateTime: u})
		roleUID[r.name] = uid
	}
	for _, list := range [][]seedIdentity{acmeIdentities, globexIdentities} {
		for _, id := range list {
			group := s.folders[id.folder]
			c, u := s.createdIn(group, 300*day)
			uid := group + "/" + s.hex16()
			s.idents.add(api.Identity{UID: uid, Name: id.name, Description: id.desc, Email: id.email,
				ClaimMatch:   &api.ClaimMatch{Issuer: id.issuer, Subject: id.subject},
				LastSeenTime: api.TimeOf(s.recently(c.Time(), 30*day)), CreateTime: c, UpdateTime: u})
			for _, b := range id.bindings {
				role, path, _ := strings.Cut(b, "@")
				on := s.folders[path]
				t := api.TimeOf(s.after(later(c.Time(), s.born[on]), 60*day))
				s.bindings.add(bindingRec{UID: on + "/" + s.hex16(), IdentityUID: uid, RoleUID: roleUID[role], Create: t, Update: t})
			}
		}
	}
	for _, sub := range subscriptionSinks {
		group := s.folders[sub.folder]
		// A subscription has no times; the draw keeps the seed's later values.
		s.createdIn(group, 365*day)
		s.subs.add(api.Subscription{UID: group + "/" + s.hex16(), Sink: sub.sink})
	}
}

// recently is a random time within span before now, and not before t.
func (s *seeder) recently(t time.Time, span time.Duration) time.Time {
	span = max(0, min(span, s.now.Sub(t)))
	return s.now.Add(-time.Duration(s.frac() * float64(span))).Truncate(time.Millisecond)
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
