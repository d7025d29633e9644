package ui

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"canopy/api"
)

// TestBindPickerRetriesFailedChoices: when the roles fail to load, the
// flow offers r, and r loads them again for the identity already chosen.
func TestBindPickerRetriesFailedChoices(t *testing.T) {
	t.Parallel()
	hk := hookedShell(t, 140, 40, Options{})
	h := hk.harness
	var failRoles atomic.Bool
	hk.refuse.Store(func(r *http.Request) bool {
		return failRoles.Load() && r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/iam/v2/roles")
	})
	h.waitText("platform")
	typeCommand(h, "identities")
	h.waitText("identities of acme.example", " loaded")
	// Rows by name: alice, auditor-bot, bob, carol.
	h.keys("g", "j", "j", "j")
	h.waitText("4 of 20")
	failRoles.Store(true)
	h.keys("b")
	h.waitText("could not list the choices: list roles:", "r to retry")
	failRoles.Store(false)
	h.keys("r")
	h.waitText("Which role for carol?", "1 viewer")
}

// TestBulkBindUnmarksTheBoundRows: after binding marked identities, the
// rows bound are unmarked and the one that failed stays marked.
func TestBulkBindUnmarksTheBoundRows(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 150, 40)
	h.waitText("platform")
	typeCommand(h, "identities")
	h.waitText("identities of acme.example", " loaded")
	// alice and bob take viewer on the organization; carol has it already.
	// Rows by name: alice, auditor-bot, bob, carol; space moves down.
	h.keys("g", "space", "j", "space", "space")
	h.waitText("3 marked")
	h.keys("b")
	h.waitText("Which role for 3 identities?")
	h.keys("1")
	h.waitText("Bind viewer to 3 identities on which folder?")
	h.keys("enter")
	h.waitText("Bind viewer to 3 identities on acme.example")
	h.keys("enter")
	h.waitText("2 done, 1 failed")
	h.keys("esc")
	s := h.waitText("1 marked")
	for who, marked := range map[string]bool{"alice": false, "bob": false, "carol": true} {
		if got := strings.Contains(s, "\n*"+who+" "); got != marked {
			t.Errorf("%s marked %v, want %v:\n%s", who, got, marked, s)
		}
	}
}

// TestBindOnARoleNamesTheRole: b on a role asks for the identity naming
// the role.
func TestBindOnARoleNamesTheRole(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 150, 40)
	h.waitText("platform")
	typeCommand(h, "roles")
	h.waitText("roles", " loaded")
	h.keys("g", "b") // the first role by name
	s := h.waitText("Bind apk.pull to which identity?", "alice")
	// The identities come by name, as people look for them.
	if a, b := strings.Index(s, "alice"), strings.Index(s, "bob"); a < 0 || b < 0 || a > b {
		t.Errorf("the identities are not in name order:\n%s", s)
	}
}

// TestEmptyRequiredFieldsSayRequired: in every create form, an empty
// required field says "required", not the pattern it must match.
func TestEmptyRequiredFieldsSayRequired(t *testing.T) {
	t.Parallel()
	for _, v := range []func(string) error{matching(api.RepoName, "repo"), matching(api.TagName, "tag"),
		matching(api.Digest, "digest"), matching(api.IdentityName, "identity"), issuerURL, sinkURL, groupName, required} {
		if err := v(""); err == nil || err.Error() != "required" {
			t.Errorf("empty: %v, want required", err)
		}
	}
	h, _, _ := recordingShell(t, 160, 40)
	h.waitText("platform")
	typeCommand(h, "repos")
	h.waitText("repos of acme.example", " loaded")
	h.keys("n")
	h.waitText("New repo")
	h.keys("x", "backspace")
	s := h.waitFor("the empty name marked", func(s string) bool { return strings.Contains(line(s, "name"), "required") })
	if strings.Contains(s, "lower-case letters") {
		t.Errorf("the empty name shows the pattern:\n%s", s)
	}
}
