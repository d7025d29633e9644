package emulator

import (
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

// envOf is an env on an existing server, with the clock it was given.
func envOf(t *testing.T, srv *Server, clk *clock) *env {
	t.Helper()
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &env{t: t, srv: srv, base: hs.URL, clock: clk, org: srv.OrgUID()}
}

// forkWrites changes a little of everything, as a user of the organization
// would, and returns the answers as they came (bodies and statuses).
func forkWrites(e *env) []string {
	e.t.Helper()
	var out []string
	call := func(method, path string, body any) {
		r := e.call(method, path, adminTok, body)
		out = append(out, method+" "+path+" "+strconv.Itoa(r.status)+" "+string(r.body))
	}
	var g api.Group
	e.ok(e.call("POST", "/iam/v2/groups/"+e.org, adminTok, api.Group{Name: "forked-team"}), &g)
	out = append(out, g.UID)
	call("POST", "/registry/v2/repos/"+g.UID, api.Repo{Name: "widget"})
	python := e.repoUID("python")
	call("POST", "/registry/v2/tags/"+python, map[string]string{"name": "forked", "digest": "sha256:" + strings.Repeat("ab", 32)})
	call("PATCH", "/iam/v2/groups/"+g.UID+"?update_mask=description", api.Group{Description: "changed"})
	call("DELETE", "/registry/v2/repos/"+e.repoUID("nginx"), nil)
	call("POST", "/iam/v2/identities/"+g.UID, api.Identity{Name: "forked-ci",
		ClaimMatch: &api.ClaimMatch{Issuer: issuerGitHub, Subject: "repo:acme/widget:ref:refs/heads/main"}})
	return out
}

// forkLists is what the organization holds, as lists show it.
func forkLists(e *env) []string {
	e.t.Helper()
	var out []string
	for _, l := range []struct{ path, plural string }{
		{"/iam/v2/groups", "items"}, {"/registry/v2/repos", "items"}, {"/registry/v2/tags", "items"},
		{"/iam/v2/identities", "items"}, {"/iam/v2/roleBindings", "items"},
	} {
		for _, order := range []string{"", "name", "update_time desc"} {
			q := url.Values{"uidp.descendants_of": {e.org}, "page_size": {"1000"}}
			if order != "" {
				q.Set("order_by", order)
			}
			r := e.get(l.path + "?" + q.Encode())
			out = append(out, l.path+" "+order+" "+string(r.body))
		}
	}
	return out
}

// TestForkIsAFreshSeeding: a fork answers, before and after writes, exactly
// as a fresh seeding at the same time does (the uids of what is created
// included); what the fork is asked to change, its source never sees.
func TestForkIsAFreshSeeding(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	seedClock := &clock{t: at}
	source, err := New(Options{Seed: 1, AdminToken: adminTok, Now: seedClock.Now})
	if err != nil {
		t.Fatal(err)
	}
	src := envOf(t, source, seedClock)
	before := forkLists(src)

	forkClock := &clock{t: at}
	forked, err := source.Fork(Options{AdminToken: adminTok, Now: forkClock.Now})
	if err != nil {
		t.Fatal(err)
	}
	freshClock := &clock{t: at}
	seededNow, err := New(Options{Seed: 1, AdminToken: adminTok, Now: freshClock.Now}) // not newEnv's fork
	if err != nil {
		t.Fatal(err)
	}
	fresh := envOf(t, seededNow, freshClock)
	fork := envOf(t, forked, forkClock)

	same := func(what string, a, b []string) {
		t.Helper()
		if len(a) != len(b) {
			t.Fatalf("%s: %d answers, want %d", what, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s differ:\nfork:  %.600s\nfresh: %.600s", what, a[i], b[i])
			}
		}
	}
	same("lists before writes", forkLists(fork), forkLists(fresh))
	forkClock.Add(time.Hour)
	freshClock.Add(time.Hour)
	same("the answers to writes", forkWrites(fork), forkWrites(fresh))
	same("lists after writes", forkLists(fork), forkLists(fresh))
	same("the source's lists", forkLists(src), before)

	// A fork of a fork is as independent.
	again, err := forked.Fork(Options{AdminToken: adminTok, Now: forkClock.Now})
	if err != nil {
		t.Fatal(err)
	}
	same("a fork of the fork", forkLists(envOf(t, again, forkClock)), forkLists(fork))
}

// TestForkKeepsItsSourcesData: a fork cannot be asked for other data.
func TestForkKeepsItsSourcesData(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	for _, opts := range []Options{{Seed: 2}, {Size: "medium"}, {Hostile: true}} {
		if _, err := e.srv.Fork(opts); err == nil || !strings.Contains(err.Error(), "keeps its source's data") {
			t.Errorf("Fork(%+v): %v", opts, err)
		}
	}
	if _, err := e.srv.Fork(Options{Seed: 1, Size: "small", FailRate: 2}); err == nil {
		t.Error("a fail rate of 2 was accepted")
	}
}
