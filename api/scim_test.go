package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
)

// A provider's fields change one mask path at a time: the body carries that
// field alone (an OIDC member under "oidc"); the client secret goes in a
// PATCH but never into the change record, and no read returns it. A public
// client (PKCE) may drop its secret; a confidential one may not.
func TestPatchIdentityProvider(t *testing.T) {
	t.Parallel()
	var changes []api.Change
	e := newEnv(t, emulator.Options{}, api.Options{Observe: func(ch api.Change) { changes = append(changes, ch) }})
	ctx, c := t.Context(), e.client
	p := must(c.FindIdentityProvider(ctx, e.org, "entra-contractors"))(t)
	next := api.UpdateOf(p)
	next.Description, next.OIDC.GroupsClaim, next.OIDC.ClientSecret = "Contractors", "roles", "hunter2-rotated"

	e.rec.reset()
	got := must(c.PatchIdentityProvider(ctx, p.UID, next, api.FieldDescription))(t)
	if r := e.rec.last(t); r.Method != http.MethodPatch || r.Path != "/iam/v2/identityProviders/"+p.UID ||
		r.Query.Get("update_mask") != "description" || string(r.Body) != `{"description":"Contractors"}` {
		t.Fatalf("sent %s %s %s", r.Method, r.URI, r.Body)
	}
	if got.Description != "Contractors" || got.OIDC.GroupsClaim != "groups" || !got.UpdateTime.After(p.UpdateTime) {
		t.Errorf("answered %+v", got)
	}
	got = must(c.PatchIdentityProvider(ctx, p.UID, next, api.FieldOIDCGroupsClaim))(t)
	if r := e.rec.last(t); r.Query.Get("update_mask") != "oidc.groups_claim" || string(r.Body) != `{"oidc":{"groupsClaim":"roles"}}` {
		t.Fatalf("sent %s %s", r.URI, r.Body)
	}
	if got.OIDC.GroupsClaim != "roles" || got.OIDC.Issuer != p.OIDC.Issuer || got.OIDC.CorrelationRule != api.CorrelationObjectID {
		t.Errorf("answered %+v", got.OIDC)
	}
	changes = nil
	must(c.PatchIdentityProvider(ctx, p.UID, next, api.FieldOIDCClientSecret))(t)
	if r := e.rec.last(t); string(r.Body) != `{"oidc":{"clientSecret":"hunter2-rotated"}}` {
		t.Fatalf("sent %s", r.Body)
	}
	if len(changes) != 1 || strings.Contains(string(changes[0].Body), "hunter2") || !strings.Contains(string(changes[0].Body), api.Redacted) {
		t.Errorf("recorded %+v", changes)
	}
	// entra is a confidential client: without PKCE its secret stays.
	next.OIDC.ClientSecret = ""
	if _, err := c.PatchIdentityProvider(ctx, p.UID, next, api.FieldOIDCClientSecret); !api.IsInvalidArgument(err) {
		t.Errorf("clearing a confidential client's secret: %v", err)
	}
	next.OIDC.PKCEEnabled = true
	must(c.PatchIdentityProvider(ctx, p.UID, next, api.FieldOIDCPKCE))(t)
	must(c.PatchIdentityProvider(ctx, p.UID, next, api.FieldOIDCClientSecret))(t)
	if _, err := c.PatchIdentityProvider(ctx, p.UID, api.ProviderUpdate{OIDC: &api.OIDCUpdate{}}, api.FieldOIDCPKCE); !api.IsInvalidArgument(err) {
		t.Errorf("a client with neither secret nor PKCE: %v", err)
	}
	next.Name = "x"
	if _, err := c.PatchIdentityProvider(ctx, p.UID, next, api.FieldName); !api.IsInvalidArgument(err) {
		t.Errorf("a name of 1 character: %v", err)
	}
}

// A provider's SCIM token: made once (the answer says it, no read does),
// refused a second time; regenerated with the provider's SCIM etag, the
// old one working for the overlap asked; revoked; the etag of each answer
// is what the next call names, and a stale one is refused. Provisioning
// turns off, and not on while the organization has one owner.
func TestScimTokenLife(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	made := must(c.CreateIdentityProvider(ctx, e.org, api.NewIdentityProvider{Name: "scim-sso", DefaultRole: viewerRole,
		OIDC: api.NewOIDCLogin{Issuer: "https://sso.example.com", ClientID: "c", PKCEEnabled: true}}))(t)
	p := must(c.GetIdentityProvider(ctx, made.UID))(t)
	if p.SCIM == nil || p.SCIM.CredentialState != api.CredentialNotIssued {
		t.Fatalf("a new provider's SCIM: %+v", p.SCIM)
	}

	e.rec.reset()
	tok := must(c.GenerateScimToken(ctx, p.UID, api.ScimTokenOptions{}))(t)
	r := e.rec.last(t)
	if r.Method != http.MethodPost || r.URI != "/iam/v2/identityProviders/"+p.UID+":generateScimToken" || string(r.Body) != `{}` {
		t.Fatalf("sent %s %s %s", r.Method, r.URI, r.Body)
	}
	if !strings.HasPrefix(tok.Token, "cgscim_") || len(tok.Token) != 7+64 || tok.EndpointURL == "" || tok.Etag == "" ||
		tok.IdentityProviderUID != p.UID || tok.ExpireTime.Sub(api.TimeOf(e.clock.Now())) < 364*24*time.Hour {
		t.Fatalf("answered %+v", tok)
	}
	read := must(c.GetIdentityProvider(ctx, p.UID))(t)
	if b, _ := json.Marshal(read); strings.Contains(string(b), tok.Token) || read.SCIM.CredentialState != api.CredentialLive ||
		read.SCIM.Etag != tok.Etag {
		t.Fatalf("read back %s", b)
	}
	if _, err := c.GenerateScimToken(ctx, p.UID, api.ScimTokenOptions{}); !api.IsFailedPrecondition(err) {
		t.Errorf("a second generate: %v, want FAILED_PRECONDITION", err)
	}

	hour := time.Hour
	if _, err := c.RegenerateScimToken(ctx, p.UID, "stale", &hour, api.ScimTokenOptions{}); api.CodeOf(err) != api.CodeAborted {
		t.Errorf("a regenerate with a stale etag: %v, want ABORTED", err)
	}
	e.rec.reset()
	again := must(c.RegenerateScimToken(ctx, p.UID, tok.Etag, &hour, api.ScimTokenOptions{NeverExpires: true}))(t)
	if r := e.rec.last(t); !strings.HasSuffix(r.Path, ":regenerateScimToken") ||
		string(r.Body) != `{"overlap":"3600s","etag":"`+tok.Etag+`","neverExpires":true}` {
		t.Fatalf("sent %s %s", r.URI, r.Body)
	}
	if again.Token == tok.Token || !again.ExpireTime.IsZero() || again.RequestedOverlap != "3600s" ||
		again.PreviousTokenExpireTime.Sub(api.TimeOf(e.clock.Now())) != time.Hour {
		t.Fatalf("answered %+v", again)
	}
	if s := must(c.GetIdentityProvider(ctx, p.UID))(t).SCIM; s.CredentialState != api.CredentialRotating {
		t.Errorf("during the overlap: %+v", s)
	}
	e.clock.Add(2 * time.Hour)
	if s := must(c.GetIdentityProvider(ctx, p.UID))(t).SCIM; s.CredentialState != api.CredentialLive {
		t.Errorf("after the overlap: %+v", s)
	}

	off := must(c.SetScimEnabled(ctx, p.UID, false, again.Etag))(t)
	if r := e.rec.last(t); !strings.HasSuffix(r.Path, ":setScimEnabled") || string(r.Body) != `{"enabled":false,"etag":"`+again.Etag+`"}` {
		t.Fatalf("sent %s %s", r.URI, r.Body)
	}
	if off.Enabled || off.Etag == again.Etag {
		t.Errorf("answered %+v", off)
	}
	if _, err := c.SetScimEnabled(ctx, p.UID, true, off.Etag); !api.IsFailedPrecondition(err) ||
		len(api.PreconditionViolations(err)) != 1 {
		t.Errorf("on, with one owner: %v, want FAILED_PRECONDITION naming why", err)
	}

	rev := must(c.RevokeScimToken(ctx, p.UID))(t)
	if r := e.rec.last(t); !strings.HasSuffix(r.Path, ":revokeScimToken") || string(r.Body) != `{}` {
		t.Fatalf("sent %s %s", r.URI, r.Body)
	}
	if rev.IdentityProviderUID != p.UID || rev.Enabled || rev.RevokeTime.IsZero() || rev.Etag == off.Etag {
		t.Errorf("answered %+v", rev)
	}
	if s := must(c.GetIdentityProvider(ctx, p.UID))(t).SCIM; s.CredentialState != api.CredentialRevoked {
		t.Errorf("after the revoke: %+v", s)
	}
	// A revoked token is replaced by a regenerate, with no overlap.
	fresh := must(c.RegenerateScimToken(ctx, p.UID, rev.Etag, nil, api.ScimTokenOptions{}))(t)
	if !fresh.PreviousTokenExpireTime.IsZero() {
		t.Errorf("a revoked token kept working: %+v", fresh)
	}
	// The list leaves the token's state out.
	ps := must(c.ListIdentityProviders(ctx, api.ListOptions{ChildrenOf: e.org, Name: "scim-sso"}))(t)
	if len(ps.Items) != 1 || ps.Items[0].SCIM == nil || ps.Items[0].SCIM.CredentialState != "" {
		t.Errorf("listed %+v", ps.Items)
	}
	if got := api.IdentityProviders.Verb(p.UID, api.VerbRevokeScimToken).String(); got != "POST /iam/v2/identityProviders/"+p.UID+":revokeScimToken" {
		t.Errorf("the revoke reads %q", got)
	}
}

// A SCIM token is a secret: the record of the answer that said it keeps
// the rest, not the token.
func TestRecordedAnswerKeepsNoScimToken(t *testing.T) {
	t.Parallel()
	got, err := api.Recorded(&api.ScimToken{Token: "cgscim_0123456789abcdef", EndpointURL: "https://scim.example.com/x"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "cgscim_") || !strings.Contains(string(got), api.Redacted) || !strings.Contains(string(got), "scim.example.com") {
		t.Errorf("recorded %s", got)
	}
}
