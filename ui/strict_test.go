package ui

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// The screens against a server that answers as the vendor's definitions
// allow where they are silent (emulator.Options.Strict): it refuses every
// order it does not document, leaves totalCount out of every list, and
// lists the built-in roles only without a uidp filter.

// startStrict runs the shell on the strict emulator, its handler wrapped
// by wrap (nil: as it is).
func startStrict(t *testing.T, w, h int, wrap func(http.Handler) http.Handler) *harness {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, Strict: true, AdminToken: "test-admin-token"})
	var handler http.Handler = srv
	if wrap != nil {
		handler = wrap(srv)
	}
	hs := httptest.NewServer(handler)
	t.Cleanup(hs.Close)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"),
		Retry: api.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }}, w, h)
}

// Every collection of the organization loads in the tree: none is asked
// for an order the server refuses (role bindings, subscriptions and
// advisories have no name), and nothing says failed.
func TestStrictTreeLoadsEveryCollection(t *testing.T) {
	t.Parallel()
	h := startStrict(t, 140, 44, nil)
	s := h.waitFor("the org's collections counted", func(s string) bool {
		return regexp.MustCompile(`identities +\d+ `).MatchString(s) && regexp.MustCompile(`role bindings +\d+ `).MatchString(s) &&
			regexp.MustCompile(`subscriptions +\d+ `).MatchString(s)
	})
	if strings.Contains(s, "failed") {
		t.Fatalf("a collection failed:\n%s", s)
	}
	h.moveTo("advisories")
	h.keys("l")
	h.waitFor("advisories loaded", func(s string) bool { return regexp.MustCompile(`advisories +\d+\+? `).MatchString(s) })
	if s := h.screen(); strings.Contains(s, "failed") {
		t.Fatalf("the advisories failed:\n%s", s)
	}
}

// Without totals the tree counts what it has seen, "at least", and says
// more are to load; the detail pane says the count is a lower bound.
func TestStrictTreeCountsAtLeast(t *testing.T) {
	t.Parallel()
	h := startStrict(t, 140, 44, nil)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("l")
	h.moveTo("aws-cli")
	h.keys("l")
	h.waitFor("aws-cli counted at least", func(s string) bool { return regexp.MustCompile(`aws-cli .*200\+ +│`).MatchString(s) })
	// The tree's filter line cannot say how many are not loaded.
	h.keys("/")
	h.typeText("2.15")
	h.waitText("more not loaded")
	h.keys("esc")
	// D scans every page: back in the tree the counts are exact.
	h.moveTo("aws-cli")
	h.keys("D")
	s := h.waitFor("the scan done", func(s string) bool { return regexp.MustCompile(`all [\d,]+ tags scanned`).MatchString(s) })
	m := regexp.MustCompile(`of ([\d,]+) deprecated · all ([\d,]+) tags scanned`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no exact counts after D:\n%s", s)
	}
	h.keys("esc")
	h.waitFor("exact counts in the tree", func(s string) bool {
		return regexp.MustCompile(`aws-cli ! +` + m[1] + ` deprecated · 200/` + m[2] + ` +│`).MatchString(s)
	})
	h.moveTo("repos of platform")
	// 20-odd repos fit in one page: the last page came, the count is exact.
	if s := h.screen(); !regexp.MustCompile(`repos +\d+ +│`).MatchString(s) {
		t.Errorf("a list read to its end is not counted exactly:\n%s", s)
	}
}

// In a table without totals the count is "at least" until the last page,
// and G follows the pages to the end, where it is exact.
func TestStrictTableGFollowsThePagesToTheEnd(t *testing.T) {
	t.Parallel()
	h := startStrict(t, 140, 40, nil)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("l")
	h.moveTo("aws-cli")
	h.keys("t")
	h.waitText("tags of aws-cli", "1 of 200+", "200 loaded")
	h.keys("G")
	s := h.waitFor("the end", func(s string) bool {
		return regexp.MustCompile(`([\d,]+) of ([\d,]+) · ([\d,]+)/([\d,]+) loaded`).MatchString(s)
	})
	m := regexp.MustCompile(`([\d,]+) of ([\d,]+) · ([\d,]+)/([\d,]+) loaded`).FindStringSubmatch(s)
	if m[1] != m[2] || m[2] != m[4] || strings.Contains(line(s, " of "), "+") {
		t.Errorf("G did not reach an exact end: %q\n%s", m[0], s)
	}
}

// An order the server refuses falls back to its default order: the rows
// come, the status line says so once, and s passes that order by.
func TestStrictRefusedOrderFallsBack(t *testing.T) {
	t.Parallel()
	h := startStrict(t, 150, 40, nil)
	h.waitText("platform")
	h.keys(":")
	h.typeText("advisories")
	h.keys("enter")
	// The advisory table starts recently updated first: refused.
	s := h.waitText("the server does not sort advisories by update time, descending: shown in its default order",
		"sort: server order", "CGA-")
	if strings.Contains(s, "failed") {
		t.Fatalf("the table failed:\n%s", s)
	}
	// Opened again it starts in the server's order: nothing refused, nothing said.
	h.keys("esc")
	h.keys(":")
	h.typeText("advisories")
	h.keys("enter")
	h.waitFor("advisories again", func(s string) bool { return strings.Contains(s, "sort: server order") && strings.Contains(s, "CGA-") })
	h.settle()
	if s := h.screen(); strings.Contains(s, "does not sort advisories by name") {
		t.Errorf("reopening tried an order the user did not choose:\n%s", s)
	}
	h.keys("esc")
	h.keys(":")
	h.typeText("repos")
	h.keys("enter")
	h.waitText("sort: name ↑", "alertmanager")
	h.keys("s") // name ↓
	h.waitText("sort: name ↓")
	h.keys("s") // newest first: created_at, documented
	h.waitText("sort: newest first")
	h.keys("s") // recently updated: refused
	s = h.waitText("the server does not sort repos by update time, descending", "sort: server order")
	if strings.Contains(s, "failed") {
		t.Fatalf("the refused order failed the table:\n%s", s)
	}
	// Open it again: the order refused is not asked for, nothing is said.
	h.keys("esc")
	h.keys(":")
	h.typeText("repos")
	h.keys("enter")
	h.waitText("sort: name ↑")
	for _, want := range []string{"sort: name ↓", "sort: newest first", "sort: least recently updated"} {
		h.keys("s")
		h.waitText(want)
	}
	if strings.Contains(h.screen(), "sort: recently updated") {
		t.Error("s went to the refused order")
	}
}

// The built-in roles are listed though the server leaves them out of a
// filtered list: in :roles and in the bind picker.
func TestStrictRolesIncludeTheBuiltInOnes(t *testing.T) {
	t.Parallel()
	h := startStrict(t, 150, 40, nil)
	h.waitText("platform")
	h.keys(":")
	h.typeText("roles")
	h.keys("enter")
	s := h.waitText("viewer", "owner", "built-in")
	if !strings.Contains(s, "custom") {
		t.Errorf("the organization's custom roles are missing:\n%s", s)
	}
	h.keys("esc")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.moveTo("carol")
	h.keys("b")
	h.waitText("bind a role", "viewer", "editor", "owner")
}

// Advisories show their status from the key naming each event's kind, a
// readable score, and the timeline; libraries come by ecosystem.
func TestStrictFeedsShowTheirRealShapes(t *testing.T) {
	t.Parallel()
	h := startStrict(t, 170, 44, nil)
	h.waitText("platform")
	h.keys(":")
	h.typeText("advisories")
	h.keys("enter")
	s := h.waitText("STATUS", "CGA-")
	if !regexp.MustCompile(`(fixed|detected|false positive|pending upstream fix|fix not planned|patched|true positive)`).MatchString(s) {
		t.Errorf("no status in words:\n%s", s)
	}
	if !regexp.MustCompile(` \d{1,2}\.\d `).MatchString(s) || strings.Contains(s, "CVSS:") {
		t.Errorf("scores are not readable numbers:\n%s", s)
	}
	h.keys("enter")
	h.waitText("EVENTS", "SEVERITIES", "status")
	h.keys("esc")
	h.keys("esc")
	h.moveTo("libraries")
	h.keys("l")
	s = h.waitFor("the ecosystems counted", func(s string) bool {
		return regexp.MustCompile(`java +\d+ `).MatchString(s) && regexp.MustCompile(`python +\d+ `).MatchString(s)
	})
	h.moveTo("python")
	h.keys("l")
	h.moveTo("requests")
	h.keys("l")
	h.waitFor("the versions of requests", func(s string) bool { return regexp.MustCompile(`\d+\.\d+\.\d+`).MatchString(s) })
	if s := h.screen(); strings.Contains(s, "failed") || strings.Contains(s, "not available") {
		t.Fatalf("versions by the escaped id:\n%s", s)
	}
}

// Identities are shown whichever way they are assumed: a pattern marked
// "~", static keys, an AWS account, a service.
func TestStrictIdentitiesShowWhateverIsSet(t *testing.T) {
	t.Parallel()
	h := startStrict(t, 200, 40, nil)
	h.waitText("platform")
	h.keys(":")
	h.typeText("identities")
	h.keys("enter")
	s := h.waitText("github-actions-main", "~ repo:", "eks-nodes", "aws ", "catalog-syncer", "catalog syncer", "lab-airgap-builder")
	if strings.Contains(s, "failed") {
		t.Fatalf("identities:\n%s", s)
	}
	h.keys("/")
	h.typeText("github-actions-main")
	h.keys("enter", "enter")
	h.waitText("assumed by", "claim match", "subject       ~ repo:acme/.*", "audience")
}

// A collection the server does not have (a bare 404 naming no resource)
// is "not available on this server", not a failure.
func TestAMissingRouteIsNotAvailable(t *testing.T) {
	t.Parallel()
	h := startStrict(t, 140, 44, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/events/v2/subscriptions") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte(`{"code":5,"message":"Not Found"}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	s := h.waitText("subscriptions", "not available")
	if strings.Contains(line(s, "subscriptions"), "failed") {
		t.Errorf("a missing route reads as a failure:\n%s", s)
	}
	h.moveTo("subscriptions of acme.example")
	h.waitText("not available on this server")
	h.keys("enter")
	s = h.waitText("› subscriptions", "not available on this server")
	if strings.Contains(s, "failed") {
		t.Errorf("the table says failed:\n%s", s)
	}
}

// Editing one member of a claim match (here a subject pattern) sends that
// member's mask path alone, and every other part stays as it was.
func TestStrictEditOfAPatternKeepsTheRest(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var patches []string
	h := startStrict(t, 150, 44, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPatch {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				patches = append(patches, r.URL.RawQuery+" "+string(b))
				mu.Unlock()
				r.Body = io.NopCloser(bytes.NewReader(b))
			}
			next.ServeHTTP(w, r)
		})
	})
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.moveTo("github-actions-main")
	h.waitText("subject       ~ repo:acme/.*", "audience      https://console-api.enforce.dev")
	// The field cursor starts on description; j to the issuer, j to the
	// subject pattern, e edits it in place.
	h.keys("tab", "j", "j", "e")
	h.waitText("?update_mask=claim_match.subject_pattern")
	h.typeText("x")
	h.keys("enter")
	h.waitText("subject of github-actions-main changed")
	s := h.waitText("subject       ~ repo:acme/.*:ref:refs/heads/mainx")
	for _, kept := range []string{"issuer        https://token.actions.githubusercontent.com", "audience      https://console-api.enforce.dev"} {
		if !strings.Contains(s, kept) {
			t.Errorf("the edit lost %q:\n%s", kept, s)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(patches) != 1 || patches[0] != `update_mask=claim_match.subject_pattern {"claimMatch":{"subjectPattern":"repo:acme/.*:ref:refs/heads/mainx"}}` {
		t.Errorf("sent %q", patches)
	}
}
