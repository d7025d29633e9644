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
	"canopy/text"
	"canopy/theme"
)

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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "t"})
	var sent atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPatch {
			srv.ServeHTTP(w, r)
			return
		}
		sent.Add(1)
		srv.ServeHTTP(w, r) // made at once, its answer too late
	}))
	t.Cleanup(hs.Close)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken("t", "test"), HTTPClient: lateClient(isPatch)})
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

// TestLostTagMoveIsLookedUp: POST tags moves latest and its answer is lost:
// the form finds latest at the digest sent and goes on as after the move
// (u moves it back); a new tag whose POST never arrived is found absent,
// and only then sent again.
func TestLostTagMoveIsLookedUp(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 160, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/registry/v2/tags/")
	})
	ctx := context.Background()
	repos, err := truth.ListRepos(ctx, api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: "alertmanager"})
	if err != nil || len(repos.Items) != 1 {
		t.Fatal(repos, err)
	}
	repo := repos.Items[0].UID
	latest, err := truth.FindTag(ctx, repo, "latest")
	if err != nil || latest == nil {
		t.Fatal(latest, err)
	}
	next := "sha256:" + strings.Repeat("5e", 32)
	h.toAlertmanager()
	h.keys("n")
	h.waitText("New tag in alertmanager")
	h.typeText("latest")
	h.keys("tab")
	h.typeText(next)
	h.waitText("latest exists at")
	h.keys("enter", "enter")
	h.waitText(`no answer, but the server has it: moved tag "latest" of alertmanager from ` + text.Short(latest.Digest, 12) +
		" to " + text.Short(next, 12) + " (u moves it back)")
	if n := posts(d, "/registry/v2/tags/"); n != 1 {
		t.Errorf("%d POSTs of the tag, want 1: %v", n, d.received())
	}
	d.setDrop(nil)
	h.keys("u")
	h.waitText("undid digest of latest")
	if now, _ := truth.FindTag(ctx, repo, "latest"); now == nil || now.Digest != latest.Digest {
		t.Errorf("after u latest is %+v", now)
	}

	d.setDrop(func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/registry/v2/tags/")
	})
	d.setUnapplied(true)
	h.keys("n")
	h.waitText("New tag in alertmanager")
	h.typeText("v9-lost")
	h.keys("tab")
	h.typeText(next)
	h.waitText("no tag v9-lost in alertmanager yet")
	h.keys("enter")
	h.waitText("? no answer; the server has no tag v9-lost · enter sends again", "the server has no tag v9-lost: enter sends again")
	d.setDrop(nil)
	h.keys("enter")
	h.waitText(`created tag "v9-lost" in alertmanager`)
	if n := posts(d, "/registry/v2/tags/"); n != 4 {
		t.Errorf("%d POSTs of tags, want 4 (move, undo, lost create, create): %v", n, d.received())
	}
}

// TestLostDeleteIsLookedUp: a DELETE whose answer is lost is followed by a
// GET of what it deleted: NOT_FOUND is done (the row goes), found is not
// deleted (the row stays, d deletes it again); :changes says which.
func TestLostDeleteIsLookedUp(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 150, 40, func(r *http.Request) bool { return r.Method == http.MethodDelete })
	h.waitText("platform")
	typeCommand(h, "repos")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("d")
	h.waitText("Delete repo alertmanager?")
	h.keys("y")
	s := h.waitText("1 done", "no answer (EOF), but the server no longer has it")
	if strings.Contains(s, "unknown") {
		t.Errorf("a delete found done is still unknown:\n%s", s)
	}
	h.keys("enter")
	h.waitText("62/62 loaded")
	if r, _ := truth.ListRepos(context.Background(), api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: "alertmanager"}); len(r.Items) != 0 {
		t.Fatalf("the emulator still has alertmanager")
	}

	d.setUnapplied(true)
	h.keys("d")
	h.waitText("Delete repo argocd?")
	h.keys("y")
	s = h.waitText("1 failed", "no answer (EOF); the server still has it: not deleted")
	h.keys("enter")
	s = h.waitText("62/62 loaded")
	if !strings.Contains(s, "Argo CD.") {
		t.Errorf("the row of a repo not deleted went:\n%s", s)
	}
	if n := len(d.received()); n != 2 {
		t.Errorf("%d changes sent, want 2: %v", n, d.received())
	}
	typeCommand(h, "changes")
	s = h.waitText("changes made in this session", "unknown, then found deleted", "unknown, then found not deleted")
}

// TestLostUndoIsLookedUp: u whose answer is lost reads the repo back: the
// old value found is undone; the edited value found offers u again; a
// lookup that fails makes the next u look before it sends.
func TestLostUndoIsLookedUp(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 160, 30, nil)
	uid, _ := descriptionOf(t, h, truth)
	last := uid[strings.LastIndex(uid, "/")+1:]
	patch := func(r *http.Request) bool { return r.Method == http.MethodPatch }
	editAlertmanager(h, " (pinned)")
	h.waitText("description of alertmanager changed (u undoes)")

	// Made, answer lost: found undone.
	d.setDrop(patch)
	h.keys("u")
	s := h.waitText("no answer, but the server has it: undid description of alertmanager")
	if strings.Contains(line(s, "Prometheus Alertmanager"), "(pinned)") {
		t.Errorf("the row still shows the edit:\n%s", s)
	}

	// Never made: the edited value is found, and u sends the undo again.
	d.setDrop(nil)
	h.keys("e")
	h.waitText("?update_mask=description")
	h.typeText("!")
	h.keys("enter")
	h.waitText("description of alertmanager changed (u undoes)")
	d.setDrop(patch)
	d.setUnapplied(true)
	h.keys("u")
	h.waitText("no answer (EOF); the server still has the edited value: u sends the undo again")
	if _, desc := descriptionOf(t, h, truth); desc != "Prometheus Alertmanager.!" {
		t.Fatalf("the server has %q", desc)
	}
	before := patches(d)

	// Made, answer lost, lookup failing: u looks first, finds it undone,
	// and sends nothing.
	d.setUnapplied(false)
	d.setDrop(func(r *http.Request) bool {
		return patch(r) || r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/"+last)
	})
	h.keys("u")
	h.waitText("unknown whether it was undone — could not look it up (EOF); u looks again")
	if n := patches(d); n != before+1 {
		t.Fatalf("%d PATCHes, want %d", n, before+1)
	}
	d.setDrop(nil)
	h.keys("u")
	h.waitText("no answer, but the server has it: undid description of alertmanager")
	if n := patches(d); n != before+1 {
		t.Errorf("u after a failed lookup sent again: %d PATCHes, want %d", n, before+1)
	}
	if _, desc := descriptionOf(t, h, truth); desc != "Prometheus Alertmanager." {
		t.Errorf("the server has %q", desc)
	}
}
