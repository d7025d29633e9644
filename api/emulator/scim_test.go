package emulator

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

// SCIM methods are verbs after a provider's uid, POSTed: another method or
// verb is refused, and the uid before the verb is the provider's. Only an
// owner manages SCIM; a body naming another provider is refused.
func TestScimRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	okta := "/iam/v2/identityProviders/" + e.providerUID("okta-sso")
	wantErr(t, e.call("GET", okta+":revokeScimToken", adminTok, nil), http.StatusNotImplemented, api.CodeUnimplemented)
	wantNoRoute(t, e.call("POST", okta+":mintScimToken", adminTok, map[string]any{}))
	wantErr(t, e.call("POST", "/iam/v2/identityProviders/"+e.org+"/0123456789abcdef:revokeScimToken", adminTok, map[string]any{}),
		http.StatusNotFound, api.CodeNotFound)
	editor := e.tokenFor(issuerGoogle, "117730195837465019283") // bob
	wantErr(t, e.call("POST", okta+":revokeScimToken", editor, map[string]any{}), http.StatusForbidden, api.CodePermissionDenied)
	s := wantErr(t, e.call("POST", okta+":revokeScimToken", adminTok, map[string]any{"identityProviderUid": e.org}),
		http.StatusBadRequest, api.CodeInvalidArgument)
	if f := fieldOf(t, s); f != "identity_provider_uid" {
		t.Errorf("refused on %s", f)
	}
	// A GET of the uid alone is the provider.
	e.ok(e.get(okta), nil)
}

// The token is answered once: no read carries it, and the provider's
// reads say its state from its times (rotating during the overlap,
// expired after its end); the etag of each change is the next one's; a
// generate on a provider that had a token, a regenerate on one that never
// did, both expiry and never, and a stale etag are refused.
func TestScimTokenStates(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	entra := "/iam/v2/identityProviders/" + e.providerUID("entra-contractors")
	read := func() api.ProviderSCIM {
		var p api.IdentityProvider
		e.ok(e.get(entra), &p)
		return *p.SCIM
	}
	if s := read(); s.CredentialState != api.CredentialExpired || s.Enabled {
		t.Fatalf("seeded %+v", s)
	}
	wantErr(t, e.call("POST", entra+":generateScimToken", adminTok, map[string]any{}), http.StatusBadRequest, api.CodeFailedPrecondition)
	wantErr(t, e.call("POST", entra+":regenerateScimToken", adminTok, map[string]any{}), http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("POST", entra+":regenerateScimToken", adminTok, map[string]any{"etag": "old"}), http.StatusConflict, api.CodeAborted)
	etag := read().Etag
	wantErr(t, e.call("POST", entra+":regenerateScimToken", adminTok, map[string]any{"etag": etag, "neverExpires": true,
		"expireTime": e.clock.Now().Add(time.Hour)}), http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("POST", entra+":regenerateScimToken", adminTok, map[string]any{"etag": etag,
		"expireTime": e.clock.Now().Add(3 * 365 * 24 * time.Hour)}), http.StatusBadRequest, api.CodeInvalidArgument)

	// The expired token is dead: no overlap, whatever is asked.
	var tok api.RegeneratedScimToken
	r := e.call("POST", entra+":regenerateScimToken", adminTok, map[string]any{"etag": etag, "overlap": "7200s",
		"expireTime": e.clock.Now().Add(48 * time.Hour)})
	e.ok(r, &tok)
	if !tok.PreviousTokenExpireTime.IsZero() || tok.RequestedOverlap != "7200s" || !strings.HasPrefix(tok.Token, "cgscim_") {
		t.Fatalf("answered %s", r.body)
	}
	if g := e.get(entra); strings.Contains(string(g.body), tok.Token) {
		t.Fatalf("a read says the token: %s", g.body)
	}
	// A live one works on for the overlap asked, at most a day.
	r = e.call("POST", entra+":regenerateScimToken", adminTok, map[string]any{"etag": tok.Etag, "overlap": "172800s"})
	var next api.RegeneratedScimToken
	e.ok(r, &next)
	if got := next.PreviousTokenExpireTime.Sub(api.TimeOf(e.clock.Now())); got != 24*time.Hour {
		t.Errorf("the old token works %v more, want a day: the most an overlap is", got)
	}
	if s := read(); s.CredentialState != api.CredentialRotating || s.Etag != next.Etag {
		t.Errorf("during the overlap: %+v", s)
	}
	e.clock.Add(49 * time.Hour)
	if s := read(); s.CredentialState != api.CredentialLive {
		t.Errorf("after the overlap: %+v", s)
	}
	e.clock.Add(366 * 24 * time.Hour)
	if s := read(); s.CredentialState != api.CredentialExpired {
		t.Errorf("after a year: %+v", s)
	}
	var rev api.ScimRevoked
	e.ok(e.call("POST", entra+":revokeScimToken", adminTok, map[string]any{}), &rev)
	e.ok(e.call("POST", entra+":revokeScimToken", adminTok, map[string]any{}), nil) // again: still dead
	if s := read(); s.CredentialState != api.CredentialRevoked {
		t.Errorf("after the revoke: %+v", s)
	}
}

// Provisioning turns on with two owners bound by hand, not with one, and
// names the etag as read; a revoke leaves the switch as it was.
func TestScimSwitch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	entra := "/iam/v2/identityProviders/" + e.providerUID("entra-contractors")
	etag := func() string {
		var p api.IdentityProvider
		e.ok(e.get(entra), &p)
		return p.SCIM.Etag
	}
	s := wantErr(t, e.call("POST", entra+":setScimEnabled", adminTok, map[string]any{"enabled": true, "etag": etag()}),
		http.StatusBadRequest, api.CodeFailedPrecondition)
	if v := (&api.Error{Status: s}).PreconditionViolations(); len(v) != 1 || v[0].Subject != e.org {
		t.Errorf("the refusal says %+v", v)
	}
	wantErr(t, e.call("POST", entra+":setScimEnabled", adminTok, map[string]any{"etag": etag()}), http.StatusBadRequest, api.CodeInvalidArgument)
	e.ok(e.call("POST", "/iam/v2/roleBindings/"+e.org, adminTok, map[string]any{"identityUid": e.identityUID("bob"),
		"roleUid": builtinRoleUID("owner")}), nil)
	var on api.ScimSwitched
	e.ok(e.call("POST", entra+":setScimEnabled", adminTok, map[string]any{"enabled": true, "etag": etag()}), &on)
	if !on.Enabled || on.Etag != etag() {
		t.Errorf("answered %+v", on)
	}
	var rev api.ScimRevoked
	e.ok(e.call("POST", entra+":revokeScimToken", adminTok, map[string]any{}), &rev)
	if !rev.Enabled {
		t.Errorf("a revoke turned provisioning off: %+v", rev)
	}
}

// A provider's update: the whole login, or a member; the correlation rule
// may be restated, not changed; the SCIM state and the server's fields
// are not the body's to set (a read sent back is fine).
func TestProviderPatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	entra := "/iam/v2/identityProviders/" + e.providerUID("entra-contractors")
	var p api.IdentityProvider
	e.ok(e.get(entra), &p)
	// A read sent back whole, with a new description: the rest stays.
	p.Description = "changed"
	var got api.IdentityProvider
	e.ok(e.call("PATCH", entra, adminTok, p), &got)
	if got.Description != "changed" || got.OIDC.CorrelationRule != api.CorrelationObjectID || got.SCIM.Etag != p.SCIM.Etag {
		t.Fatalf("answered %+v", got)
	}
	s := wantErr(t, e.call("PATCH", entra+"?update_mask=oidc.correlation_rule", adminTok,
		map[string]any{"oidc": map[string]any{"correlationRule": api.CorrelationSubject}}), http.StatusBadRequest, api.CodeInvalidArgument)
	if f := fieldOf(t, s); !strings.HasSuffix(f, "correlation_rule") {
		t.Errorf("refused on %s", f)
	}
	var whole api.IdentityProvider
	e.ok(e.call("PATCH", entra+"?update_mask=oidc", adminTok, map[string]any{"oidc": map[string]any{"issuer": "https://login.example.com",
		"clientId": "x", "correlationRule": api.CorrelationObjectID}}), &whole)
	if got := whole; got.OIDC.Issuer != "https://login.example.com" || got.OIDC.GroupsClaim != "" || got.OIDC.CorrelationRule != api.CorrelationObjectID {
		t.Errorf("the whole login: %+v", got.OIDC)
	}
	for _, mask := range []string{"scim", "uid", "update_time", "oidc.nope", "clientId"} {
		wantErr(t, e.call("PATCH", entra+"?update_mask="+mask, adminTok, map[string]any{}), http.StatusBadRequest, api.CodeInvalidArgument)
	}
	wantErr(t, e.call("PATCH", entra+"?update_mask=default_role", adminTok, map[string]any{"defaultRole": "nope"}),
		http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("PATCH", entra+"?update_mask=oidc.issuer", adminTok, map[string]any{"oidc": map[string]any{"issuer": "http://x"}}),
		http.StatusBadRequest, api.CodeInvalidArgument)
	editor := e.tokenFor(issuerGoogle, "117730195837465019283") // bob
	wantErr(t, e.call("PATCH", entra+"?update_mask=description", editor, map[string]any{"description": "x"}),
		http.StatusForbidden, api.CodePermissionDenied)
}
