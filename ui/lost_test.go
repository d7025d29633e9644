package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// posts counts the POSTs to a path prefix among the changes received.
func posts(d *dropper, prefix string) int {
	n := 0
	for _, c := range d.received() {
		if strings.HasPrefix(c, "POST "+prefix) {
			n++
		}
	}
	return n
}

// newRepoForm opens the create form of a repo in platform and types a
// name and a description.
func newRepoForm(h *harness, name, description string) {
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("n")
	h.waitText("New repo in platform", "POST /registry/v2/repos")
	h.typeText(name)
	h.keys("tab")
	h.typeText(description)
}

// repoIn is the repo named name in platform, as the server has it (nil:
// none).
func repoIn(t *testing.T, h *harness, truth *api.Client, name string) *api.Repo {
	t.Helper()
	ctx := context.Background()
	p, err := truth.ListGroups(ctx, api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: "platform"})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("platform: %+v %v", p, err)
	}
	r, err := truth.FindRepo(ctx, p.Items[0].UID, name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLostCreateThatWasMadeIsFoundNotSentAgain: the server makes the repo
// and drops the connection before answering. The form does not say "not
// changed" nor offer to send again: it looks the name up, finds the repo,
// and goes on as after a create (flash, tree); :changes says so. One POST.
func TestLostCreateThatWasMadeIsFoundNotSentAgain(t *testing.T) {
	h, truth, d := droppingShellWith(t, 140, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/registry/v2/repos/")
	})
	newRepoForm(h, "canopy-lost", "made, answer lost")
	h.keys("enter")
	s := h.waitText(`no answer, but the server has it: created repo "canopy-lost" in platform`)
	if strings.Contains(s, "not changed") || strings.Contains(s, "sends again") {
		t.Errorf("a create the server made is offered again:\n%s", s)
	}
	h.waitText("total         16 repos")
	// Enter now belongs to the tree: nothing more is posted.
	h.keys("enter")
	h.settle()
	if n := posts(d, "/registry/v2/repos/"); n != 1 {
		t.Errorf("%d POSTs of the repo, want 1: %v", n, d.received())
	}
	if repoIn(t, h, truth, "canopy-lost") == nil {
		t.Fatal("the emulator does not have the repo")
	}
	typeCommand(h, "changes")
	s = h.waitText("changes made in this session", "POST /registry/v2/repos")
	if !strings.Contains(line(s, "POST /registry/v2/repos"), "unknown, then found created") {
		t.Errorf(":changes does not say what the lookup found:\n%s", s)
	}
}

// TestLostCreateThatWasNotMadeOffersToSendAgain: the connection drops
// before the server sees the create. The form says the answer was lost,
// looks the name up, says the server does not have it, and only then does
// enter send again.
func TestLostCreateThatWasNotMadeOffersToSendAgain(t *testing.T) {
	h, truth, d := droppingShellWith(t, 140, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/registry/v2/repos/")
	})
	d.setUnapplied(true)
	newRepoForm(h, "canopy-lost", "never made")
	h.keys("enter")
	s := h.waitText("? no answer; the server does not have it · enter sends again",
		"unknown whether the change was made", "the server does not have it: enter sends again")
	if strings.Contains(s, "not changed") {
		t.Errorf("a lost answer is said to be a refusal:\n%s", s)
	}
	if repoIn(t, h, truth, "canopy-lost") != nil {
		t.Fatal("the emulator has the repo")
	}
	d.setDrop(nil)
	h.keys("enter")
	h.waitText(`created repo "canopy-lost" in platform`)
	if n := posts(d, "/registry/v2/repos/"); n != 2 {
		t.Errorf("%d POSTs of the repo, want 2 (one lost, one sent again): %v", n, d.received())
	}
	typeCommand(h, "changes")
	s = h.waitText("changes made in this session", "unknown, then found not created", "ok (")
	if c := strings.Count(s, "POST /registry/v2/repos"); c != 2 {
		t.Errorf(":changes lists %d POSTs, want 2:\n%s", c, s)
	}
}

// TestLostCreateWhoseLookupFailsIsNeverSentBlindly: the create is made and
// its answer lost, and the lookups fail too: the form says it could not
// look, and enter looks again (never sends) until a lookup answers.
func TestLostCreateWhoseLookupFailsIsNeverSentBlindly(t *testing.T) {
	h, truth, d := droppingShellWith(t, 140, 40, nil)
	lookups := func(r *http.Request) bool {
		return r.Method == http.MethodGet && r.URL.Path == "/registry/v2/repos" && r.URL.Query().Get("name") == "canopy-lost"
	}
	newRepoForm(h, "canopy-lost", "made, answer lost")
	d.setDrop(func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/registry/v2/repos/") || lookups(r)
	})
	h.keys("enter")
	s := h.waitText("? no answer; could not look it up · enter looks again", "could not look it up:", "enter looks again")
	if strings.Contains(s, "sends again") {
		t.Errorf("a resend is offered without a lookup:\n%s", s)
	}
	h.keys("enter")
	h.waitText("could not look it up:")
	if n := posts(d, "/registry/v2/repos/"); n != 1 {
		t.Errorf("enter after a failed lookup posted again: %v", d.received())
	}
	d.setDrop(nil)
	h.keys("enter")
	h.waitText(`no answer, but the server has it: created repo "canopy-lost" in platform`)
	if n := posts(d, "/registry/v2/repos/"); n != 1 {
		t.Errorf("%d POSTs of the repo, want 1: %v", n, d.received())
	}
	if repoIn(t, h, truth, "canopy-lost") == nil {
		t.Fatal("the emulator does not have the repo")
	}
}

// editAlertmanager opens :repos and edits alertmanager's description in
// place, adding suffix, and sends it.
func editAlertmanager(h *harness, suffix string) {
	h.waitText("platform")
	typeCommand(h, "repos")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("e")
	h.waitText("PATCH /registry/v2/repos/…/", "?update_mask=description", "unchanged")
	h.typeText(suffix)
	h.keys("enter")
}

// descriptionOf is alertmanager's description as the server has it.
func descriptionOf(t *testing.T, h *harness, truth *api.Client) (string, string) {
	t.Helper()
	p, err := truth.ListRepos(context.Background(), api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: "alertmanager"})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("alertmanager: %+v %v", p, err)
	}
	return p.Items[0].UID, p.Items[0].Description
}

func patches(d *dropper) int {
	n := 0
	for _, c := range d.received() {
		if strings.HasPrefix(c, "PATCH ") {
			n++
		}
	}
	return n
}

// TestLostEditThatWasMadeIsDoneAndUndoes: the server applies the PATCH and
// drops the connection: the form reads the repo back, finds the new value,
// and goes on as after the edit (the row, the flash, u undoes it).
func TestLostEditThatWasMadeIsDoneAndUndoes(t *testing.T) {
	h, truth, d := droppingShellWith(t, 160, 30, func(r *http.Request) bool { return r.Method == http.MethodPatch })
	editAlertmanager(h, " (pinned)")
	s := h.waitText("no answer, but the server has the new value: description of alertmanager changed (u undoes)")
	if !strings.Contains(line(s, "Prometheus Alertmanager"), "(pinned)") || strings.Contains(s, "sends again") {
		t.Errorf("the row does not show the edit found:\n%s", s)
	}
	if n := patches(d); n != 1 {
		t.Errorf("%d PATCHes, want 1: %v", n, d.received())
	}
	d.setDrop(nil)
	h.keys("u")
	h.waitText("undid description of alertmanager")
	if _, desc := descriptionOf(t, h, truth); desc != "Prometheus Alertmanager." {
		t.Errorf("after u the server has %q", desc)
	}
	typeCommand(h, "changes")
	s = h.waitText("changes made in this session", "unknown, then found the new value")
}

// TestLostEditThatWasNotMadeOffersToSendAgain: the connection drops before
// the server sees the PATCH: the form reads the repo back, says the server
// still has the old value, and only then does enter send again.
func TestLostEditThatWasNotMadeOffersToSendAgain(t *testing.T) {
	h, truth, d := droppingShellWith(t, 160, 30, func(r *http.Request) bool { return r.Method == http.MethodPatch })
	d.setUnapplied(true)
	editAlertmanager(h, " (pinned)")
	s := h.waitText("? no answer; the server still has the old value · enter sends again",
		"unknown whether the change was made", "the server still has the old value: enter sends again")
	if strings.Contains(s, "not changed") {
		t.Errorf("a lost answer is said to be a refusal:\n%s", s)
	}
	if n := patches(d); n != 1 {
		t.Errorf("%d PATCHes before enter, want 1", n)
	}
	d.setDrop(nil)
	h.keys("enter")
	h.waitText("description of alertmanager changed (u undoes)")
	if _, desc := descriptionOf(t, h, truth); desc != "Prometheus Alertmanager. (pinned)" {
		t.Errorf("the server has %q", desc)
	}
	if n := patches(d); n != 2 {
		t.Errorf("%d PATCHes, want 2: %v", n, d.received())
	}
}

// TestLostEditFindingAnotherValueEditsFromIt: while the PATCH's answer is
// lost someone else sets the description: the form shows the server's
// value and enter puts it in the field to edit from, never sending
// blindly over it.
func TestLostEditFindingAnotherValueEditsFromIt(t *testing.T) {
	h, truth, d := droppingShellWith(t, 160, 30, nil)
	uid, _ := descriptionOf(t, h, truth)
	d.setUnapplied(true)
	d.setDrop(func(r *http.Request) bool {
		if r.Method != http.MethodPatch {
			return false
		}
		if _, err := truth.PatchRepo(r.Context(), api.Repo{UID: uid, Description: "set by someone else"}, api.FieldDescription); err != nil {
			t.Error(err)
		}
		return true
	})
	editAlertmanager(h, " (pinned)")
	s := h.waitText("? no answer; the server has another value · enter edits from it",
		`the server has another value: "set by someone else" — enter puts it in the field to edit from`)
	d.setDrop(nil)
	h.keys("enter")
	h.waitText("the fields hold what the server has", "unchanged")
	if n := patches(d); n != 1 {
		t.Errorf("%d PATCHes after enter, want 1 (enter edits from the value found): %v", n, d.received())
	}
	h.typeText("!")
	h.waitText(`"set by someone else" → "set by someone else!"`)
	h.keys("enter")
	s = h.waitText("description of alertmanager changed (u undoes)")
	if _, desc := descriptionOf(t, h, truth); desc != "set by someone else!" {
		t.Errorf("the server has %q:\n%s", desc, s)
	}
	// u goes back to what the server had before this edit.
	h.keys("u")
	h.waitText("undid description of alertmanager")
	if _, desc := descriptionOf(t, h, truth); desc != "set by someone else" {
		t.Errorf("after u the server has %q", desc)
	}
}

// TestTimedOutEditIsLookedUp: the server applies the PATCH but answers
// only after the client gave up waiting: the form says the answer was
// lost, reads the repo back, and finds the edit made; the PATCH is sent
// once.
func TestTimedOutEditIsLookedUp(t *testing.T) {
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: "t"})
	if err != nil {
		t.Fatal(err)
	}
	var sent atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPatch {
			srv.ServeHTTP(w, r)
			return
		}
		sent.Add(1)
		srv.ServeHTTP(httptest.NewRecorder(), r) // made at once, answered never
		<-r.Context().Done()
	}))
	t.Cleanup(hs.Close)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken("t", "test"), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }}, 160, 30)
	editAlertmanager(h, "!")
	s := h.waitText("no answer, but the server has the new value: description of alertmanager changed (u undoes)")
	if !strings.Contains(line(s, "Prometheus Alertmanager"), "Prometheus Alertmanager.!") {
		t.Errorf("the row does not show the edit:\n%s", s)
	}
	if n := sent.Load(); n != 1 {
		t.Errorf("the PATCH was sent %d times", n)
	}
}
