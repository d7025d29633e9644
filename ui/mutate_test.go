package ui

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

func last(reqs *[]recorded, mu interface {
	Lock()
	Unlock()
}) []recorded {
	mu.Lock()
	defer mu.Unlock()
	return append([]recorded(nil), *reqs...)
}

func TestEditInPlaceSendsOnlyTheFieldAndUndoes(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 140, 30)
	h.waitText("platform")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("e")
	h.waitText("PATCH /registry/v2/repos/…/", "?update_mask=description", "unchanged")
	for _, r := range " (pinned)" {
		h.keys(string(r))
	}
	h.waitText(`"Prometheus Alertmanager." → "Prometheus Alertmanager. (pinned)"`)
	h.keys("enter")
	h.waitText("description of alertmanager changed (u undoes)", "Prometheus Alertmanager. (pinned)")
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Method != "PATCH" || !strings.HasSuffix(got[0].Path, "?update_mask=description") ||
		!reflect.DeepEqual(got[0].Body, map[string]any{"description": "Prometheus Alertmanager. (pinned)"}) {
		t.Fatalf("request %+v", got)
	}
	h.keys("u")
	h.waitText("undid description of alertmanager")
	got = last(reqs, mu)
	if len(got) != 2 || !reflect.DeepEqual(got[1].Body, map[string]any{"description": "Prometheus Alertmanager."}) || got[1].Path != got[0].Path {
		t.Fatalf("undo request %+v", got)
	}
	s := h.screen()
	if row := line(s, "Prometheus Alertmanager"); strings.Contains(row, "(pinned)") || !strings.Contains(row, "alertmanager") {
		t.Errorf("the row still shows the edit:\n%s", s)
	}
	// Every change is in :changes, and copies as curl without the token.
	h.keys(":", "c", "h", "a", "n", "g", "e", "s", "enter")
	h.waitText("changes made in this session", "PATCH /registry/v2/repos/", "ok (")
}

func TestEditClaimMatchInTheDetailPane(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 150, 40)
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.waitText("carol")
	h.moveTo("carol")
	// The pane's field cursor starts on description; j moves it to the
	// issuer, j again to the subject, and e edits that member alone in
	// place: its own mask path, the rest of the claim match untouched.
	h.keys("tab", "j", "j", "e")
	h.waitText("?update_mask=claim_match.subject")
	for _, r := range "-x" {
		h.keys(string(r))
	}
	h.keys("enter")
	h.waitText("subject of carol changed")
	got := last(reqs, mu)
	want := map[string]any{"claimMatch": map[string]any{"subject": "109283746501928374650-x"}}
	if len(got) != 1 || !strings.HasSuffix(got[0].Path, "?update_mask=claim_match.subject") || !reflect.DeepEqual(got[0].Body, want) {
		t.Fatalf("request %+v", got)
	}
	h.waitText("subject       109283746501928374650-x")
}

func TestCreateRepoExplainsAndKeepsWhatWasTyped(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 140, 40)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("n")
	h.waitText("New repo in platform", "POST /registry/v2/repos")
	for _, r := range "alertmanager" {
		h.keys(string(r))
	}
	h.keys("tab")
	for _, r := range "dup" {
		h.keys(string(r))
	}
	h.keys("enter")
	s := h.waitText("already exists")
	if !strings.Contains(s, "alertmanager") || !strings.Contains(s, "dup") {
		t.Errorf("what was typed is lost:\n%s", s)
	}
	// The refusal went to the name, which has the cursor.
	if !strings.Contains(line(s, "already exists"), "name") {
		t.Errorf("ALREADY_EXISTS is not beside the name:\n%s", s)
	}
	for range "alertmanager" {
		h.keys("backspace")
	}
	for _, r := range "canopy-test" {
		h.keys(string(r))
	}
	h.keys("enter")
	h.waitText(`created repo "canopy-test" in platform`)
	h.waitText("total         16 repos")
	got := last(reqs, mu)
	if len(got) != 2 || got[1].Method != "POST" || got[1].Body["name"] != "canopy-test" || got[1].Body["description"] != "dup" {
		t.Fatalf("requests %+v", got)
	}
}

func TestDeleteNonEmptyFolderIsRefusedWithTheNextStep(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 140, 40)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("d")
	h.waitText("Delete folder platform?", "type platform to confirm")
	h.keys("enter")
	h.waitText("type platform exactly")
	for _, r := range "platform" {
		h.keys(string(r))
	}
	h.keys("enter")
	s := h.waitText("1 failed", "RESOURCE_NOT_EMPTY", "only an empty folder")
	if !strings.Contains(s, "group has 2 subgroups") || !strings.Contains(s, "enter opens its subfolders") || !strings.Contains(s, "enter open ") {
		t.Errorf("the refusal is not explained:\n%s", s)
	}
	// enter opens what is in the way: the folder's subfolders.
	h.keys("enter")
	h.waitText("subfolders of platform", "base-images", "ci")
}

func TestDeleteARepoRemovesTheRow(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 140, 30)
	h.waitText("platform")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	h.waitText("63/63 loaded")
	h.keys("d")
	h.waitText("Delete repo alertmanager?", "uid ", "tags go with it")
	h.keys("y")
	h.waitText("deleted repo alertmanager", "62/62 loaded")
	if s := h.screen(); strings.Count(s, "alertmanager") != 1 { // the status line's "deleted repo alertmanager"
		t.Errorf("the row is still there:\n%s", s)
	}
	if got := last(reqs, mu); len(got) != 1 || got[0].Method != "DELETE" {
		t.Errorf("requests %+v", got)
	}
}

func TestReadOnlyDisablesChangesVisibly(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark}, ReadOnly: true,
		Now: func() time.Time { return fixedNow }}, 140, 30)
	h.waitText("read-only", "platform")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	h.waitText("63/63 loaded")
	for _, k := range []string{"e", "d", "n"} {
		h.keys(k)
		h.waitText("read-only mode: nothing can be changed")
	}
	h.keys("?")
	s := h.waitText("Keys in repos of acme.example")
	if !strings.Contains(s, "read-only mode") {
		t.Errorf("help does not say why:\n%s", s)
	}
}

// TestTimeoutSaysTheOutcomeIsUnknown: a PATCH that gets no answer in time
// leaves the editor open with what was typed and says the outcome is
// unknown; it is not retried.
func TestTimeoutSaysTheOutcomeIsUnknown(t *testing.T) {
	t.Parallel()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "t"})
	var patches atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch {
			patches.Add(1) // not made: its answer would say, too late
			w.WriteHeader(http.StatusGatewayTimeout)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken("t", "test"), HTTPClient: lateClient(isPatch)})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }}, 160, 30)
	h.waitText("platform")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	h.waitText("63/63 loaded")
	h.keys("e", "!", "enter")
	s := h.waitText("unknown whether the change was made")
	if !strings.Contains(s, "Prometheus Alertmanager.!") {
		t.Errorf("the text typed is lost:\n%s", s)
	}
	if n := patches.Load(); n != 1 {
		t.Errorf("the PATCH was sent %d times: a change is never retried blindly", n)
	}
}
