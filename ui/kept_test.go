package ui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// keeper is a server that applies no PATCH: it answers each with the
// resource as it is (a server that applies only some mask paths).
type keeper struct{ srv *emulator.Server }

func (k keeper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPatch {
		get := httptest.NewRequestWithContext(r.Context(), http.MethodGet, r.URL.Path, nil)
		get.Header = r.Header.Clone()
		r = get
	}
	k.srv.ServeHTTP(w, r)
}

// TestEditTheServerKeptIsNotDone: a PATCH answered 200 with the old value
// is said plainly in the form (not applied: what the server has, what was
// sent), leaves nothing to undo, and :changes records it as not applied.
func TestEditTheServerKeptIsNotDone(t *testing.T) {
	t.Parallel()
	h := shellBehind(t, func(srv *emulator.Server) http.Handler { return keeper{srv} }, 160, 30)
	editAlertmanager(h, " (pinned)")
	s := h.waitText("not applied: the server answered but kept what it had")
	if !strings.Contains(s, `description is "Prometheus Alertmanager."`) {
		t.Errorf("the form does not say what the server kept:\n%s", s)
	}
	h.keys("esc")
	s = h.waitFor("the form closed", func(s string) bool { return !strings.Contains(s, "not applied") })
	if strings.Contains(line(s, "Prometheus Alertmanager"), "(pinned)") {
		t.Errorf("the row shows the value the server kept out:\n%s", s)
	}
	h.keys("u")
	h.waitText("nothing to undo")
	typeCommand(h, "changes")
	h.waitText("changes made in this session", "not applied")
}

// otherwiseMaker answers a folder's create with another name than the one sent
// (a server that makes it otherwise than asked).
type otherwiseMaker struct{ srv *emulator.Server }

func (k otherwiseMaker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/iam/v2/groups/") {
		k.srv.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	k.srv.ServeHTTP(rec, r)
	var g map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &g); err == nil && rec.Code == http.StatusOK {
		g["name"] = fmt.Sprint(g["name"], "-x")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rec.Code)
	json.NewEncoder(w).Encode(g)
}

// TestCreateMadeOtherwiseIsSaid: a create answered with another value
// than sent is made (no failure, nothing sent again) and said plainly, on
// the status line and in :changes.
func TestCreateMadeOtherwiseIsSaid(t *testing.T) {
	t.Parallel()
	h := shellBehind(t, func(srv *emulator.Server) http.Handler { return otherwiseMaker{srv} }, 200, 40)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.waitText("base-images")
	h.keys("n")
	h.waitText("New folder in platform")
	h.typeText("acc-folder")
	h.keys("enter")
	h.waitText(`created folder "acc-folder-x" in platform, but not as sent: name is "acc-folder-x", "acc-folder" was sent`)
	typeCommand(h, "changes")
	h.waitText("changes made in this session", "ok, but not as sent")
}

// shellBehind runs the shell, keeping a change log, on a fresh emulator
// served through the handler front makes of it (a server that misbehaves).
func shellBehind(t *testing.T, front func(*emulator.Server) http.Handler, w, h int) *harness {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token"})
	hs := httptest.NewServer(front(srv))
	t.Cleanup(hs.Close)
	changes := &ChangeLog{}
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"), Observe: changes.Record})
	if err != nil {
		t.Fatal(err)
	}
	return startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark}, Changes: changes,
		Now: func() time.Time { return fixedNow }}, w, h)
}
