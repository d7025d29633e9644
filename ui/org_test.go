package ui

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// asIdentity runs the shell with the token of a seeded identity, no --org.
func asIdentity(t *testing.T, issuer, subject, org string) *harness {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token"})
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	tok := emulator.IdentityToken(issuer, subject, time.Now().Add(time.Hour))
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(tok, "test"), Retry: api.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return startWith(t, srv, Options{Client: client, Org: org, Host: "test", Identity: subject,
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }}, 120, 30)
}

// An identity bound only on a folder sees no organization: canopy opens
// the folder it sees, calls it a folder, and a collection it may not list
// says why in full, never "loading".
func TestIdentityBoundOnAFolderOpensTheFolder(t *testing.T) {
	t.Parallel()
	h := asIdentity(t, "https://token.actions.githubusercontent.com", "repo:acme/payments:environment:production", "")
	s := h.waitText("details: payments", "folder payments")
	if strings.Contains(s, "sees no organization") || strings.Contains(s, "organization payments") {
		t.Errorf("the folder is not opened as a folder:\n%s", s)
	}
	// Its repos: the registry refuses a folder-only identity.
	h.moveTo("repos of payments")
	s = h.waitFor("the refusal in the row and the pane", func(s string) bool {
		return strings.Contains(line(s, "> repos"), "! failed") && strings.Contains(s, "r to retry")
	})
	if strings.Contains(s, "total         loading") || !strings.Contains(s, "total         ! failed") {
		t.Errorf("a refused collection reads as loading:\n%s", s)
	}
	if joined := strings.Join(strings.Fields(s), " "); !strings.Contains(joined, "Permission denied") || !strings.Contains(joined, "CAP_REPO_LIST") {
		t.Errorf("the detail pane does not show the whole error:\n%s", s)
	}
}

// An identity bound on several folders of no organization chooses among the
// top-most ones, in the organization picker.
func TestIdentityBoundOnSeveralFoldersChoosesOne(t *testing.T) {
	t.Parallel()
	h := asIdentity(t, "https://token.actions.githubusercontent.com", "repo:acme/scanner:ref:refs/heads/main", "")
	s := h.waitText("Which folder?", "security", "apps")
	if strings.Contains(s, "payments") || strings.Contains(s, " web") {
		t.Errorf("the picker offers folders under the ones it offers:\n%s", s)
	}
	h.keys("enter")
	h.waitText("details: ", "folder ")
}

// :org starts on the organization shown, not on the first one listed.
func TestOrgPickerStartsOnTheCurrentOrganization(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 30, true)
	h.waitText("details: acme.example")
	h.keys(":", "o", "r", "g", "enter")
	h.waitText("Which organization?", "globex")
	// The selected row is the one drawn with the selection's background.
	for _, l := range strings.Split(h.m.View().Content, "\n") {
		if strings.Contains(l, "globex") && strings.Contains(l, "48;2;") {
			t.Errorf("the cursor starts on globex: %q", l)
		}
		if strings.Contains(l, "acme.example") && strings.Contains(l, "Which") == false && !strings.Contains(l, "48;2;") && strings.Contains(l, "Acme") {
			t.Errorf("the cursor is not on acme.example: %q", l)
		}
	}
}
