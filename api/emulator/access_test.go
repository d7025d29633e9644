package emulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"canopy/api"
)

// An identity provider's client secret goes in with the create and never
// comes back; a list leaves the provisioning token's state out; a viewer
// reads providers and may not make one; an editor may not either (it
// manages who comes in, as identities are).
func TestIdentityProviders(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	viewer := e.tokenFor(issuerGoogle, "109283746501928374650") // carol
	editor := e.tokenFor(issuerGoogle, "117730195837465019283") // bob
	body := map[string]any{"name": "test-sso", "defaultRole": builtinRoleUID("viewer"),
		"oidc": map[string]any{"issuer": "https://sso.example.com", "clientId": "c", "clientSecret": "s3cr3t-value"}}
	for _, tok := range []string{viewer, editor} {
		if r := e.call("POST", "/iam/v2/identityProviders/"+e.org, tok, body); r.status != http.StatusForbidden {
			t.Errorf("a create without the capability: %d %s", r.status, r.body)
		}
	}
	r := e.call("POST", "/iam/v2/identityProviders/"+e.org, adminTok, body)
	var made api.IdentityProvider
	e.ok(r, &made)
	if strings.Contains(string(r.body), "s3cr3t") || made.OIDC == nil || made.OIDC.ClientID != "c" {
		t.Errorf("the create answered %s", r.body)
	}
	if g := e.get("/iam/v2/identityProviders/" + made.UID); strings.Contains(string(g.body), "s3cr3t") || g.status != http.StatusOK {
		t.Errorf("get: %d %s", g.status, g.body)
	}
	var list struct{ IdentityProviders []api.IdentityProvider }
	e.ok(e.call("GET", "/iam/v2/identityProviders?uidp.descendants_of="+e.org, viewer, nil), &list)
	names := map[string]api.IdentityProvider{}
	for _, p := range list.IdentityProviders {
		names[p.Name] = p
	}
	okta, ok := names["okta-sso"]
	if !ok || names["test-sso"].UID != made.UID || len(names) != 3 {
		t.Fatalf("listed %v", names)
	}
	if okta.SCIM == nil || !okta.SCIM.Enabled || okta.SCIM.CredentialState != "" {
		t.Errorf("a list shows SCIM %+v, want enabled and no credential state", okta.SCIM)
	}
	var one api.IdentityProvider
	e.ok(e.get("/iam/v2/identityProviders/"+okta.UID), &one)
	if one.SCIM == nil || one.SCIM.CredentialState != "CREDENTIAL_STATE_LIVE" {
		t.Errorf("get shows SCIM %+v", one.SCIM)
	}
	missing := map[string]any{"name": "no-secret", "defaultRole": builtinRoleUID("viewer"),
		"oidc": map[string]any{"issuer": "https://sso.example.com", "clientId": "c"}}
	if r := e.call("POST", "/iam/v2/identityProviders/"+e.org, adminTok, missing); r.status != http.StatusBadRequest ||
		!strings.Contains(string(r.body), "client_secret") {
		t.Errorf("no secret and no PKCE: %d %s", r.status, r.body)
	}
	if r := e.call("DELETE", "/iam/v2/identityProviders/"+made.UID, adminTok, nil); r.status != http.StatusOK {
		t.Errorf("delete: %d %s", r.status, r.body)
	}
}

// An invite's code is answered by its create only; reads describe its role;
// a ttl is seconds with an "s".
func TestGroupInvites(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	r := e.call("POST", "/iam/v2/groupInvites/"+e.org, adminTok,
		map[string]any{"roleUid": builtinRoleUID("viewer"), "ttl": "3600s", "email": "x@acme.example", "singleUse": true})
	var made api.GroupInvite
	e.ok(r, &made)
	if !strings.HasPrefix(made.Code, "cgi_") || made.Role == nil || made.Role.Name != "viewer" ||
		!made.ExpirationTime.Time().Equal(made.CreateTime.Time().Add(3600e9)) {
		t.Errorf("the create answered %s", r.body)
	}
	if g := e.get("/iam/v2/groupInvites/" + made.UID); strings.Contains(string(g.body), made.Code) {
		t.Errorf("a get shows the code: %s", g.body)
	}
	l := e.get("/iam/v2/groupInvites?uidp.descendants_of=" + e.org)
	var list struct{ GroupInvites []json.RawMessage }
	e.ok(l, &list)
	if len(list.GroupInvites) != 4 || strings.Contains(string(l.body), `"code"`) {
		t.Errorf("listed %d invites: %s", len(list.GroupInvites), l.body)
	}
	for _, ttl := range []string{"3600", "-5s", "99999999s", "xs"} {
		r := e.call("POST", "/iam/v2/groupInvites/"+e.org, adminTok, map[string]any{"roleUid": builtinRoleUID("viewer"), "ttl": ttl})
		if r.status != http.StatusBadRequest {
			t.Errorf("ttl %q: %d %s", ttl, r.status, r.body)
		}
	}
}
