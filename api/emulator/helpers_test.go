package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api"
)

const adminTok = "test-admin-token"

// patience bounds a test's wait for what will happen: a loaded machine
// gets there late, and a test fails only when it never does.
const patience = 2 * time.Minute

// clock is a settable clock for page-token and JWT expiry.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// seedings holds one seeding per seed, size and hostility at a start time,
// made the first time a test asks for it: a test's env is a fork of it
// (Server.Fork), data of its own as fresh, for a fraction of a seeding's
// cost (≈ 0.4 s of CPU under -race, and the package has ≈ 50 envs).
var seedings sync.Map // seedingKey → func() *Server

type seedingKey struct {
	at      time.Time
	seed    int64
	size    string
	hostile bool
}

// seededAt is the package's seeding of these options at a time.
func seededAt(at time.Time, seed int64, size string, hostile bool) *Server {
	key := seedingKey{at: at, seed: seed, size: size, hostile: hostile}
	once, _ := seedings.LoadOrStore(key, sync.OnceValue(func() *Server {
		srv, err := New(Options{Seed: seed, Size: size, Hostile: hostile, AdminToken: "seeding-only",
			Now: func() time.Time { return at }})
		if err != nil {
			panic(fmt.Sprintf("seeding %+v: %v", key, err))
		}
		return srv
	}))
	return once.(func() *Server)()
}

// env is an emulator behind a real HTTP server.
type env struct {
	t     *testing.T
	srv   *Server
	base  string
	clock *clock
	org   string
}

func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	clk := &clock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	if opts.AdminToken == "" {
		opts.AdminToken = adminTok
	}
	opts.Now = clk.Now
	srv, err := seededAt(clk.Now(), opts.Seed, opts.Size, opts.Hostile).Fork(opts)
	if err != nil {
		t.Fatalf("Fork: %v", err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &env{t: t, srv: srv, base: hs.URL, clock: clk, org: srv.OrgUID()}
}

// resp is an HTTP answer.
type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// status decodes an AIP-193 error body.
func (r resp) apiStatus(t *testing.T) api.Status {
	t.Helper()
	var s api.Status
	r.json(t, &s)
	return s
}

func (e *env) call(method, path, token string, body any) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.base+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp{status: res.StatusCode, header: res.Header, body: b}
}

func (e *env) get(path string) resp { e.t.Helper(); return e.call("GET", path, adminTok, nil) }

// ok asserts a 200 and decodes the body.
func (e *env) ok(r resp, v any) {
	e.t.Helper()
	if r.status != http.StatusOK {
		e.t.Fatalf("status %d, body %s", r.status, r.body)
	}
	if v != nil {
		r.json(e.t, v)
	}
}

// page is a decoded list answer.
type page struct {
	Items         []map[string]any
	NextPageToken string
	TotalCount    string
	Skipped       int
}

func (e *env) list(path, plural string, q url.Values) page {
	e.t.Helper()
	return e.listAs(adminTok, path, plural, q)
}

func (e *env) listAs(token, path, plural string, q url.Values) page {
	e.t.Helper()
	r := e.call("GET", path+"?"+q.Encode(), token, nil)
	var raw map[string]json.RawMessage
	e.ok(r, &raw)
	var p page
	if b, ok := raw[plural]; ok {
		if err := json.Unmarshal(b, &p.Items); err != nil {
			e.t.Fatal(err)
		}
	}
	for k, dst := range map[string]any{"nextPageToken": &p.NextPageToken, "totalCount": &p.TotalCount, "skipped": &p.Skipped} {
		if b, ok := raw[k]; ok {
			if err := json.Unmarshal(b, dst); err != nil {
				e.t.Fatalf("%s: %v", k, err)
			}
		}
	}
	return p
}

func uids(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it["uid"].(string)
	}
	return out
}

// wantErr asserts an AIP-193 error answer and returns it.
func wantErr(t *testing.T, r resp, httpStatus int, code api.Code) api.Status {
	t.Helper()
	if r.status != httpStatus {
		t.Fatalf("status %d, want %d; body %s", r.status, httpStatus, r.body)
	}
	s := r.apiStatus(t)
	if s.Code != code {
		t.Fatalf("code %v, want %v; body %s", s.Code, code, r.body)
	}
	e := &api.Error{Status: s}
	if info := e.ErrorInfo(); info == nil || info.Reason != code.String() || !strings.HasSuffix(info.Domain, ".chainguard.dev") {
		t.Fatalf("ErrorInfo %+v, want reason %s and a domain; body %s", info, code, r.body)
	}
	return s
}

// wantNoRoute asserts the gateway's answer for a path no call is served
// on: 404 and exactly {"code":5,"message":"Not Found"}, no details, which
// api.NotOnServer tells from a missing resource.
func wantNoRoute(t *testing.T, r resp) {
	t.Helper()
	if r.status != http.StatusNotFound || strings.TrimSpace(string(r.body)) != `{"code":5,"message":"Not Found"}` {
		t.Fatalf("status %d, body %s; want 404 and a bare Not Found", r.status, r.body)
	}
	if err := (&api.Error{Status: r.apiStatus(t), HTTPStatus: r.status}); !api.NotOnServer(err) {
		t.Fatalf("api.NotOnServer is false for %s", r.body)
	}
}

func fieldOf(t *testing.T, s api.Status) string {
	t.Helper()
	v := (&api.Error{Status: s}).FieldViolations()
	if len(v) == 0 {
		t.Fatalf("no BadRequest violations in %+v", s)
	}
	return v[0].Field
}

// repoUID finds a repo of the primary org by name.
func (e *env) repoUID(name string) string {
	e.t.Helper()
	p := e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {e.org}, "name": {name}})
	if len(p.Items) != 1 {
		e.t.Fatalf("repo %s: %d matches", name, len(p.Items))
	}
	return p.Items[0]["uid"].(string)
}

// groupUID finds a group of the primary org by name.
func (e *env) groupUID(name string) string {
	e.t.Helper()
	p := e.list("/iam/v2/groups", "groups", url.Values{"uidp.descendants_of": {e.org}, "name": {name}})
	if len(p.Items) != 1 {
		e.t.Fatalf("group %s: %d matches", name, len(p.Items))
	}
	return p.Items[0]["uid"].(string)
}

// tokenFor is a JWT for a seeded identity, valid for an hour of the env clock.
func (e *env) tokenFor(issuer, subject string) string {
	return IdentityToken(issuer, subject, e.clock.Now().Add(time.Hour))
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// advisoryIDPattern checks CGA- and three groups of four lower-case alphanumerics.
func advisoryIDPattern(id string) bool {
	parts := strings.Split(id, "-")
	if len(parts) != 4 || parts[0] != "CGA" {
		return false
	}
	for _, p := range parts[1:] {
		if len(p) != 4 || strings.Trim(p, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
			return false
		}
	}
	return true
}
