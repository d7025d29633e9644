package api_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"sort"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
)

// contractCheck holds every request the client sends to api.Contract(),
// call by call, and remembers what of the table the requests exercised.
type contractCheck struct {
	t      *testing.T
	x      *exchanges
	routes map[string]api.Route
	used   map[string]bool // "Call", "Call query name", "Call mask path", "Call body path", "Call replace"
	seen   []shapeExchange // every exchange checked, for the protos' messages to read after the drive
}

// done checks the requests made since the last check, all of the route of
// call. items is how many items a List returned (-1: not a List, or more
// than one request): the answer must have had as many under the list key.
func (ck *contractCheck) done(call string, items int) {
	ck.t.Helper()
	r, ok := ck.routes[call]
	if !ok {
		ck.t.Fatalf("%s: no such call in the table", call)
	}
	exs := ck.x.take()
	if len(exs) == 0 {
		ck.t.Errorf("%s sent no request", call)
		return
	}
	ck.used[call] = true
	for _, ex := range exs {
		ck.seen = append(ck.seen, shapeExchange{call: r, ex: ex})
		for _, b := range checkExchange(r, ex, func(what string) { ck.used[call+" "+what] = true }) {
			ck.t.Errorf("%s: %s %s: %s", call, ex.method, ex.target, b)
		}
	}
	if ex := exs[0]; items >= 0 && len(exs) == 1 && r.ListKey != "" && ex.status == 200 {
		ck.countItems(call, r.ListKey, ex.answer, items)
	}
}

// countItems holds a page to the list key: the client read as many items
// as the page has under it, and the page has no items under another key.
// (An empty list may be left out of a page.)
func (ck *contractCheck) countItems(call, key string, answer []byte, read int) {
	ck.t.Helper()
	var page map[string]json.RawMessage
	if err := json.Unmarshal(answer, &page); err != nil {
		ck.t.Errorf("%s: the answer is not a page: %v", call, err)
		return
	}
	var got []json.RawMessage
	for k, v := range page {
		var list []json.RawMessage
		switch err := json.Unmarshal(v, &list); {
		case k == key && err != nil && string(v) != "null":
			ck.t.Errorf("%s: %s is not a list: %.100s", call, key, v)
		case k == key:
			got = list
		case err == nil && len(list) > 0:
			ck.t.Errorf("%s: the page has items under %s, the table's list key is %s", call, k, key)
		}
	}
	if len(got) != read {
		ck.t.Errorf("%s: the page had %d items under %s, the client read %d", call, len(got), key, read)
	}
}

// answered checks the requests of a call whose answer may be an error: only
// what was sent matters, but something must have been (err is the server's).
func (ck *contractCheck) answered(call string, err error) {
	ck.t.Helper()
	if _, ok := api.AsError(err); err != nil && !ok {
		ck.t.Errorf("%s: %v, want a request and the server's answer", call, err)
	}
	ck.done(call, -1)
}

// lists drives a List with each of opts, one page each; the first over two
// pages, to send every paging parameter. It returns every item read.
func lists[T any](ck *contractCheck, call string, list api.Lister[T], opts ...api.ListOptions) []T {
	ck.t.Helper()
	var out []T
	for i, o := range opts {
		if i == 0 {
			o.PageSize, o.OrderBy = 1, api.OrderUID
		}
		p := must(list(ck.t.Context(), o))(ck.t)
		ck.done(call, len(p.Items))
		out = append(out, p.Items...)
		if i == 0 && !p.Last() {
			o.PageToken, o.Skip = p.NextPageToken, 1
			p = must(list(ck.t.Context(), o))(ck.t)
			ck.done(call, len(p.Items))
			out = append(out, p.Items...)
		}
	}
	return out
}

// pick is the first item that keep takes; the test fails without one.
func pick[T any](t *testing.T, items []T, keep func(T) bool) T {
	t.Helper()
	i := slices.IndexFunc(items, keep)
	if i < 0 {
		t.Fatalf("none of the %d %T listed is the one wanted", len(items), items)
	}
	return items[i]
}

// hierarchy are the three uidp filters over org.
func hierarchy(org string) []api.ListOptions {
	return []api.ListOptions{{DescendantsOf: org}, {ChildrenOf: org}, {InRoot: true}}
}

// TestContractRequests drives every call of the client over the emulator
// and holds each request to api.Contract(): method, escaped path against
// the route template, query names, body fields, mask paths and enum values
// sent. Then every call, query name, mask path and body field of the table
// must have been exercised. Answers matter only where a List's items are
// counted: a call the emulator may refuse (a member it does not update, an
// artifact it lacks) is checked for what it sent.
func TestContractRequests(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	srv, err := emulator.New(emulator.Options{AdminToken: adminToken, Seed: 1, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	x := &exchanges{next: srv}
	hs := httptest.NewServer(x)
	t.Cleanup(hs.Close)
	c := newClient(t, hs.URL, api.Options{TokenSource: static(adminToken), Retry: api.NoRetry()})
	ck := &contractCheck{t: t, x: x, routes: map[string]api.Route{}, used: map[string]bool{}}
	for _, r := range api.Contract() {
		ck.routes[r.Call] = r
	}
	ctx, org := t.Context(), srv.OrgUID()

	must(c.Ping(ctx))(t)
	ck.done("Ping", -1)

	driveRegistry(ck, c, org)
	driveIAM(ck, c, org)
	driveRoleBindingChanges(ck, c, org)
	driveScim(ck, c, org)
	driveAccess(ck, c, org)
	driveMappings(ck, c, org)
	driveAssociations(ck, c, org)
	driveTerms(ck, c, org)
	driveJoining(ck, c, org, persons(t, srv, hs.URL))
	driveRoles(ck, c, org)
	driveFeeds(ck, c, org)
	driveSecurityAdvisory(ck, c, clk.Now())
	if rest := x.take(); len(rest) > 0 {
		t.Errorf("%d requests after the last call checked, the first %s %s", len(rest), rest[0].method, rest[0].target)
	}
	// What travelled, read as the vendor's messages: a subtest, so that
	// without the definitions only it skips.
	t.Run("protojson", func(t *testing.T) { checkShapes(t, ck.seen) })

	var missing []string
	for _, r := range api.Contract() {
		want := []string{r.Call}
		for _, q := range r.Query {
			want = append(want, r.Call+" query "+q)
		}
		for _, u := range r.Updates {
			want = append(want, r.Call+" mask "+u.Mask)
		}
		for _, s := range r.Sends {
			want = append(want, r.Call+" body "+s)
		}
		if r.Replace {
			want = append(want, r.Call+" replace")
		}
		for _, w := range want {
			if !ck.used[w] {
				missing = append(missing, w)
			}
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("never exercised: %s", m)
	}
}

func driveRegistry(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	repos := lists(ck, "ListRepos", c.ListRepos, append(hierarchy(org), api.ListOptions{DescendantsOf: org, Name: "python"})...)
	py := pick(t, repos, func(r api.Repo) bool { return r.Name == "python" })
	if byID := lists(ck, "ListRepos", c.ListRepos, api.ListOptions{DescendantsOf: org, IDs: []string{py.UID}}); len(byID) != 1 || byID[0].UID != py.UID {
		t.Errorf("ListRepos by uidp.ids %s: %d repos", py.UID, len(byID))
	}
	must(c.GetRepo(ctx, py.UID))(t)
	ck.done("GetRepo", -1)
	must(c.GetRepoReadme(ctx, py.UID))(t)
	ck.done("GetRepoReadme", -1)

	tags := lists(ck, "ListTags", c.ListTags, append(hierarchy(org),
		api.ListOptions{ChildrenOf: py.UID, IncludeReferrers: true, IncludeEpochs: true, IncludeDates: true},
		api.ListOptions{ChildrenOf: py.UID, Name: "latest"})...)
	latest := pick(t, tags, func(g api.Tag) bool { return g.Name == "latest" })
	must(c.GetTag(ctx, latest.UID))(t)
	ck.done("GetTag", -1)
	arch := must(c.GetArchitectures(ctx, py.UID, latest.Digest))(t).Architectures[0]
	ck.done("GetArchitectures", -1)
	must(c.GetImageSize(ctx, py.UID, latest.Digest, arch))(t)
	ck.done("GetImageSize", -1)
	// A digest is one segment: even one holding a slash stays one.
	_, err := c.GetArchitectures(ctx, py.UID, "sha256/odd")
	ck.answered("GetArchitectures", err)
	_, err = c.GetImageSize(ctx, py.UID, "sha256/odd", arch)
	ck.answered("GetImageSize", err)

	tag := must(c.CreateTag(ctx, py.UID, "contract", latest.Digest))(t)
	ck.done("CreateTag", -1)
	must(0, c.DeleteTag(ctx, tag.UID))(t)
	ck.done("DeleteTag", -1)

	repo := must(c.CreateRepo(ctx, org, api.Repo{Name: "contract", Description: "checked", CatalogTier: api.CatalogTierBase}))(t)
	ck.done("CreateRepo", -1)
	want := *repo
	want.Name, want.Description, want.CatalogTier = "contract-renamed", "checked again", api.CatalogTierFIPS
	want.Bundles, want.Aliases = []string{"contract"}, []string{"contract-alias"}
	for _, m := range []string{api.FieldName, api.FieldDescription, api.FieldCatalogTier, api.FieldBundles, api.FieldAliases, api.FieldAll} {
		must(c.PatchRepo(ctx, want, m))(t)
		ck.done("PatchRepo", -1)
	}
	must(0, c.DeleteRepo(ctx, repo.UID))(t)
	ck.done("DeleteRepo", -1)
}

func driveIAM(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	groups := lists(ck, "ListGroups", c.ListGroups, append(hierarchy(org), api.ListOptions{ChildrenOf: org, Name: "platform"})...)
	platform := pick(t, groups, func(g api.Group) bool { return g.Name == "platform" })
	must(c.GetGroup(ctx, org))(t)
	ck.done("GetGroup", -1)
	g := must(c.CreateGroup(ctx, platform.UID, api.Group{Name: "contract", Description: "checked"}))(t)
	ck.done("CreateGroup", -1)
	g.Name, g.Description = "contract-renamed", "checked again"
	for _, m := range []string{api.FieldName, api.FieldDescription, api.FieldAll} {
		g = must(c.PatchGroup(ctx, *g, m))(t)
		ck.done("PatchGroup", -1)
	}
	must(0, c.DeleteGroup(ctx, g.UID))(t)
	ck.done("DeleteGroup", -1)

	ids := lists(ck, "ListIdentities", c.ListIdentities, append(hierarchy(org), api.ListOptions{Name: "carol"})...)
	carol := pick(t, ids, func(id api.Identity) bool { return id.Name == "carol" })
	must(c.GetIdentity(ctx, carol.UID))(t)
	ck.done("GetIdentity", -1)
	exact := api.ClaimMatch{Issuer: "https://issuer.example", Subject: "robot", Audience: "canopy",
		Claims: map[string]string{"ref": "main"}}
	id := must(c.CreateIdentity(ctx, platform.UID, api.Identity{Name: "contract", Description: "checked", ClaimMatch: &exact}))(t)
	ck.done("CreateIdentity", -1)
	patterns := api.ClaimMatch{IssuerPattern: "https://.*", SubjectPattern: "robot-.*", AudiencePattern: "canopy.*",
		ClaimPatterns: map[string]string{"ref": ".*"}}
	other, err := c.CreateIdentity(ctx, platform.UID, api.Identity{Name: "contract-patterns", ClaimMatch: &patterns})
	ck.answered("CreateIdentity", err)
	// Each member alone; the body carries that member only, whatever else is set.
	for _, m := range []string{api.ClaimIssuer, api.ClaimIssuerPattern, api.ClaimSubject, api.ClaimSubjectPattern,
		api.ClaimAudience, api.ClaimAudiencePattern, api.ClaimClaims, api.ClaimClaimPatterns} {
		both := exact
		both.IssuerPattern, both.SubjectPattern, both.AudiencePattern, both.ClaimPatterns =
			patterns.IssuerPattern, patterns.SubjectPattern, patterns.AudiencePattern, patterns.ClaimPatterns
		next := *id
		next.ClaimMatch = &both
		_, err := c.PatchIdentity(ctx, next, api.ClaimMatchField(m))
		ck.answered("PatchIdentity", err)
	}
	id.Name, id.Description = "contract-renamed", "checked again"
	for _, m := range []string{api.FieldName, api.FieldDescription, api.FieldClaimMatch, api.FieldAll} {
		_, err := c.PatchIdentity(ctx, *id, m)
		ck.answered("PatchIdentity", err)
	}
	must(0, c.DeleteIdentity(ctx, id.UID))(t)
	ck.done("DeleteIdentity", -1)
	if other != nil {
		must(0, c.DeleteIdentity(ctx, other.UID))(t)
		ck.done("DeleteIdentity", -1)
	}

	lists(ck, "ListRoles", c.ListRoles, append(hierarchy(org), api.ListOptions{Name: "viewer"})...)
	must(c.RolesOf(ctx, org))(t)
	ck.done("ListRoles", -1)
	must(c.GetRole(ctx, viewerRole))(t)
	ck.done("GetRole", -1)

	lists(ck, "ListRoleBindings", c.ListRoleBindings, append(hierarchy(org),
		api.ListOptions{Identity: carol.UID, Group: org, Role: viewerRole})...)
	b := must(c.CreateRoleBinding(ctx, platform.UID, api.CreateRoleBinding{IdentityUID: carol.UID, RoleUID: viewerRole}))(t)
	ck.done("CreateRoleBinding", -1)
	must(c.GetRoleBinding(ctx, b.UID))(t)
	ck.done("GetRoleBinding", -1)
	must(0, c.DeleteRoleBinding(ctx, b.UID))(t)
	ck.done("DeleteRoleBinding", -1)
}

func driveFeeds(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	adv := lists(ck, "ListAdvisories", c.ListAdvisories, api.ListOptions{})[0]
	lists(ck, "ListAdvisories", c.ListAdvisories, append(hierarchy(org), api.ListOptions{
		ArtifactNames: []string{adv.ArtifactName}, AdvisoryIDs: []string{adv.AdvisoryID}, Query: "cve"})...)
	lists(ck, "ListAdvisories", c.ListAdvisories, api.ListOptions{ArtifactNames: []string{adv.ArtifactName}, LatestEventType: api.EventFixed},
		api.ListOptions{Origin: adv.ArtifactName, LatestEventType: api.EventDetection})
	must(c.GetAdvisory(ctx, adv.UID))(t)
	ck.done("GetAdvisory", -1)

	arts := lists(ck, "ListArtifacts", c.ListArtifacts, api.ListOptions{},
		api.ListOptions{Ecosystems: []string{api.EcosystemPython}, Query: "re"})
	art := arts[0]
	versions := func(uid string) api.Lister[api.ArtifactVersion] {
		return func(ctx context.Context, o api.ListOptions) (*api.Page[api.ArtifactVersion], error) {
			return c.ListArtifactVersions(ctx, uid, o)
		}
	}
	lists(ck, "ListArtifactVersions", versions(art.UID), api.ListOptions{})
	// An artifact id holds a slash, and is one segment: it must be sent
	// escaped, whether or not the server has the artifact.
	_, err := c.ListArtifactVersions(ctx, "pypi/requests", api.ListOptions{})
	ck.answered("ListArtifactVersions", err)
	must(c.CountArtifacts(ctx))(t)
	ck.done("CountArtifacts", -1)
	must(c.CountArtifacts(ctx, api.EcosystemJava))(t)
	ck.done("CountArtifacts", -1)

	s := must(c.CreateSubscription(ctx, org, api.Subscription{Sink: "https://hooks.example.com/contract"}))(t)
	ck.done("CreateSubscription", -1)
	must(c.CreateSubscription(ctx, org, api.Subscription{Sink: "https://hooks.example.com/contract-2"}))(t)
	ck.done("CreateSubscription", -1)
	lists(ck, "ListSubscriptions", c.ListSubscriptions, hierarchy(org)...)
	must(c.GetSubscription(ctx, s.UID))(t)
	ck.done("GetSubscription", -1)
	must(0, c.DeleteSubscription(ctx, s.UID))(t)
	ck.done("DeleteSubscription", -1)
}
