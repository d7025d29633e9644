package cli

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/cli/config"
	"canopy/cli/exit"
)

// seeded is the small emulator (Seed 1) the list tests read, seeded once
// for the package: canopy list only reads (GETs, which the emulator serves
// under a read lock), so every test puts its own HTTP server in front of
// the same data. Seeding it for each test was seconds of CPU under -race.
var seeded = sync.OnceValues(func() (*emulator.Server, error) {
	return emulator.New(emulator.Options{Seed: 1, AdminToken: "list-token"})
})

// ignoring is a server that answers as srv does, as if the query parameter
// param were not there: a service that does not know a filter ignores it.
func ignoring(t *testing.T, srv http.Handler, param string) *httptest.Server {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		q.Del(param)
		r.URL.RawQuery = q.Encode()
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs
}

// seededEmulator is seeded, or the test fails.
func seededEmulator(t *testing.T) *emulator.Server {
	t.Helper()
	srv, err := seeded()
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// listEnv serves the small emulator and returns an environment that points
// canopy at it with its admin token.
func listEnv(t *testing.T) (func(string) string, *emulator.Server) {
	t.Helper()
	srv := seededEmulator(t)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"}), srv
}

func list(t *testing.T, getenv func(string) string, args ...string) (string, string, int) {
	t.Helper()
	var out, errs bytes.Buffer
	code := runList(quick(t.Context()), args, getenv, &out, &errs)
	return out.String(), errs.String(), code
}

func TestListReposAsTableAndJSON(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "repos")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !regexp.MustCompile(`^NAME +FOLDER +TIER +DESCRIPTION +UPDATED +CREATED$`).MatchString(lines[0]) || len(lines) != 64 {
		t.Errorf("table: %d lines, header %q", len(lines), lines[0])
	}
	if !regexp.MustCompile(`(?m)^alertmanager +platform +application +Prometheus Alertmanager\. +\S+( \S+)? +\S+( \S+)?$`).MatchString(out) {
		t.Errorf("no alertmanager row as the UI shows it:\n%s", out)
	}

	// JSON, with a small page size: the same 63 repos, walked in pages.
	out, errs, code = list(t, getenv, "repos", "-o", "json", "--page-size", "10")
	var repos []api.Repo
	if err := json.Unmarshal([]byte(out), &repos); code != 0 || err != nil || len(repos) != 63 {
		t.Fatalf("json: exit %d, %v, %d repos; %s", code, err, len(repos), errs)
	}
	if repos[0].UID == "" || repos[0].Name == "" {
		t.Errorf("repo without uid or name: %+v", repos[0])
	}
}

func TestListFiltersAsTheUIDoes(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, _, code := list(t, getenv, "repos", "--filter", "ngx")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 2 || !strings.HasPrefix(lines[1], "nginx") {
		t.Errorf("--filter ngx: exit %d\n%s", code, out)
	}
	out, _, _ = list(t, getenv, "tags", "--repo", "python", "-o", "json")
	var tags []api.Tag
	if err := json.Unmarshal([]byte(out), &tags); err != nil || len(tags) == 0 {
		t.Fatalf("tags of python: %v, %d", err, len(tags))
	}
	for _, tag := range tags {
		if tag.Digest == "" {
			t.Errorf("tag without digest: %+v", tag)
		}
	}
	out, _, _ = list(t, getenv, "tags", "--filter", "latest")
	if !regexp.MustCompile(`(?m)^TAG +REPO +DIGEST +STATUS`).MatchString(out) || !regexp.MustCompile(`(?m)^latest +python `).MatchString(out) {
		t.Errorf("org tags lack the REPO column or python:latest:\n%.600s", out)
	}
}

func TestListErrors(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	if _, errs, code := list(t, getenv, "widgets"); code != exit.Usage || !strings.Contains(errs, `no collection "widgets"`) {
		t.Errorf("unknown kind: %d %q", code, errs)
	}
	if _, errs, code := list(t, getenv, "repos", "-o", "xml"); code != exit.Usage || !strings.Contains(errs, "want table or json") {
		t.Errorf("bad -o: %d %q", code, errs)
	}
	if _, errs, code := list(t, getenv, "tags", "--repo", "nope"); code != exit.Failure || !strings.Contains(errs, `no repo named "nope"`) {
		t.Errorf("unknown repo: %d %q", code, errs)
	}
	if _, errs, code := list(t, getenv, "repos", "--repo", "nginx"); code != exit.Usage || !strings.Contains(errs, "--repo applies to tags, advisories and documents only") {
		t.Errorf("--repo where it does not apply: %d %q", code, errs)
	}
	if _, errs, code := list(t, getenv, "repos", "--filter", "re:["); code != exit.Usage || !strings.Contains(errs, "not a regular expression") {
		t.Errorf("a bad regular expression: %d %q", code, errs)
	}
	if _, errs, code := list(t, getenv, "repos", "--rank"); code != exit.Usage || !strings.Contains(errs, "--rank ranks the matches of --filter") {
		t.Errorf("--rank without --filter: %d %q", code, errs)
	}
	down := env(t, map[string]string{"CANOPY_API_URL": "http://127.0.0.1:1", "CANOPY_TOKEN": "x"})
	if _, errs, code := list(t, down, "repos"); code != exit.NoServer || strings.Contains(errs, "goroutine") {
		t.Errorf("unreachable: %d %q", code, errs)
	}
	bad := env(t, map[string]string{"CANOPY_API_URL": getenv("CANOPY_API_URL"), "CANOPY_TOKEN": "wrong"})
	if _, errs, code := list(t, bad, "repos"); code != exit.Failure || strings.Contains(errs, "wrong") {
		t.Errorf("refused token: %d %q (the token must not be printed)", code, errs)
	}
}

func TestListAsksWhichOrganization(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	several := func(k string) string {
		if k == "CANOPY_ORG" {
			return ""
		}
		return getenv(k)
	}
	if _, errs, code := list(t, several, "repos"); code != exit.Usage || !strings.Contains(errs, "choose one with --org") || !strings.Contains(errs, "acme.example (") {
		t.Errorf("several organizations: %d %q", code, errs)
	}
	if out, errs, code := list(t, several, "repos", "--org", srv.OrgUID()); code != 0 || !strings.Contains(out, "alertmanager") {
		t.Errorf("--org uid: %d %q", code, errs)
	}
	if _, errs, code := list(t, several, "repos", "--org", "initech"); code != exit.Failure || !strings.Contains(errs, `no organization "initech"`) {
		t.Errorf("unknown org: %d %q", code, errs)
	}
}

// recordingEnv is listEnv with every request's query recorded.
func recordingEnv(t *testing.T) (func(string) string, *[]string) {
	t.Helper()
	srv := seededEmulator(t)
	var mu sync.Mutex
	var seen []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"}), &seen
}

// TestListTakesFlagsAnywhere: flags before the collection work as after it.
func TestListTakesFlagsAnywhere(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	before, errs, code := list(t, getenv, "--org", "acme.example", "-o", "json", "repos", "--page-size", "50")
	after, _, _ := list(t, getenv, "repos", "--org", "acme.example", "-o", "json")
	if code != 0 || before != after || !strings.Contains(before, `"name": "alertmanager"`) {
		t.Errorf("flags before the kind: exit %d %s", code, errs)
	}
	if _, errs, code := list(t, getenv, "repos", "tags"); code != exit.Usage || !strings.Contains(errs, `unexpected argument "tags"`) {
		t.Errorf("two kinds: exit %d %q", code, errs)
	}
	if _, errs, code := list(t, getenv, "--bogus", "repos"); code != exit.Usage || !strings.Contains(errs, "flag provided but not defined: -bogus") {
		t.Errorf("unknown flag: exit %d %q", code, errs)
	}
}

// TestListSendsTheUIsOrder: each collection is asked for in the order its
// UI table starts with, so the rows come in the same order; subscriptions,
// which have no name or time, and versions (newest first) in the server's own. (Roles are gathered
// by RolesOf and sorted there: TestListRolesBuiltInFirst.)
func TestListSendsTheUIsOrder(t *testing.T) {
	t.Parallel()
	getenv, seen := recordingEnv(t)
	for kind, want := range map[string]string{"repos": "order_by=name", "tags": "order_by=name", "groups": "order_by=name",
		"identities": "order_by=name", "bindings": "order_by=created_at+desc", "advisories": "order_by=update_time+desc",
		"libraries": "order_by=name", "versions": "", "subscriptions": ""} {
		*seen = nil
		args := []string{kind}
		if kind == "versions" {
			args = append(args, "--artifact", "requests")
		}
		if _, errs, code := list(t, getenv, args...); code != 0 {
			t.Fatalf("%s: exit %d %s", kind, code, errs)
		}
		last := strings.ReplaceAll((*seen)[len(*seen)-1], "%20", "+")
		if want == "" && strings.Contains(last, "order_by") || !strings.Contains(last, want) {
			t.Errorf("%s: asked %q, want %q", kind, last, want)
		}
	}
	out, _, _ := list(t, getenv, "repos")
	rows := strings.Split(strings.TrimSpace(out), "\n")[1:]
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = strings.Fields(r)[0]
	}
	if !slices.IsSorted(names) {
		t.Errorf("repos are not by name: %v", names[:5])
	}
}

// TestListDeprecatedTags: --deprecated prints only deprecated tags, every
// page read, as D shows them in the UI.
func TestListDeprecatedTags(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "tags", "--deprecated", "-o", "json", "--page-size", "50")
	var tags []api.Tag
	if err := json.Unmarshal([]byte(out), &tags); code != 0 || err != nil || len(tags) == 0 {
		t.Fatalf("exit %d, %v, %d tags: %s", code, err, len(tags), errs)
	}
	for _, tag := range tags {
		if !tag.Deprecated {
			t.Errorf("tag %s is not deprecated", tag.Name)
		}
	}
	all, _, _ := list(t, getenv, "tags", "-o", "json")
	var every []api.Tag
	_ = json.Unmarshal([]byte(all), &every)
	n := 0
	for _, tag := range every {
		if tag.Deprecated {
			n++
		}
	}
	if n != len(tags) {
		t.Errorf("--deprecated printed %d tags, the organization has %d deprecated", len(tags), n)
	}
	if _, errs, code := list(t, getenv, "repos", "--deprecated"); code != exit.Usage || !strings.Contains(errs, "tags only") {
		t.Errorf("--deprecated on repos: exit %d %q", code, errs)
	}
}

// TestListDebugWritesTheLog: --debug logs each request, never the token.
func TestListDebugWritesTheLog(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	if _, errs, code := list(t, getenv, "repos", "--debug"); code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	b, err := os.ReadFile(config.PathsFrom(getenv).Log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "path=/registry/v2/repos") || strings.Contains(string(b), "list-token") {
		t.Errorf("the log lacks the request or holds the token:\n%s", b)
	}
}

// TestListIsPatientWithABusyServer: a page that fails five times in a row
// (more than the UI retries before it shows "r to retry") still comes: a
// script has no r to press.
func TestListIsPatientWithABusyServer(t *testing.T) {
	t.Parallel()
	srv := seededEmulator(t)
	var failed atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/registry/v2/repos") && failed.Add(1) <= 5 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"code":14,"message":"Unavailable: busy"}`))
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
	out, errs, code := list(t, getenv, "repos")
	if code != 0 || strings.Count(out, "\n") != 64 {
		t.Errorf("exit %d after %d failures: %s\n%s", code, failed.Load(), errs, out)
	}
}

// A token that expired is not sent: the chain says so on stderr, locally,
// and goes on to the next source (here CHAINGUARD_TOKEN), which lists.
func TestListSaysWhichExpiredTokenItPassedOver(t *testing.T) {
	t.Parallel()
	srv := seededEmulator(t)
	var seen []string
	var mu sync.Mutex
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	enc := base64.RawURLEncoding.EncodeToString
	expired := enc([]byte(`{"alg":"none"}`)) + "." + enc([]byte(fmt.Sprintf(`{"sub":"old","exp":%d}`, time.Now().Add(-3*time.Hour).Unix()))) + ".c2ln"
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": expired, "CHAINGUARD_TOKEN": "list-token",
		"CANOPY_ORG": "acme.example"})
	out, errs, code := list(t, getenv, "repos")
	if code != 0 || !strings.Contains(out, "alertmanager") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "canopy list: CANOPY_TOKEN holds a token that expired") ||
		!strings.Contains(errs, "using the token from CHAINGUARD_TOKEN") || strings.Contains(errs, expired) {
		t.Errorf("stderr: %q", errs)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, h := range seen {
		if strings.Contains(h, expired) {
			t.Fatalf("the expired token was sent")
		}
	}
}

// --max-items bounds the rows listed, not the folders and repos their
// FOLDER and REPO columns are looked up in: a small one prints that many
// rows (it printed nothing, the lookup stopped first).
func TestMaxItemsBoundsTheRowsNotTheirLookups(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	for _, kind := range []string{"repos", "tags"} {
		out, errs, code := list(t, getenv, kind, "--max-items", "3")
		if rows := rowsOf(out); len(rows) != 3 || code != exit.Failure || !strings.Contains(errs, "stopped after 3 "+kind) {
			t.Errorf("%s --max-items 3: %d rows, exit %d, stderr %q; want 3 rows and the stop said", kind, len(rows), code, errs)
		}
	}
}

// TestPlainHTTPToAnotherHostIsRefused: canopy list (and canopy) never send a
// token over plain http to a host that is not this machine unless told to
// (exit 2, saying how); told to, they go on (here: a host that is not there).
func TestPlainHTTPToAnotherHostIsRefused(t *testing.T) {
	t.Parallel()
	getenv := env(t, map[string]string{"CANOPY_API_URL": "http://api.example.test", "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
	_, errs, code := list(t, getenv, "repos")
	if code != exit.Usage || !strings.Contains(errs, "unencrypted over plain http") || !strings.Contains(errs, "--allow-insecure-http") {
		t.Errorf("exit %d: %s", code, errs)
	}
	_, errs, code = list(t, getenv, "repos", "--allow-insecure-http")
	if code == exit.Usage || strings.Contains(errs, "unencrypted") {
		t.Errorf("allowed: exit %d: %s", code, errs)
	}
	allowed := env(t, map[string]string{"CANOPY_API_URL": "http://api.example.test", "CANOPY_TOKEN": "list-token",
		"CANOPY_ALLOW_INSECURE_HTTP": "true"})
	if _, errs, code = list(t, allowed, "repos"); code == exit.Usage || strings.Contains(errs, "unencrypted") {
		t.Errorf("allowed by the environment: exit %d: %s", code, errs)
	}
	_, errs, code = runArgs(t, "--api-url", "http://api.example.test", "--token-file", "/nonexistent")
	if code != exit.Usage || !strings.Contains(errs, "unencrypted over plain http") {
		t.Errorf("canopy: exit %d: %s", code, errs)
	}
}
