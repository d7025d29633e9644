// Package emulator is an in-memory HTTP server of Platform API v2: seeded,
// deterministic organizations, scoped authentication, paging and AIP-193
// errors as the spec and API.md say, and fault injection for tests.
package emulator

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"canopy/api"
)

// Options configure a Server.
type Options struct {
	Seed              int64            // deterministic: same Seed+Size → same org, uids included
	Size              string           // "small" (default, the demo), "medium" (~100k tags), "large" (~1M tags)
	AdminToken        string           // "" → New generates one
	Latency           time.Duration    // added to every request
	FailRate          float64          // share of requests answered 503 UNAVAILABLE or 429 with Retry-After
	PageTokenLifetime time.Duration    // 0 → 72h
	Now               func() time.Time // clock; nil → time.Now
	// Hostile adds data carrying terminal escape sequences, control, bidi
	// and zero-width characters, wide and combining text and very long
	// strings (seed_hostile.go), deterministically.
	Hostile bool
	// Strict answers as the real service may where its definitions are
	// silent: it refuses every order_by it does not document, leaves
	// totalCount out of list answers, and lists the built-in roles only
	// when a roles list has no uidp filter.
	Strict bool

	// eager makes every tag while seeding, as the emulator did before the
	// repos' tags were made when first asked for (lazy.go): the reference
	// lazy_test.go compares the lazy server with.
	eager bool
}

// Server serves the emulated API. It is safe for concurrent use.
type Server struct {
	st            *store // set once seeded, before ready is closed
	org           string // the primary organization's uid, known before the rest is seeded
	ready         chan struct{}
	progress      progress
	adminToken    string
	latency       time.Duration
	failRate      float64
	tokenLifetime time.Duration
	now           func() time.Time
	strict        bool
	seeded        seeding // what the data was seeded from, which a fork keeps

	faultMu  sync.Mutex
	faultRng *mrand.Rand
}

// New seeds the organizations and returns a server for them.
func New(opts Options) (*Server, error) {
	srv, err := Start(opts)
	if err != nil {
		return nil, err
	}
	<-srv.ready
	return srv, nil
}

// Start checks opts and seeds the organizations in the background: the
// large size takes a good part of a second on a busy machine (the repos'
// tags are made when first asked for, lazy.go), which a
// caller can spend showing how far it is (Progress) rather than a blank
// terminal. Until Ready is closed the
// server answers every request but ping 503 UNAVAILABLE with Retry-After.
func Start(opts Options) (*Server, error) {
	srv, err := newServer(opts)
	if err != nil {
		return nil, err
	}
	s := newSeeder(uint64(opts.Seed), sizes()[srv.seeded.size], srv.now(), &srv.progress)
	s.eager = opts.eager
	// The organizations come first (their uids are the first draws), so
	// OrgUID answers at once.
	acme, globex := s.seedOrgs(opts.Hostile)
	srv.org = acme
	go func() {
		s.seedRest(acme, globex, opts.Hostile)
		srv.progress.tags.Store(int64(s.tagTotal())) // the synced repo's and hostile ones too
		srv.progress.indexing.Store(true)
		s.buildAll()
		srv.st = s.store
		close(srv.ready)
	}()
	return srv, nil
}

// newServer checks opts and makes a server with no data yet.
func newServer(opts Options) (*Server, error) {
	size := opts.Size
	if size == "" {
		size = "small"
	}
	if _, ok := sizes()[size]; !ok {
		return nil, fmt.Errorf("emulator: unknown size %q (want small, medium or large)", opts.Size)
	}
	if opts.FailRate < 0 || opts.FailRate > 1 {
		return nil, fmt.Errorf("emulator: fail rate %v is not between 0 and 1", opts.FailRate)
	}
	srv := &Server{
		adminToken:    opts.AdminToken,
		latency:       opts.Latency,
		failRate:      opts.FailRate,
		tokenLifetime: opts.PageTokenLifetime,
		now:           opts.Now,
		strict:        opts.Strict,
		seeded:        seeding{seed: opts.Seed, size: size, hostile: opts.Hostile},
		faultRng:      mrand.New(mrand.NewPCG(uint64(opts.Seed), 0xfa017)),
		ready:         make(chan struct{}),
	}
	if srv.now == nil {
		srv.now = time.Now
	}
	if srv.tokenLifetime <= 0 {
		srv.tokenLifetime = 72 * time.Hour
	}
	if srv.adminToken == "" {
		b := make([]byte, 24)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("emulator: make admin token: %w", err)
		}
		srv.adminToken = "emu_" + hex.EncodeToString(b)
	}
	return srv, nil
}

// Ready is closed once the data is seeded and indexed.
func (srv *Server) Ready() <-chan struct{} { return srv.ready }

// OrgUID is the uid of the primary seeded organization.
func (srv *Server) OrgUID() string { return srv.org }

// AdminToken is the token that acts as owner of every seeded organization.
func (srv *Server) AdminToken() string { return srv.adminToken }

func msTime(n int64) time.Time { return time.UnixMilli(n).UTC() }

// ServeHTTP answers one API request.
func (srv *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if srv.latency > 0 {
		t := time.NewTimer(srv.latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if r.URL.Path == "/ping/v2/ping" {
		if r.Method != http.MethodGet {
			writeErr(w, methodNotAllowed(domainPing, r))
			return
		}
		writeJSON(w, api.PingResponse{Response: "pong"})
		return
	}
	select {
	case <-srv.ready:
	default:
		e := newErr(api.CodeUnavailable, domainOfPath(r.URL.Path), "the emulator is still seeding its data; retry after 1s")
		e.retryAfter = 1
		writeErr(w, e)
		return
	}
	if e := srv.fault(domainOfPath(r.URL.Path)); e != nil {
		writeErr(w, e)
		return
	}
	write := r.Method != http.MethodGet
	for !srv.serve(w, r, write) {
		// A read that must change the store (lazy.go) runs again, as a
		// write.
		write = true
	}
}

// serve answers a request under the store's lock, the write lock when
// write; false when the call must run again under the write lock (it has
// written nothing).
func (srv *Server) serve(w http.ResponseWriter, r *http.Request, write bool) bool {
	if write {
		srv.st.mu.Lock()
		defer srv.st.mu.Unlock()
	} else {
		srv.st.mu.RLock()
		defer srv.st.mu.RUnlock()
	}
	// Authentication comes first, as at the real gateway: without a valid
	// token every path but ping answers 401, known or not.
	p, e := srv.authenticate(r)
	switch {
	case e != nil && openRoute(r.URL.Path):
		// Calls that need no token take any, or none, as no one's.
		p = &principal{name: "anonymous"}
	case e != nil:
		writeErr(w, e)
		return true
	}
	rt, ok := srv.route(r.URL.Path)
	if !ok {
		writeErr(w, noRoute())
		return true
	}
	e = rt(&call{srv: srv, st: srv.st, w: w, r: r, p: p, write: write})
	if e != nil && e.relock && !write {
		return false
	}
	if e != nil {
		writeErr(w, e)
	}
	return true
}

// fault picks an injected failure for this request, if any, in the error
// domain of the path asked.
func (srv *Server) fault(domain string) *apiErr {
	if srv.failRate <= 0 {
		return nil
	}
	srv.faultMu.Lock()
	hit := srv.faultRng.Float64() < srv.failRate
	busy := srv.faultRng.IntN(2) == 0
	srv.faultMu.Unlock()
	if !hit {
		return nil
	}
	if busy {
		e := newErr(api.CodeResourceExhausted, domain, "rate limit exceeded (injected fault); retry after 1s")
		e.retryAfter = 1
		return e
	}
	e := newErr(api.CodeUnavailable, domain, "service unavailable (injected fault)")
	e.retryAfter = 1
	return e
}

// call is one authenticated request on its way to a handler.
type call struct {
	srv   *Server
	st    *store
	w     http.ResponseWriter
	r     *http.Request
	p     *principal
	write bool // under the write lock
}

func methodNotAllowed(domain string, r *http.Request) *apiErr {
	return newErr(api.CodeUnimplemented, domain, fmt.Sprintf("method %s is not supported on %s", r.Method, r.URL.Path))
}

// route picks the handler of a path. UIDs are greedy (they contain slashes),
// so literal suffixes are matched first.
func (srv *Server) route(path string) (func(*call) *apiErr, bool) {
	if h, ok := verbRoute(path); ok {
		return h, true
	}
	for _, rt := range routes {
		if path == rt.prefix {
			return func(c *call) *apiErr { return rt.handle(c, "") }, true
		}
		if rest, ok := strings.CutPrefix(path, rt.prefix+"/"); ok && rest != "" {
			return func(c *call) *apiErr { return rt.handle(c, rest) }, true
		}
	}
	return nil, false
}

// routes are the collections; each handler gets the path after the prefix
// ("" for the collection itself).
var routes = []struct {
	prefix string
	handle func(c *call, rest string) *apiErr
}{
	{"/iam/v2/groups", (*call).groups},
	{"/iam/v2/identities", (*call).identities},
	{"/iam/v2/roles", (*call).rolesRoute},
	{"/iam/v2/roleBindings", (*call).roleBindings},
	{bindingsBatchCreate, (*call).batchCreateBindings},
	{"/iam/v2/identityProviders", (*call).identityProviders},
	{"/iam/v2/groupInvites", (*call).groupInvites},
	{"/iam/v2/externalGroupRoleMappings", (*call).mappings},
	{mappingsBatchDelete, (*call).batchDeleteMappings},
	{accountAssociationsPath, (*call).associations},
	{termsPrefix, (*call).terms},
	{lookupGroupPath, (*call).lookupGroup},
	{checkEligibilityPath, (*call).checkEligibility},
	{lookupIdentityPath, (*call).lookupIdentity},
	{identityMetaPath, (*call).updateIdentityMetadata},
	{"/registry/v2/repos", (*call).reposRoute},
	{"/registry/v2/tags", (*call).tagsRoute},
	{"/vulnerabilities/v2/advisories", (*call).advisories},
	{"/libraries/v2/artifacts", (*call).artifactsRoute},
	{"/events/v2/subscriptions", (*call).subscriptions},
	{documentsRoute, (*call).documents},
	{metadataRoute, (*call).vulnerabilityMetadata},
	{resolvedRoute, (*call).resolvedVulns},
}

// now is the server clock as an api.Time.
func (c *call) now() api.Time { return api.TimeOf(c.srv.now()) }
