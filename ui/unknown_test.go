package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// dropper forwards every request to the emulator, which does the work,
// but loses the answer of the changes chosen: the connection closes before
// a byte of it is written, as a reset or a proxy timeout would.
type dropper struct {
	srv  *emulator.Server
	mu   sync.Mutex
	drop func(r *http.Request) bool
	// unapplied: the answer is lost before the emulator sees the request
	// (a connection that broke on the way in).
	unapplied bool
	changes   []string // "POST /path" of every change received, dropped or not
}

func (d *dropper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	lose := d.drop != nil && d.drop(r)
	apply := !d.unapplied
	if r.Method != http.MethodGet {
		d.changes = append(d.changes, r.Method+" "+r.URL.Path)
	}
	d.mu.Unlock()
	if !lose {
		d.srv.ServeHTTP(w, r)
		return
	}
	if apply {
		d.srv.ServeHTTP(httptest.NewRecorder(), r) // done, answer thrown away
	}
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

// setUnapplied makes the answers lost before the emulator sees the
// request (true) or after it made the change (false).
func (d *dropper) setUnapplied(v bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.unapplied = v
}

// received are the changes the server received, dropped or not.
func (d *dropper) received() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.changes...)
}

// droppingShell runs the shell through a dropper; the client never
// retries, so a lost answer reaches the screen.
func droppingShell(t *testing.T, w, h int, drop func(r *http.Request) bool) (*harness, *api.Client) {
	hr, truth, _ := droppingShellWith(t, w, h, drop)
	return hr, truth
}

// setDrop changes which answers are lost.
func (d *dropper) setDrop(drop func(r *http.Request) bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.drop = drop
}

// droppingShellWith is droppingShell that also gives the dropper.
func droppingShellWith(t *testing.T, w, h int, drop func(r *http.Request) bool) (*harness, *api.Client, *dropper) {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token"})
	d := &dropper{srv: srv, drop: drop}
	hs := httptest.NewServer(d)
	t.Cleanup(hs.Close)
	changes := &ChangeLog{}
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"),
		Retry: api.RetryPolicy{MaxAttempts: 1}, Observe: changes.Record})
	if err != nil {
		t.Fatal(err)
	}
	direct := httptest.NewServer(srv)
	t.Cleanup(direct.Close)
	truth, err := api.New(api.Options{BaseURL: direct.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test")})
	if err != nil {
		t.Fatal(err)
	}
	hr := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark}, Changes: changes,
		Now: func() time.Time { return fixedNow }}, w, h)
	return hr, truth, d
}

// TestLostAnswersToDeletesAreUnknownPerItem: two repos deleted together,
// the answer for one lost and the lookup that follows failing too: it is
// "unknown — r to refresh to see", neither done nor failed, while the
// other is done; the row whose outcome is unknown stays (marked) until r
// shows it went.
func TestLostAnswersToDeletesAreUnknownPerItem(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 150, 40, nil)
	page, err := truth.ListRepos(context.Background(), api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: "alertmanager"})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("alertmanager: %+v %v", page, err)
	}
	alertmanager := page.Items[0].UID
	last := alertmanager[strings.LastIndex(alertmanager, "/")+1:]
	d.setDrop(func(r *http.Request) bool {
		return (r.Method == http.MethodDelete || r.Method == http.MethodGet) && strings.HasSuffix(r.URL.Path, "/"+last)
	})
	h.waitText("platform")
	typeCommand(h, "repos")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("space", "space", "d")
	h.waitText("Delete 2 repos?")
	h.keys("y")
	s := h.waitText("1 done", "1 unknown")
	if strings.Contains(s, "failed") || !strings.Contains(s, "? repo alertmanager") ||
		!strings.Contains(s, "unknown whether it was deleted — could not look it up:") || !strings.Contains(s, "r to refresh to see") {
		t.Errorf("a lost answer is not said to be unknown:\n%s", s)
	}
	// The unknown one is listed before the one done.
	if strings.Index(s, "repo alertmanager") > strings.Index(s, "repo argocd") {
		t.Errorf("the unknown outcome is not first:\n%s", s)
	}
	h.keys("enter")
	s = h.waitText("deleted 1 repo · 1 repo unknown", "62/62 loaded", "1 marked")
	if !strings.Contains(line(s, "Prometheus Alertmanager"), "alertmanager") {
		t.Errorf("the row of unknown outcome went:\n%s", s)
	}
	// It was deleted: r shows it.
	if _, err := truth.GetRepo(context.Background(), alertmanager); !api.IsNotFound(err) {
		t.Fatalf("the emulator still has alertmanager: %v", err)
	}
	h.keys("r")
	h.waitFor("the row gone after r", func(s string) bool {
		return strings.Contains(s, "61/61 loaded") && !strings.Contains(s, "Prometheus Alertmanager")
	})
	// :changes says the answer was lost.
	typeCommand(h, "changes")
	s = h.waitText("changes made in this session", "DELETE /registry/v2/repos/…/"+last)
	if !strings.Contains(line(s, last), "unknown") {
		t.Errorf(":changes does not say unknown:\n%s", s)
	}
}

// TestLostAnswerToABindIsLookedUp: the binding is made but its answer is
// lost: the flow looks it up and says it was bound (done, not "!" and not
// failed); one whose request never arrived is found not bound.
func TestLostAnswerToABindIsLookedUp(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 150, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/iam/v2/roleBindings/")
	})
	bindCarol := func(key string) {
		h.keys("b")
		h.waitText("Which role for carol?")
		h.keys(key)
		h.waitText("on which folder?")
		h.keys("enter")
		h.waitText("Bind?")
		h.keys("enter")
	}
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.waitText("carol")
	h.moveTo("carol")
	bindCarol("2")
	s := h.waitText("1 done", "no answer (EOF), but the server has it: bound")
	if strings.Contains(s, "failed") || strings.Contains(s, "! editor") || strings.Contains(s, "unknown") {
		t.Errorf("a lost answer to a bind made is not said done:\n%s", s)
	}
	h.keys("enter")
	h.waitText("bound editor → carol")
	carol := h.identityUID(t, "carol")
	has := func(role string) bool {
		page, err := truth.ListRoleBindings(context.Background(), api.ListOptions{Identity: carol})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range page.Items {
			if b.Role != nil && b.Role.Name == role {
				return true
			}
		}
		return false
	}
	if !has("editor") {
		t.Error("the binding was not made")
	}

	d.setUnapplied(true)
	bindCarol("3")
	s = h.waitText("1 failed", "no answer (EOF); the server does not have it: not bound")
	if has("owner") {
		t.Error("the emulator has a binding it never received")
	}
	if n := posts(d, "/iam/v2/roleBindings/"); n != 2 {
		t.Errorf("%d POSTs, want 2: %v", n, d.received())
	}
}
