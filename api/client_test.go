package api_test

import (
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

func TestNewRejectsBadBaseURLs(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"", "ftp://example.com", "http://", "://nope", "example.com/api"} {
		if c, err := api.New(api.Options{BaseURL: base}); err == nil {
			t.Errorf("New(%q) = client for %s, want an error", base, c.BaseURL())
		}
	}
	c, err := api.New(api.Options{BaseURL: "https://console-api.enforce.dev/"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.BaseURL(); got != "https://console-api.enforce.dev" {
		t.Errorf("BaseURL() = %q, want the trailing slash dropped", got)
	}
}

func TestPingNeedsNoToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	c := newClient(t, e.url, api.Options{})
	if got := must(c.Ping(t.Context()))(t); got != "pong" {
		t.Errorf("Ping = %q, want pong", got)
	}
	if h := e.rec.last(t).Header.Get("Authorization"); h != "" {
		t.Errorf("Ping without a token source sent Authorization %q", h)
	}
}

func TestGroups(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	orgs := must(c.ListGroups(ctx, api.ListOptions{InRoot: true}))(t)
	var names []string
	for _, g := range orgs.Items {
		names = append(names, g.Name)
	}
	if !slices.Equal(names, []string{"acme.example", "globex.example"}) && !slices.Equal(names, []string{"globex.example", "acme.example"}) {
		t.Errorf("organizations = %q, want acme.example and globex.example", names)
	}
	org := must(c.GetGroup(ctx, e.org))(t)
	if org.Name != "acme.example" || org.Kind != "ORG_KIND_CUSTOMER" || !org.Verified || org.CreateTime.IsZero() {
		t.Errorf("GetGroup(org) = %+v", org)
	}
	below := must(c.ListGroups(ctx, api.ListOptions{DescendantsOf: e.org, OrderBy: api.OrderName}))(t)
	if below.Total != 9 || int64(len(below.Items)) != below.Total {
		t.Errorf("groups below the org: %d of total %d, want 9", len(below.Items), below.Total)
	}

	g := must(c.CreateGroup(ctx, e.org, api.Group{Name: "scratch", Description: "made by a test"}))(t)
	if !api.IsChild(g.UID, e.org) || g.Name != "scratch" || g.Description != "made by a test" {
		t.Fatalf("CreateGroup = %+v", g)
	}
	g.Description, g.Name = "changed", "ignored: not in the mask"
	p := must(c.PatchGroup(ctx, *g, api.FieldDescription))(t)
	if p.Description != "changed" || p.Name != "scratch" {
		t.Errorf("PatchGroup(description) = %+v, want only the description changed", p)
	}
	if err := c.DeleteGroup(ctx, g.UID); err != nil {
		t.Fatalf("DeleteGroup: %v", err)
	}
	if _, err := c.GetGroup(ctx, g.UID); !api.IsNotFound(err) {
		t.Errorf("GetGroup after delete: %v, want NOT_FOUND", err)
	}
}

func TestIdentitiesAndRoleBindings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	ids := must(c.ListIdentities(ctx, api.ListOptions{DescendantsOf: e.org, Name: "carol"}))(t)
	if len(ids.Items) != 1 || ids.Items[0].Email != "carol@acme.example" || ids.Items[0].ClaimMatch == nil {
		t.Fatalf("identities named carol: %+v", ids.Items)
	}
	carol := must(c.GetIdentity(ctx, ids.Items[0].UID))(t)
	if carol.Name != "carol" || carol.ClaimMatch.Issuer != "https://accounts.google.com" {
		t.Errorf("GetIdentity = %+v", carol)
	}

	g := must(c.CreateGroup(ctx, e.org, api.Group{Name: "bots"}))(t)
	cm := &api.ClaimMatch{Issuer: "https://token.actions.githubusercontent.com", Subject: "repo:acme/bot:ref:refs/heads/main"}
	id := must(c.CreateIdentity(ctx, g.UID, api.Identity{Name: "deploy bot", Description: "deploys", ClaimMatch: cm}))(t)
	if !api.IsChild(id.UID, g.UID) || id.Name != "deploy bot" || !reflect.DeepEqual(id.ClaimMatch, cm) {
		t.Fatalf("CreateIdentity = %+v", id)
	}
	id.Description = "deploys, nightly"
	if p := must(c.PatchIdentity(ctx, *id, api.FieldDescription))(t); p.Description != "deploys, nightly" {
		t.Errorf("PatchIdentity description = %q", p.Description)
	}

	viewer := must(c.GetRole(ctx, viewerRole))(t)
	if viewer.Name != "viewer" || len(viewer.Capabilities) == 0 {
		t.Errorf("GetRole(viewer) = %+v", viewer)
	}
	roles := must(c.ListRoles(ctx, api.ListOptions{PageSize: 200}))(t)
	var roleNames []string
	for _, r := range roles.Items {
		roleNames = append(roleNames, r.Name)
	}
	for _, want := range []string{"owner", "editor", "viewer", "registry.pull", "release-manager"} {
		if !slices.Contains(roleNames, want) {
			t.Errorf("ListRoles lacks %q: %q", want, roleNames)
		}
	}

	b := must(c.CreateRoleBinding(ctx, g.UID, api.CreateRoleBinding{IdentityUID: id.UID, RoleUID: viewerRole}))(t)
	want := api.RoleBinding{UID: b.UID,
		Identity: &api.BindingIdentity{UID: id.UID, Name: "deploy bot", Description: "deploys, nightly", Issuer: cm.Issuer, Subject: cm.Subject},
		Group:    &api.Ref{UID: g.UID, Name: "bots"},
		Role:     &api.Ref{UID: viewerRole, Name: "viewer", Description: viewer.Description}}
	if !api.IsChild(b.UID, g.UID) || *b.Identity != *want.Identity || *b.Group != *want.Group || *b.Role != *want.Role {
		t.Errorf("CreateRoleBinding = %+v %+v %+v %+v, want %+v %+v %+v", b, b.Identity, b.Group, b.Role, want.Identity, want.Group, want.Role)
	}
	got := must(c.GetRoleBinding(ctx, b.UID))(t)
	if got.Identity.Name != "deploy bot" || got.Role.Name != "viewer" || got.Group.Name != "bots" {
		t.Errorf("GetRoleBinding = %+v", got)
	}
	list := must(c.ListRoleBindings(ctx, api.ListOptions{Identity: id.UID}))(t)
	if list.Total != 1 || list.Items[0].UID != b.UID {
		t.Errorf("ListRoleBindings(identity) = %d items, total %d", len(list.Items), list.Total)
	}
	for range 2 { // deleting an absent binding succeeds too
		if err := c.DeleteRoleBinding(ctx, b.UID); err != nil {
			t.Fatalf("DeleteRoleBinding: %v", err)
		}
	}
	if err := c.DeleteIdentity(ctx, id.UID); err != nil {
		t.Fatalf("DeleteIdentity: %v", err)
	}
	if _, err := c.GetIdentity(ctx, id.UID); !api.IsNotFound(err) {
		t.Errorf("GetIdentity after delete: %v, want NOT_FOUND", err)
	}
}

func TestReposAndImages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	py := repoNamed(t, e, "python")
	if got := must(c.GetRepo(ctx, py.UID))(t); got.Name != "python" || got.CatalogTier != "CATALOG_TIER_BASE" || len(got.ActiveTags) == 0 {
		t.Errorf("GetRepo(python) = %+v", got)
	}
	rd := must(c.GetRepoReadme(ctx, py.UID))(t)
	if rd.UID != py.UID || !strings.HasPrefix(rd.Content, "# python\n") {
		t.Errorf("readme = %+v", rd)
	}
	tags := must(c.ListTags(ctx, api.ListOptions{ChildrenOf: py.UID, Name: "latest"}))(t)
	if len(tags.Items) != 1 || !strings.HasPrefix(tags.Items[0].Digest, "sha256:") {
		t.Fatalf("python:latest = %+v", tags.Items)
	}
	digest := tags.Items[0].Digest
	archs := must(c.GetArchitectures(ctx, py.UID, digest))(t).Architectures
	if len(archs) == 0 {
		t.Fatal("no architectures")
	}
	for _, a := range archs {
		size := must(c.GetImageSize(ctx, py.UID, digest, a))(t)
		if size.Architecture != a || size.Size < 1<<20 {
			t.Errorf("GetImageSize(%s) = %+v", a, size)
		}
	}

	r := must(c.CreateRepo(ctx, e.org, api.Repo{Name: "scratch", Description: "first", CatalogTier: "CATALOG_TIER_APPLICATION"}))(t)
	if !api.IsChild(r.UID, e.org) || r.Name != "scratch" || r.CatalogTier != "CATALOG_TIER_APPLICATION" {
		t.Fatalf("CreateRepo = %+v", r)
	}
	r.Description, r.Bundles = "second", []string{"application", "extra"}
	p := must(c.PatchRepo(ctx, *r, api.FieldDescription, api.FieldBundles))(t)
	if p.Description != "second" || !slices.Equal(p.Bundles, r.Bundles) {
		t.Errorf("PatchRepo = %+v", p)
	}
	if err := c.DeleteRepo(ctx, r.UID); err != nil {
		t.Fatalf("DeleteRepo: %v", err)
	}
	if _, err := c.GetRepo(ctx, r.UID); !api.IsNotFound(err) {
		t.Errorf("GetRepo after delete: %v, want NOT_FOUND", err)
	}
}

func TestTags(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	big := repoNamed(t, e, "aws-cli") // over a thousand tags
	shown := must(c.ListTags(ctx, api.ListOptions{ChildrenOf: big.UID}))(t)
	all := must(c.ListTags(ctx, api.ListOptions{ChildrenOf: big.UID, IncludeReferrers: true, IncludeEpochs: true, IncludeDates: true}))(t)
	if shown.Total < 1000 || all.Total <= shown.Total || len(shown.Items) != 50 {
		t.Errorf("aws-cli tags: %d shown (page of %d), %d with hidden ones; want over 1000, fewer than with hidden ones, pages of 50",
			shown.Total, len(shown.Items), all.Total)
	}
	for _, tg := range shown.Items {
		if strings.HasPrefix(tg.Name, "sha256-") {
			t.Errorf("referrer tag %q listed without IncludeReferrers", tg.Name)
		}
	}

	r := must(c.CreateRepo(ctx, e.org, api.Repo{Name: "tagged"}))(t)
	d1, d2 := "sha256:"+strings.Repeat("a", 64), "sha256:"+strings.Repeat("b", 64)
	tg := must(c.CreateTag(ctx, r.UID, "v1", d1))(t)
	if tg.Name != "v1" || tg.Digest != d1 || !api.IsChild(tg.UID, r.UID) {
		t.Fatalf("CreateTag = %+v", tg)
	}
	moved := must(c.CreateTag(ctx, r.UID, "v1", d2))(t)
	if moved.UID != tg.UID || moved.Digest != d2 {
		t.Errorf("CreateTag of an existing name = %+v, want uid %s moved to %s", moved, tg.UID, d2)
	}
	if got := must(c.GetTag(ctx, tg.UID))(t); got.Digest != d2 {
		t.Errorf("GetTag digest = %s, want %s", got.Digest, d2)
	}
	if err := c.DeleteTag(ctx, tg.UID); err != nil {
		t.Fatalf("DeleteTag: %v", err)
	}
	if left := must(c.ListTags(ctx, api.ListOptions{ChildrenOf: r.UID}))(t); left.Total != 0 {
		t.Errorf("tags left after delete: %d", left.Total)
	}
}

func TestAdvisories(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	var all []api.Advisory
	cur := api.NewCursor(c.ListAdvisories, api.ListOptions{PageSize: 200}, api.AdvisoryKey)
	for a, err := range cur.All(ctx) {
		all = append(all, must(a, err)(t))
	}
	if total, ok := cur.Total(); len(all) < 300 || !ok || int64(len(all)) != total {
		t.Fatalf("advisories: %d, total %d (%v), want a few hundred, all of them", len(all), total, ok)
	}
	a := all[17]
	if got := must(c.GetAdvisory(ctx, a.UID))(t); got.AdvisoryID != a.AdvisoryID || len(got.Events) == 0 || len(got.Aliases) == 0 {
		t.Errorf("GetAdvisory = %+v, want %+v", got, a)
	}
	count := func(keep func(api.Advisory) bool) (n int64) {
		for _, x := range all {
			if keep(x) {
				n++
			}
		}
		return n
	}
	names := []string{"openssl", "curl"}
	cases := []struct {
		name string
		opts api.ListOptions
		want int64
	}{
		{"one id", api.ListOptions{AdvisoryIDs: []string{a.AdvisoryID}}, 1},
		{"two artifacts", api.ListOptions{ArtifactNames: names, PageSize: 200},
			count(func(x api.Advisory) bool { return slices.Contains(names, x.ArtifactName) })},
		// The latest approved event decides: one still in review does not.
		{"latest fixed", api.ListOptions{LatestEventType: api.EventFixed, PageSize: 200}, count(func(x api.Advisory) bool {
			e := x.LatestApproved()
			return e != nil && e.Kind == api.EventFixed
		})},
		{"latest detected of two artifacts", api.ListOptions{ArtifactNames: names, LatestEventType: api.EventDetection, PageSize: 200},
			count(func(x api.Advisory) bool {
				e := x.LatestApproved()
				return slices.Contains(names, x.ArtifactName) && e != nil && e.Kind == api.EventDetection
			})},
		// An origin replaces the artifact names.
		{"origin", api.ListOptions{Origin: "openssl", ArtifactNames: []string{"curl"}, PageSize: 200},
			count(func(x api.Advisory) bool { return x.ArtifactName == "openssl" })},
		{"query by alias", api.ListOptions{Query: strings.ToLower(a.Aliases[0])}, count(func(x api.Advisory) bool {
			// The query is a case-insensitive substring of the id, artifact, component or an alias.
			fields := append([]string{x.AdvisoryID, x.ArtifactName, x.ComponentName}, x.Aliases...)
			return slices.ContainsFunc(fields, func(f string) bool { return strings.Contains(strings.ToLower(f), strings.ToLower(a.Aliases[0])) })
		})},
	}
	for _, tc := range cases {
		p := must(c.ListAdvisories(ctx, tc.opts))(t)
		if p.Total != tc.want || tc.want == 0 {
			t.Errorf("%s: total %d, want %d (non-zero)", tc.name, p.Total, tc.want)
		}
		for _, x := range p.Items {
			if len(tc.opts.ArtifactNames) > 0 && tc.opts.Origin == "" && !slices.Contains(names, x.ArtifactName) {
				t.Errorf("%s: advisory of %q listed", tc.name, x.ArtifactName)
			}
		}
	}
}

func TestLibrariesAndSubscriptions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	counts := must(c.CountArtifacts(ctx, api.EcosystemJava, api.EcosystemPython))(t)
	if len(counts.Counts) != 2 {
		t.Fatalf("CountArtifacts = %+v", counts)
	}
	for _, ec := range counts.Counts {
		p := must(c.ListArtifacts(ctx, api.ListOptions{Ecosystems: []string{ec.Ecosystem}}))(t)
		if int64(ec.TotalCount) != p.Total || p.Total < 10 {
			t.Errorf("%s: count %d, list total %d", ec.Ecosystem, ec.TotalCount, p.Total)
		}
	}
	arts := must(c.ListArtifacts(ctx, api.ListOptions{Query: "jackson"}))(t)
	if len(arts.Items) != 1 || arts.Items[0].Name != "com.fasterxml.jackson.core:jackson-databind" {
		t.Fatalf("artifacts matching jackson: %+v", arts.Items)
	}
	art := arts.Items[0]
	vs := must(c.ListArtifactVersions(ctx, art.UID, api.ListOptions{OrderBy: api.OrderCreatedDesc}))(t)
	if vs.Total != int64(art.VersionCount) || vs.Items[0].Version != art.LatestVersion {
		t.Errorf("versions: total %d, newest %q; artifact says %d, latest %q", vs.Total, vs.Items[0].Version, art.VersionCount, art.LatestVersion)
	}

	subs := must(c.ListSubscriptions(ctx, api.ListOptions{DescendantsOf: e.org}))(t)
	if subs.Total != 5 {
		t.Errorf("subscriptions below the org: %d, want 5", subs.Total)
	}
	s := must(c.CreateSubscription(ctx, e.org, api.Subscription{Sink: "https://hooks.example/x"}))(t)
	if got := must(c.GetSubscription(ctx, s.UID))(t); got.Sink != "https://hooks.example/x" || !api.IsChild(got.UID, e.org) {
		t.Errorf("GetSubscription = %+v", got)
	}
	if err := c.DeleteSubscription(ctx, s.UID); err != nil {
		t.Fatalf("DeleteSubscription: %v", err)
	}
	if _, err := c.GetSubscription(ctx, s.UID); !api.IsNotFound(err) {
		t.Errorf("GetSubscription after delete: %v, want NOT_FOUND", err)
	}
	if _, err := c.CreateSubscription(ctx, e.org, api.Subscription{Sink: "http://plain.example"}); len(api.FieldViolations(err)) == 0 {
		t.Errorf("an http sink: %v, want a field violation", err)
	}
}

// TestConcurrentCalls shares one client between goroutines (run with -race).
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	py := repoNamed(t, e, "python")
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, err = e.client.GetRepo(t.Context(), py.UID)
			} else {
				_, err = e.client.ListTags(t.Context(), api.ListOptions{ChildrenOf: py.UID, Skip: i})
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestMediumSeedIsInsideTheOrganization: the generated team folders of the
// medium size, and their repos, belong to the primary organization.
func TestMediumSeedIsInsideTheOrganization(t *testing.T) {
	t.Parallel() // heavy, and no timing to disturb
	e := newEnv(t, emulator.Options{Size: "medium"}, api.Options{})
	ctx, c := t.Context(), e.client
	teams := must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: e.org, Name: "teams"}))(t)
	if len(teams.Items) != 1 {
		t.Fatalf("folders named teams under the org: %d, want 1", len(teams.Items))
	}
	if n := must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: teams.Items[0].UID}))(t).Total; n != 12 {
		t.Errorf("team folders: %d, want 12", n)
	}
	all := must(c.ListGroups(ctx, api.ListOptions{PageSize: 200}))(t)
	for _, g := range all.Items {
		if !api.IsGroupUID(g.UID) {
			t.Errorf("group %q has the uid %q, outside every organization", g.Name, g.UID)
		}
	}
	if n := must(c.ListRepos(ctx, api.ListOptions{DescendantsOf: teams.Items[0].UID}))(t).Total; n != 640 {
		t.Errorf("repos in the team folders: %d, want 640", n)
	}
}

// TestNoUIDependencies: the client knows no user interface.
func TestNoUIDependencies(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.CommandContext(t.Context(), goTool, "list", "-deps", "canopy/api").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "golang.org/x/oauth2") {
		t.Fatalf("go list -deps canopy/api looks wrong: %q", deps)
	}
	for _, d := range deps {
		ui := strings.Contains(d, "charm.land/") || strings.Contains(d, "bubbletea") || strings.Contains(d, "lipgloss")
		for _, pkg := range []string{"canopy/ui", "canopy/views", "canopy/api/emulator"} {
			ui = ui || d == pkg || strings.HasPrefix(d, pkg+"/")
		}
		if ui {
			t.Errorf("canopy/api depends on %s", d)
		}
	}
}
