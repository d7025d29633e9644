package ui

import (
	"strings"
	"testing"
)

// Identity providers are a kind like any other: listed by `:providers`,
// opened as a page, created (the secret never shown nor recorded), and
// deleted after the dialog.
func TestIdentityProvidersListShowCreateDelete(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 150, 40)
	h.waitText("platform")
	h.typeText(":providers")
	h.keys("enter")
	h.waitText("identity providers of acme.example", "okta-sso", "entra-contractors", "1 of 2")
	h.keys("enter") // the first, by name
	// The page reads the provider whole (a list leaves the token's state
	// out) and names its default role.
	h.waitText("OIDC LOGIN", "issuer", "client id", "SCIM PROVISIONING", "default role  viewer", "token")
	if s := h.screen(); strings.Contains(s, "FROM THE SERVER") || !strings.Contains(line(s, "token expires"), " ago (") {
		t.Errorf("the page does not show the provider as read whole:\n%s", s)
	}
	h.keys("esc")
	h.waitText("CLIENT ID", "1 of 2")

	h.keys("n")
	h.waitText("New identity provider in acme.example", "POST /iam/v2/identityProviders/")
	h.typeText("corp-sso")
	h.keys("tab", "tab", "tab") // description, default role (viewer): to the issuer
	h.typeText("https://login.corp.example")
	h.keys("tab")
	h.typeText("canopy-cli")
	h.keys("enter")
	// Neither a secret nor pkce: refused beside the secret, nothing sent.
	h.waitText("a client secret, or pkce for a public client")
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent %+v", got)
	}
	h.typeText("s3cr3t-value") // the refused field has the cursor
	if strings.Contains(h.screen(), "s3cr3t") {
		t.Fatalf("the secret shows:\n%s", h.screen())
	}
	h.keys("enter")
	h.waitText(`created identity provider "corp-sso" in acme.example`)
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Method != "POST" || got[0].Body["defaultRole"] == "viewer" || got[0].Body["defaultRole"] == "" {
		t.Fatalf("request %+v: want the viewer role's uid as the default role", got)
	}
	if oidc, _ := got[0].Body["oidc"].(map[string]any); oidc["clientSecret"] != "s3cr3t-value" || oidc["issuer"] != "https://login.corp.example" {
		t.Fatalf("oidc sent %+v", got[0].Body["oidc"])
	}
	h.waitText("CLIENT ID", "corp-sso", "1 of 3") // the cursor on the new one

	// :changes shows the body without the secret.
	h.typeText(":changes")
	h.keys("enter")
	h.waitText("new identity provider")
	h.keys("enter")
	s := h.waitText("[redacted]")
	if strings.Contains(s, "s3cr3t") {
		t.Fatalf("the change log shows the secret:\n%s", s)
	}
	// Its curl, copied, says the secret must be put back.
	h.keys("y")
	h.waitFor("the curl copied", func(string) bool { return strings.Contains(h.clipboard, "curl") })
	h.waitText("put it back")
	h.keys("esc")
	h.waitText("WHEN", "REQUEST", "1 of 1")
	h.keys("esc") // :changes took the place of :providers (as in k9s)
	h.waitText("details: acme.example")
	h.typeText(":providers")
	h.keys("enter")
	h.waitText("CLIENT ID", "corp-sso", "1 of 3") // first by name
	h.keys("d")
	h.waitText("Delete identity provider corp-sso?", "Sign-ins through corp-sso stop")
	h.keys("y")
	h.waitText("deleted identity provider corp-sso") // one delete closes its dialog
	h.waitFor("corp-sso gone from the rows", func(s string) bool { return !strings.Contains(tableBody(s), "corp-sso") })
	if got := last(reqs, mu); len(got) != 2 || got[1].Method != "DELETE" || !strings.Contains(got[1].Path, "/iam/v2/identityProviders/") {
		t.Fatalf("requests %+v", got)
	}
}

// A new invite's page opens with its code, said once: y copies it.
func TestInviteCreateShowsItsCodeOnce(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 150, 40)
	h.waitText("platform")
	h.typeText(":invites")
	h.keys("enter")
	h.waitText("invites of acme.example", "ROLE", "FOR", "EXPIRES")
	h.keys("n")
	h.waitText("New invite: to which folder?", "acme.example (organization)")
	h.keys("enter") // the organization, first
	h.waitText("New invite in acme.example", "POST /iam/v2/groupInvites/")
	h.keys("tab")
	h.typeText("ana@example.com")
	h.keys("enter")
	h.waitText("CODE: SHOWN ONCE, COPY IT NOW", "invite: viewer for ana@example.com")
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Body["ttl"] != "604800s" || got[0].Body["singleUse"] != true || got[0].Body["email"] != "ana@example.com" {
		t.Fatalf("request %+v", got)
	}
	h.waitText(`created invite "viewer for ana@example.com" in acme.example`)
	h.keys("y")
	h.waitFor("the code copied", func(string) bool { return h.clipboard != "" })
	code := strings.TrimSpace(h.clipboard)
	if code == "" || !strings.Contains(h.screen(), code) {
		t.Fatalf("copied %q, not the code shown:\n%s", h.clipboard, h.screen())
	}
	// The status line says it was copied, not what it is.
	if s := h.waitText("copied the invite code to the clipboard"); strings.Count(s, code) != 1 {
		t.Errorf("the code shows beyond its field:\n%s", s)
	}
	h.keys("esc")
	s := h.waitText("EXPIRES", "ana@example.com", "of 4 · 4/4 loaded") // its row: where its uid sorts
	if strings.Contains(s, code) {
		t.Errorf("the table shows the code:\n%s", s)
	}
	// The cursor is on the new invite; its page, read from the list, has
	// no code: the server says it once.
	h.keys("enter")
	s = h.waitText("invite: viewer for ana@example.com", "key id")
	if strings.Contains(s, "CODE") || strings.Contains(s, code) {
		t.Errorf("the page of a listed invite shows a code:\n%s", s)
	}
	// Nor does the change log keep it.
	h.typeText(":changes")
	h.keys("enter")
	h.waitText("new invite")
	h.keys("enter")
	s = h.waitText("response", "[redacted]")
	if strings.Contains(s, code) {
		t.Errorf("the change log shows the code:\n%s", s)
	}
}

// How long an invite lasts is read in days, hours or minutes, and a
// number too large for a duration is refused, not wrapped around.
func TestInviteDurations(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"7d": "168h0m0s", "12h": "12h0m0s", "30m": "30m0s",
		"213504d": "at most 36500 days", "9999999999999999999d": "at most 36500 days", "876001h": "at most 36500 days",
		"0d": "how long: 7d, 12h, 30m", "1.5d": "how long: 7d, 12h, 30m", "x": "how long: 7d, 12h, 30m"} {
		d, err := duration(in)
		got := d.String()
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("duration(%q) = %s, want %s", in, got, want)
		}
	}
}
