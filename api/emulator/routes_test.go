package emulator

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api"
)

func TestLiteralSuffixRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	python := e.repoUID("python")
	var rd api.RepoReadme
	e.ok(e.get("/registry/v2/repos/"+python+"/readme"), &rd)
	if rd.UID != python || !strings.Contains(rd.Content, "# python") || !strings.Contains(rd.Content, "```") || !strings.Contains(rd.Content, "|---|") {
		t.Fatalf("readme %+v", rd)
	}
	tags := e.list("/registry/v2/tags", "tags", url.Values{"uidp.children_of": {python}, "name": {"latest"}})
	if len(tags.Items) != 1 {
		t.Fatalf("latest: %+v", tags)
	}
	digest := tags.Items[0]["digest"].(string)
	var arch api.Architectures
	e.ok(e.get("/registry/v2/repos/"+python+"/digests/"+digest+"/architectures"), &arch)
	if len(arch.Architectures) == 0 || arch.Architectures[0] != "amd64" {
		t.Fatalf("architectures %+v", arch)
	}
	r := e.get("/registry/v2/repos/" + python + "/digests/" + digest + "/size?architecture=" + arch.Architectures[0])
	var size api.ImageSize
	e.ok(r, &size)
	if size.Size <= 0 || size.Architecture != arch.Architectures[0] || !strings.Contains(string(r.body), `"size":"`) {
		t.Fatalf("size %s", r.body)
	}
	wantErr(t, e.get("/registry/v2/repos/"+python+"/digests/sha256:"+strings.Repeat("0", 64)+"/architectures"), 404, api.CodeNotFound)
	wantErr(t, e.get("/registry/v2/repos/"+python+"/digests/"+digest+"/size?architecture=mips"), 404, api.CodeNotFound)
	// The greedy uid still reaches the repo itself.
	var repo api.Repo
	e.ok(e.get("/registry/v2/repos/"+python), &repo)
	if repo.UID != python {
		t.Fatalf("repo %+v", repo)
	}
	// A digest shared by latest, the minor line and the exact version.
	shared := e.list("/registry/v2/tags", "tags", url.Values{"uidp.children_of": {python}, "page_size": {"200"}, "order_by": {"update_time desc"}})
	n := 0
	for _, it := range shared.Items {
		if it["digest"] == digest {
			n++
		}
	}
	if n < 3 {
		t.Errorf("digest of latest is shared by %d visible tags, want at least 3", n)
	}
}

func TestFeeds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	all := e.list("/vulnerabilities/v2/advisories", "advisories", url.Values{"page_size": {"200"}})
	if len(all.Items) != 200 || all.TotalCount == "200" {
		t.Fatalf("advisories: %d of %s", len(all.Items), all.TotalCount)
	}
	a0, a1 := all.Items[0], all.Items[1]
	if !advisoryIDPattern(a0["advisoryId"].(string)) {
		t.Errorf("advisory id %v", a0["advisoryId"])
	}
	byIDs := e.list("/vulnerabilities/v2/advisories", "advisories", url.Values{"advisoryIds": {a0["advisoryId"].(string), a1["advisoryId"].(string)}})
	if byIDs.TotalCount != "2" {
		t.Errorf("advisoryIds: %s", byIDs.TotalCount)
	}
	name := a0["artifactName"].(string)
	byName := e.list("/vulnerabilities/v2/advisories", "advisories", url.Values{"artifactNames": {name}, "page_size": {"200"}})
	for _, it := range byName.Items {
		if it["artifactName"] != name {
			t.Errorf("artifactNames gave %v", it["artifactName"])
		}
	}
	cve := a0["aliases"].([]any)[0].(string)
	byQuery := e.list("/vulnerabilities/v2/advisories", "advisories", url.Values{"query": {strings.ToLower(cve)}})
	if len(byQuery.Items) == 0 {
		t.Errorf("query %s found nothing", cve)
	}
	var adv api.Advisory
	e.ok(e.get("/vulnerabilities/v2/advisories/"+a0["uid"].(string)), &adv)
	if len(adv.Events) == 0 || adv.Events[0].Kind != api.EventDetection || len(adv.Severities) == 0 {
		t.Errorf("advisory %+v", adv)
	}

	java := e.list("/libraries/v2/artifacts", "artifacts", url.Values{"ecosystems": {api.EcosystemJava}, "page_size": {"200"}})
	for _, it := range java.Items {
		if it["ecosystem"] != api.EcosystemJava {
			t.Errorf("ecosystems gave %v", it["ecosystem"])
		}
	}
	var counts api.ArtifactCounts
	e.ok(e.get("/libraries/v2/artifacts/count?ecosystems="+api.EcosystemJava), &counts)
	if len(counts.Counts) != 1 || counts.Counts[0].TotalCount != api.Int64(len(java.Items)) {
		t.Errorf("count %+v, listed %d", counts, len(java.Items))
	}
	q := e.list("/libraries/v2/artifacts", "artifacts", url.Values{"query": {"jackson"}, "ecosystems": api.Ecosystems()})
	if q.TotalCount != "1" {
		t.Fatalf("query jackson: %s", q.TotalCount)
	}
	art := q.Items[0]
	vs := e.list("/libraries/v2/artifacts/"+url.PathEscape(art["uid"].(string))+"/versions", "artifactVersions", url.Values{"order_by": {"created_at desc"}})
	if vs.TotalCount != fmt.Sprint(art["versionCount"]) || len(vs.Items) == 0 {
		t.Fatalf("versions %+v", vs)
	}
	if vs.Items[0]["version"] != art["latestVersion"] {
		t.Errorf("newest version %v, latestVersion %v", vs.Items[0]["version"], art["latestVersion"])
	}
}

func TestRoleBindingFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	alice := e.identityUID("alice")
	byIdent := e.list("/iam/v2/roleBindings", "roleBindings", url.Values{"identity": {alice}})
	if byIdent.TotalCount != "1" {
		t.Fatalf("identity filter: %s", byIdent.TotalCount)
	}
	byRole := e.list("/iam/v2/roleBindings", "roleBindings", url.Values{"role": {viewerRoleUID}})
	for _, it := range byRole.Items {
		if it["role"].(map[string]any)["name"] != "viewer" {
			t.Errorf("role filter gave %v", it["role"])
		}
	}
	payments := e.groupUID("payments")
	byGroup := e.list("/iam/v2/roleBindings", "roleBindings", url.Values{"group": {payments}})
	if byGroup.TotalCount != "2" {
		t.Errorf("group filter: %s", byGroup.TotalCount)
	}
}

func TestFaultInjection(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1, FailRate: 1})
	codes := map[api.Code]int{}
	for range 40 {
		r := e.get("/iam/v2/groups")
		s := r.apiStatus(t)
		codes[s.Code]++
		if r.header.Get("Retry-After") != "1" {
			t.Fatalf("no Retry-After on %d", r.status)
		}
	}
	if codes[api.CodeUnavailable] == 0 || codes[api.CodeResourceExhausted] == 0 || len(codes) != 2 {
		t.Fatalf("codes %v", codes)
	}
	e.ok(e.call("GET", "/ping/v2/ping", "", nil), nil)
}

// An injected failure names the domain of the path; an unknown path is
// answered by the gateway, with none.
func TestErrorsNameThePathsDomain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1, FailRate: 1})
	for path, want := range map[string]string{"/iam/v2/groups": domainIAM, "/registry/v2/repos": domainRegistry,
		"/advisory/v2/advisories": domainVulns, "/events/v2/subscriptions": domainEvents} {
		s := e.get(path).apiStatus(t)
		if d := domainIn(s); d != want {
			t.Errorf("%s: domain %q, want %q", path, d, want)
		}
	}
	// A path no call is served on is the gateway's: no domain, no details.
	e = newEnv(t, Options{Seed: 1})
	wantNoRoute(t, e.get("/registry/v2/nothing-here"))
}

func domainIn(s api.Status) string {
	for _, d := range s.Details {
		if d.ErrorInfo != nil {
			return d.ErrorInfo.Domain
		}
	}
	return ""
}

func TestLatencyRespectsCancellation(t *testing.T) {
	t.Parallel()
	srv, err := New(Options{Seed: 1, Latency: time.Hour, AdminToken: adminTok})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest("GET", "/ping/v2/ping", nil).WithContext(ctx)
	done := make(chan struct{})
	rec := httptest.NewRecorder()
	go func() { srv.ServeHTTP(rec, req); close(done) }()
	cancel()
	select {
	case <-done:
	case <-time.After(patience): // the latency is an hour
		t.Fatal("a cancelled request still waited out the latency")
	}
}

func TestDeterministicSeeds(t *testing.T) {
	t.Parallel()
	a, _ := New(Options{Seed: 7})
	b, _ := New(Options{Seed: 7})
	c, _ := New(Options{Seed: 8})
	if a.OrgUID() != b.OrgUID() || a.OrgUID() == c.OrgUID() {
		t.Fatalf("org uids %s %s %s", a.OrgUID(), b.OrgUID(), c.OrgUID())
	}
	first := func(s *Server) string {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/registry/v2/tags?page_size=200&order_by=name", nil)
		req.Header.Set("Authorization", "Bearer "+s.AdminToken())
		s.ServeHTTP(rec, req)
		body := rec.Body.String()
		return body[:strings.LastIndex(body, `"nextPageToken"`)] // the token embeds the issue time
	}
	if first(a) != first(b) {
		t.Fatal("same seed, different tags")
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	nginx := e.repoUID("nginx")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 10 {
				if i%2 == 0 {
					body := map[string]string{"name": "c" + string(rune('a'+i)) + string(rune('a'+j)), "digest": "sha256:" + strings.Repeat("e", 64)}
					if r := e.call("POST", "/registry/v2/tags/"+nginx, adminTok, body); r.status != http.StatusOK {
						t.Errorf("create: %d %s", r.status, r.body)
					}
				} else if r := e.get("/registry/v2/tags?uidp.children_of=" + nginx); r.status != http.StatusOK {
					t.Errorf("list: %d", r.status)
				}
			}
		})
	}
	wg.Wait()
}
