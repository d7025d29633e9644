package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"canopy/api"
)

// openProvider opens :providers and the page of the provider whose row is
// the n-th by name (0 the first), read whole.
func openProvider(h *harness, n int, name string) {
	h.waitText("platform")
	typeCommand(h, "providers")
	h.waitText("identity providers of acme.example", "CLIENT ID", " loaded")
	h.keys("g")
	for range n {
		h.keys("j")
	}
	h.keys("enter")
	h.waitText(name, "SCIM PROVISIONING", "token expires")
	h.waitFor("the provider read whole", func(s string) bool { return !strings.Contains(s, "FROM THE SERVER") })
}

var tokenRE = regexp.MustCompile(`cgscim_[0-9a-f]{64}`)

// tokenIs reports whether a provider's page says its token is in state.
func tokenIs(screen, state string) bool {
	return regexp.MustCompile(`(?m)^token +` + state + ` *$`).MatchString(screen)
}

// T on a provider without a SCIM token makes one at once: the page shows
// it once, y copies it without the status line saying it, :changes keeps
// the answer without it, and once the page closes it is gone.
func TestScimTokenShownOnceAndForgotten(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 180, 45)
	_, err := h.m.opts.Client.CreateIdentityProvider(context.Background(), h.srv.OrgUID(), api.NewIdentityProvider{Name: "aaa-scim",
		DefaultRole: h.roleUID(t, "viewer"), OIDC: api.NewOIDCLogin{Issuer: "https://sso.example.com", ClientID: "c", PKCEEnabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	openProvider(h, 0, "aaa-scim")
	h.waitText("not issued", "T scim token")
	before := len(last(reqs, mu)) // the provider's create
	h.keys("T")
	s := h.waitText("SCIM TOKEN: SHOWN ONCE, COPY IT NOW", "generated the SCIM token of aaa-scim: it shows once, on this page")
	token := tokenRE.FindString(s)
	if token == "" || strings.Count(s, token) != 1 {
		t.Fatalf("the token is not shown once:\n%s", s)
	}
	got := last(reqs, mu)[before:]
	if len(got) != 1 || got[0].Method != "POST" || !strings.HasSuffix(got[0].Path, ":generateScimToken") {
		t.Fatalf("requests %+v", got)
	}
	h.waitFor("the page read again: the token live", func(s string) bool { return tokenIs(s, "live") })
	h.keys("y")
	h.waitFor("the token copied", func(string) bool { return strings.Contains(h.clipboard, token) })
	s = h.waitText("copied the SCIM token to the clipboard")
	if strings.Count(s, token) != 1 {
		t.Errorf("the token shows beyond its line:\n%s", s)
	}

	h.keys("esc") // the page closes: nothing keeps the token
	h.waitText("identity providers of acme.example", "CLIENT ID")
	h.keys("enter")
	s = h.waitText("aaa-scim", "SCIM PROVISIONING")
	if strings.Contains(s, token) || strings.Contains(s, "SHOWN ONCE") {
		t.Errorf("the token is back:\n%s", s)
	}
	h.keys("esc")
	typeCommand(h, "changes")
	h.waitText("changes made in this session", `SCIM of identity provider "aaa-scim" · token generated`)
	h.keys("enter")
	s = h.waitText("[redacted]")
	if strings.Contains(s, token) {
		t.Errorf(":changes keeps the token:\n%s", s)
	}
}

// On a provider with a token, T asks first (the old token keeps working
// an hour), then shows the new one; X asks, revokes, and the page forgets
// the token shown; P asks before provisioning goes off, and on again is
// refused with the server's reason.
func TestScimRegenerateRevokeAndSwitchAsk(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 180, 45)
	openProvider(h, 1, "okta-sso") // entra-contractors, then okta-sso
	h.waitText("enabled", "live")
	h.keys("T")
	h.waitText("Regenerate the SCIM token of okta-sso?", ":regenerateScimToken", "keeps working for an hour, then stops")
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent before yes: %+v", got)
	}
	h.keys("y")
	s := h.waitText("SCIM TOKEN: SHOWN ONCE, COPY IT NOW", "old one ends", "regenerated the SCIM token of okta-sso")
	token := tokenRE.FindString(s)
	got := last(reqs, mu)
	if token == "" || len(got) != 1 || got[0].Body["overlap"] != "3600s" || got[0].Body["etag"] == "" {
		t.Fatalf("token %q, requests %+v", token, got)
	}

	h.keys("X")
	h.waitText("Revoke the SCIM token of okta-sso?", "stops working at once", "Provisioning stays on")
	h.keys("y")
	s = h.waitText("revoked the SCIM token of okta-sso")
	h.waitFor("the page read again: revoked", func(s string) bool { return tokenIs(s, "revoked") })
	if s = h.screen(); strings.Contains(s, token) || strings.Contains(s, "SHOWN ONCE") {
		t.Errorf("the revoked token is still shown:\n%s", s)
	}

	h.keys("P")
	h.waitText("Turn SCIM provisioning off for okta-sso?", ":setScimEnabled", `"enabled": false`)
	h.keys("y")
	h.waitText("SCIM provisioning of okta-sso turned off")
	h.waitFor("the page read again: off", func(s string) bool { return strings.Contains(line(s, "enabled"), "no") })
	h.keys("P")
	h.waitText("Turn SCIM provisioning on for okta-sso?")
	h.keys("y")
	h.waitText("1 failed", "two owners")
	got = last(reqs, mu)
	if len(got) != 4 || !strings.HasSuffix(got[1].Path, ":revokeScimToken") || got[2].Body["enabled"] != false || got[3].Body["enabled"] != true {
		t.Errorf("requests %+v", got)
	}
}
