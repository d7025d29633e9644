package ui

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// asPerson runs the shell as a seeded person, no --org unless org; once
// *admitted is set, every request goes with the admin's token, as if an
// owner had bound the person everywhere.
func asPerson(t *testing.T, name, org string, admitted *atomic.Bool) *harness {
	t.Helper()
	return asPersonBehind(t, name, org, func(w http.ResponseWriter, r *http.Request, srv *emulator.Server) {
		if admitted != nil && admitted.Load() {
			r.Header.Set("Authorization", "Bearer "+srv.AdminToken())
		}
		srv.ServeHTTP(w, r)
	})
}

// asPersonBehind is asPerson with the emulator served behind front.
func asPersonBehind(t *testing.T, name, org string, front func(w http.ResponseWriter, r *http.Request, srv *emulator.Server)) *harness {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token"})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { front(w, r, srv) }))
	t.Cleanup(hs.Close)
	tok, err := srv.TokenOf(name, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(tok, "test"), Retry: api.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return startWith(t, srv, Options{Client: client, Org: org, Host: "test", Identity: name,
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }}, 150, 30)
}

// A person of no organization is told so, and what the service says of
// the organization of her email's domain: she may look, it is
// globex.example; A asks its owners once (the request said), a second A
// is not offered, and once an owner lets her in r opens it.
func TestNoOrganizationAsksToJoin(t *testing.T) {
	t.Parallel()
	var admitted atomic.Bool
	h := asPerson(t, "erin", "", &admitted)
	h.waitText("this token sees no organization and no folder", "GET /iam/v2/groups:checkEligibility",
		"eligible", "yes: the token carries a verified email", "globex.example (verified, uid", "not sent: A asks the owners of globex.example",
		" no organization · test · erin")
	h.keys("A")
	s := h.waitText("sent at", "pending. The service tells the owners of globex.example", ":requestGroupAccess")
	if strings.Contains(s, "not sent") {
		t.Errorf("the request still reads as not sent:\n%s", s)
	}
	h.keys("A")
	h.waitText("already asked: its owners have the request")

	h.keys("r") // not let in yet: the same screen, the request still said
	h.waitText("sent at", "globex.example (verified")
	admitted.Store(true)
	h.keys("r")
	h.waitText("access granted: this token now sees globex.example")
}

// A second request the same day is refused by the service: the screen
// says it was already sent, and sends nothing more.
func TestNoOrganizationAlreadyAsked(t *testing.T) {
	t.Parallel()
	h := asPerson(t, "erin", "", nil)
	h.waitText("not sent: A asks")
	c := h.m.opts.Client
	g, err := c.LookupGroup(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.RequestGroupAccess(t.Context(), g.UID); err != nil {
		t.Fatal(err)
	}
	h.keys("A")
	h.waitText("already sent: the service had a recent request from you to globex.example")
}

// A person of free mail is not eligible, and no organization is found:
// nothing to ask.
func TestNoOrganizationNotEligible(t *testing.T) {
	t.Parallel()
	h := asPerson(t, "frank", "", nil)
	h.waitText("eligible", "no: the service matches an organization", "none: no verified organization is named as your email's domain")
	h.keys("A")
	h.waitText("no organization of your email's domain to ask")
}

// --org naming an organization the token does not see shows the same
// screen, and says when the domain's organization is another.
func TestNamedOrganizationNotVisible(t *testing.T) {
	t.Parallel()
	h := asPerson(t, "erin", "initech.example", nil)
	h.waitText(`no organization or folder named "initech.example" is visible to this token`,
		"not initech.example: a token may ask to join its email")
}

// :join over an organization the token is in already says so: the
// organization of its email's domain is among those it lists, so A is
// off with that reason and nothing is sent; esc closes it.
func TestJoinOverAnOrganization(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	h := asPersonBehind(t, "alice", "acme.example", func(w http.ResponseWriter, r *http.Request, srv *emulator.Server) {
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		srv.ServeHTTP(w, r)
	})
	h.waitText("platform")
	typeCommand(h, "join")
	s := h.waitText("join an organization", "this token is in the organization of its email's domain already",
		"acme.example (verified, uid", "you are a member already",
		"none needed: you are a member of acme.example already (it is the organization open)")
	if strings.Contains(s, "not sent") || strings.Contains(s, ":requestGroupAccess") {
		t.Errorf("a request is offered to an organization the token is in:\n%s", s)
	}
	h.keys("A")
	h.waitText("you are a member of acme.example already: nothing to ask")
	h.settle()
	if n := posts.Load(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
	h.keys("esc")
	h.waitFor("the tree again", func(s string) bool {
		return strings.Contains(s, "details: ") && !strings.Contains(s, "none needed")
	})
}

// --org naming an organization the token does not see, by a member of
// its email domain's organization: the screen says she is in that one,
// A is off, and :org opens it.
func TestNamedOrganizationNotVisibleToAMember(t *testing.T) {
	t.Parallel()
	h := asPerson(t, "alice", "initech.example", nil)
	h.waitText(`no organization or folder named "initech.example" is visible to this token`,
		"acme.example (verified, uid", "you are a member already", "none needed: you are a member of acme.example already; :org opens it")
	h.keys("A")
	h.waitText("you are a member of acme.example already: nothing to ask")
	typeCommand(h, "org")
	h.waitText("platform")
}

// :whois opens the page of the identity a sign-in is, and copies the uid
// a sign-in not seen yet will have.
func TestWhois(t *testing.T) {
	t.Parallel()
	h := start(t, 150, 30, true)
	h.waitText("platform")
	typeCommand(h, "whois https://accounts.google.com 109283746501928374650")
	h.waitText("signs in as the identity carol", "Carol Díaz")
	h.keys("esc")
	typeCommand(h, "whois https://idp.example newcomer")
	h.waitText("copied uid of newcomer of https://idp.example (no identity this token sees")
	h.waitFor("the uid on the clipboard", func(string) bool { return regexp.MustCompile(`[0-9a-f]{40}`).MatchString(h.clipboard) })
	typeCommand(h, "whois only-one")
	h.waitText(":whois takes an issuer and a subject")
}

// A request to join whose answer is lost is said unknown, not sent; A
// asks again, and the service, which had it, says it was already sent:
// its owners are not told twice.
func TestNoOrganizationLostRequest(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	h := asPersonBehind(t, "erin", "", func(w http.ResponseWriter, r *http.Request, srv *emulator.Server) {
		if r.Method != http.MethodPost || posts.Add(1) > 1 {
			srv.ServeHTTP(w, r)
			return
		}
		srv.ServeHTTP(httptest.NewRecorder(), r) // made, and the answer lost
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	})
	h.waitText("not sent: A asks")
	h.keys("A")
	h.waitText("no answer (", "unknown whether it was sent", "A asks again: the service refuses a second request the same day")
	h.keys("A")
	h.waitText("already sent: the service had a recent request from you to globex.example")
	if n := posts.Load(); n != 2 {
		t.Errorf("%d requests sent, want 2", n)
	}
}
