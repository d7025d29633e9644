package api_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"canopy/api"
	"canopy/api/emulator"
)

// adminToken is distinctive so that a leak into an error or a log is easy to spot.
const adminToken = "adm-TOKEN-must-never-show-7c1f"

// viewerRole is the uid of the built-in viewer role (API.md).
const viewerRole = "63921b2c44617e3f2603851537be0123af4a57d7"

// clock is a settable clock for the emulator's page tokens.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// request is what a server received.
type request struct {
	Method string
	URI    string // the request target as sent: escaped path and query
	Path   string // unescaped path
	Query  url.Values
	Header http.Header
	Body   []byte
	At     time.Time
}

// recorder is an http.Handler that remembers every request before passing
// it on to next.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	reqs []request
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	rc.mu.Lock()
	rc.reqs = append(rc.reqs, request{Method: r.Method, URI: r.RequestURI, Path: r.URL.Path,
		Query: r.URL.Query(), Header: r.Header.Clone(), Body: body, At: time.Now()})
	rc.mu.Unlock()
	rc.next.ServeHTTP(w, r)
}

func (rc *recorder) all() []request {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]request(nil), rc.reqs...)
}

func (rc *recorder) count() int { rc.mu.Lock(); defer rc.mu.Unlock(); return len(rc.reqs) }

func (rc *recorder) reset() { rc.mu.Lock(); defer rc.mu.Unlock(); rc.reqs = nil }

// last is the most recent request; the test fails when there was none.
func (rc *recorder) last(t *testing.T) request {
	t.Helper()
	all := rc.all()
	if len(all) == 0 {
		t.Fatal("the server received no request")
	}
	return all[len(all)-1]
}

// env is an emulator behind a recording handler and a real HTTP server, and
// a client for it acting as the admin.
type env struct {
	srv    *emulator.Server
	url    string
	rec    *recorder
	clock  *clock
	org    string
	client *api.Client
}

// newEnv starts an emulator (small seed 1 unless eo says otherwise) on a
// fake clock, unless eo brings its own.
func newEnv(t *testing.T, eo emulator.Options, co api.Options) *env {
	t.Helper()
	clk := &clock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	if eo.Now == nil {
		eo.Now = clk.Now
	}
	if eo.AdminToken == "" {
		eo.AdminToken = adminToken
	}
	if eo.Seed == 0 {
		eo.Seed = 1
	}
	srv, err := emulator.New(eo)
	if err != nil {
		t.Fatalf("emulator.New: %v", err)
	}
	rec := &recorder{next: srv}
	hs := httptest.NewServer(rec)
	t.Cleanup(hs.Close)
	if co.TokenSource == nil {
		co.TokenSource = static(adminToken)
	}
	return &env{srv: srv, url: hs.URL, rec: rec, clock: clk, org: srv.OrgUID(), client: newClient(t, hs.URL, co)}
}

// serve starts a test server for h and returns its URL.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs.URL
}

// patience bounds a test's wait for what will happen: a loaded machine
// gets there late, and a test fails only when it never does.
const patience = 2 * time.Minute

// neverAnswers holds a request until the client gives up on it: a server
// slower than any timeout, however slow the machine.
func neverAnswers(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// newClient makes a client for base; co's BaseURL is ignored. An attempt
// has the test's patience unless co says otherwise: a loaded machine's
// slow answer (33 MiB read under -race) is not a timeout.
func newClient(t *testing.T, base string, co api.Options) *api.Client {
	t.Helper()
	co.BaseURL = base
	if co.Timeout == 0 {
		co.Timeout = patience
	}
	c, err := api.New(co)
	if err != nil {
		t.Fatalf("api.New: %v", err)
	}
	return c
}

func static(tok string) oauth2.TokenSource {
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok})
}

// must takes a call's two results and gives a function that fails the test
// on the error and returns the value: must(c.GetRepo(ctx, uid))(t).
func must[T any](v T, err error) func(*testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return v
	}
}

// repoNamed finds the repo of the primary organization with this name.
func repoNamed(t *testing.T, e *env, name string) api.Repo {
	t.Helper()
	p := must(e.client.ListRepos(t.Context(), api.ListOptions{DescendantsOf: e.org, Name: name}))(t)
	if len(p.Items) != 1 {
		t.Fatalf("repos named %q in the org: %d, want 1", name, len(p.Items))
	}
	return p.Items[0]
}

// viewerToken is a JWT for an identity bound to the viewer role on the
// organization, found through the hydrated role bindings.
func viewerToken(t *testing.T, e *env) (string, api.RoleBinding) {
	t.Helper()
	p := must(e.client.ListRoleBindings(t.Context(), api.ListOptions{Role: viewerRole, Group: e.org}))(t)
	if len(p.Items) == 0 {
		t.Fatal("no identity is bound to the viewer role on the organization")
	}
	b := p.Items[0]
	return emulator.IdentityToken(b.Identity.Issuer, b.Identity.Subject, e.clock.Now().Add(time.Hour)), b
}
