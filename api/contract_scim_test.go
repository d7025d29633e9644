package api_test

import (
	"time"

	"canopy/api"
)

// driveScim makes a provider, changes each of its updatable fields, takes
// it through its SCIM token's life (generate, regenerate twice, switch,
// revoke) and deletes it. A refusal counts: what was sent is checked.
func driveScim(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	roles := must(c.ListRoles(ctx, api.ListOptions{PageSize: api.MaxPageSize}))(t)
	ck.done("ListRoles", len(roles.Items))
	viewer := pick(t, roles.Items, func(r api.Role) bool { return r.Name == "viewer" })
	editor := pick(t, roles.Items, func(r api.Role) bool { return r.Name == "editor" })
	p := must(c.CreateIdentityProvider(ctx, org, api.NewIdentityProvider{Name: "contract-scim", DefaultRole: viewer.UID,
		OIDC: api.NewOIDCLogin{Issuer: "https://sso.example.com", ClientID: "client", ClientSecret: "secret"}}))(t)
	ck.done("CreateIdentityProvider", -1)

	next := api.UpdateOf(p)
	next.Name, next.Description, next.DefaultRole = "contract-scim-2", "checked", editor.UID
	next.OIDC = &api.OIDCUpdate{Issuer: "https://sso2.example.com", ClientID: "client-2", ClientSecret: "secret-2",
		AdditionalScopes: []string{"groups"}, GroupsClaim: "groups", PKCEEnabled: true}
	for _, m := range api.ProviderFields() {
		must(c.PatchIdentityProvider(ctx, p.UID, next, m))(t)
		ck.done("PatchIdentityProvider", -1)
	}

	// The server's clock, not this machine's: how long a token lasts is
	// checked against it.
	later := api.TimeOf(p.CreateTime.Time().Add(30 * 24 * time.Hour))
	_, err := c.GenerateScimToken(ctx, p.UID, api.ScimTokenOptions{ExpireTime: later, NeverExpires: true})
	ck.answered("GenerateScimToken", err)
	tok := must(c.GenerateScimToken(ctx, p.UID, api.ScimTokenOptions{}))(t)
	ck.done("GenerateScimToken", -1)
	none := time.Duration(0)
	again := must(c.RegenerateScimToken(ctx, p.UID, tok.Etag, &none, api.ScimTokenOptions{ExpireTime: later}))(t)
	ck.done("RegenerateScimToken", -1)
	again2 := must(c.RegenerateScimToken(ctx, p.UID, again.Etag, nil, api.ScimTokenOptions{NeverExpires: true}))(t)
	ck.done("RegenerateScimToken", -1)
	off := must(c.SetScimEnabled(ctx, p.UID, false, again2.Etag))(t)
	ck.done("SetScimEnabled", -1)
	_, err = c.SetScimEnabled(ctx, p.UID, true, off.Etag)
	ck.answered("SetScimEnabled", err)
	must(c.RevokeScimToken(ctx, p.UID))(t)
	ck.done("RevokeScimToken", -1)

	must(0, c.DeleteIdentityProvider(ctx, p.UID))(t)
	ck.done("DeleteIdentityProvider", -1)
}
