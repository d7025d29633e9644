package ui

import (
	"regexp"
	"strings"
	"testing"
)

// TestBindingsTableSaysWhyAndReloadsAfterABind: on :bindings, b says why
// not and e asks for the row's new role; n binds (identity, role, folder)
// and the table lists the new binding without r.
func TestBindingsTableSaysWhyAndReloadsAfterABind(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 150, 40)
	h.waitText("platform")
	typeCommand(h, "bindings")
	h.waitText("role bindings of acme.example", " loaded")
	h.keys("b")
	h.waitText("b binds from an identity, a folder or a role")
	h.keys("e")
	h.waitText("instead of") // its role picker: esc leaves it as it was
	h.keys("esc")
	h.waitText("role bindings of acme.example", " loaded")
	h.keys("j", "j", "j") // the cursor away from where the new binding goes
	h.keys("n")
	h.waitText("Bind which identity?")
	for _, r := range "carol" {
		h.keys(string(r))
	}
	h.waitText("filter: carol")
	h.keys("enter")
	h.waitText("Which role for carol?")
	h.keys("2")
	h.waitText("Bind editor to carol on which folder?")
	h.keys("enter")
	h.waitText("Bind editor to carol on acme.example")
	h.keys("enter")
	h.waitText("bound editor → carol on acme.example")
	h.waitFor("the new binding listed", func(s string) bool {
		return regexp.MustCompile(`(?m)^ carol +editor +acme\.example`).MatchString(s)
	})
	// The cursor is on it.
	h.waitFor("the cursor on the new binding", func(string) bool {
		return regexp.MustCompile(`^ carol +editor +acme\.example`).MatchString(h.selected())
	})
}

// TestChangesShowWhatChangedAndOpenInFull: :changes shows the request
// short (method, short path, mask), what it changed (resource, field,
// old → new) and the result; enter opens the whole change.
func TestChangesShowWhatChangedAndOpenInFull(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 200, 40)
	h.waitText("platform")
	typeCommand(h, "repos")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("e", "!", "enter")
	h.waitText("description of alertmanager changed")
	typeCommand(h, "changes")
	s := h.waitText("changes made in this session", "ok (")
	row := line(s, "PATCH")
	for _, want := range []string{"PATCH /registry/v2/repos/…/",
		`repo "alertmanager" · description · "Prometheus Alertmanager." → "Prometheus Alertmanager.!"`, "ok ("} {
		if !strings.Contains(row, want) {
			t.Errorf("the row lacks %q:\n%s", want, s)
		}
	}
	h.keys("enter")
	s = h.waitText("change 1: PATCH", "request", "body", "response", "curl")
	if !strings.Contains(s, `"description": "Prometheus Alertmanager.!"`) || !strings.Contains(s, "$CANOPY_TOKEN") ||
		strings.Contains(s, "test-admin-token") {
		t.Errorf("the change in full:\n%s", s)
	}
	h.keys("y")
	h.waitText("copied curl command")
	h.keys("esc")
	h.waitText("WHAT", "RESULT")
}

// TestFormsCheckTheServersRulesAsTyped: an identity's issuer must be an
// https URL and a folder's name at most 63 characters, said as typed.
func TestFormsCheckTheServersRulesAsTyped(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 40)
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("n")
	h.waitText("New identity in acme.example")
	h.keys("x", "tab", "tab")
	for _, r := range "http://issuer.example" {
		h.keys(string(r))
	}
	s := h.waitText("the token issuer's URL: an https:// URL with a host")
	if !strings.Contains(line(s, "issuer"), "https://") {
		t.Errorf("the reason is not beside the issuer:\n%s", s)
	}
	h.keys("enter")
	h.waitText("fix the fields marked first")
	h.keys("esc")
	h.waitFor("the tree", func(s string) bool { return strings.Contains(s, "details: identities of acme.example") })
	if s := h.screen(); strings.Contains(s, "fix the fields marked first") {
		t.Errorf("the form's error outlived it:\n%s", s)
	}
	h.keys("g")
	h.waitText("details: acme.example")
	h.keys("n")
	h.waitText("New folder in acme.example")
	for range 64 {
		h.keys("a")
	}
	// The 64th is refused as it is typed, and said: the name is never
	// too long.
	s = h.waitText("at most 63 characters: the rest was not typed")
	if strings.Contains(s, strings.Repeat("a", 64)) || !strings.Contains(s, strings.Repeat("a", 63)) {
		t.Errorf("the name does not hold 63 characters:\n%s", s)
	}
	h.keys("backspace")
	h.waitFor("62 is fine", func(s string) bool { return !strings.Contains(s, "at most 63") })
	if got := last(reqs, mu); len(got) != 0 {
		t.Errorf("sent %+v", got)
	}
}
