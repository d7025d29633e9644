package api_test

import (
	"time"

	"canopy/api"
)

// driveAccess makes every call of identity providers and group invites.
func driveAccess(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	roles := must(c.ListRoles(ctx, api.ListOptions{PageSize: api.MaxPageSize}))(t)
	ck.done("ListRoles", len(roles.Items))
	viewer := pick(t, roles.Items, func(r api.Role) bool { return r.Name == "viewer" })

	p := must(c.CreateIdentityProvider(ctx, org, api.NewIdentityProvider{Name: "contract-sso", Description: "checked",
		DefaultRole: viewer.UID, OIDC: api.NewOIDCLogin{Issuer: "https://sso.example.com", ClientID: "client",
			ClientSecret: "secret", AdditionalScopes: []string{"groups"}, GroupsClaim: "groups", PKCEEnabled: true}}))(t)
	ck.done("CreateIdentityProvider", -1)
	lists(ck, "ListIdentityProviders", c.ListIdentityProviders, append(hierarchy(org), api.ListOptions{Name: "okta-sso"})...)
	must(c.GetIdentityProvider(ctx, p.UID))(t)
	ck.done("GetIdentityProvider", -1)
	must(0, c.DeleteIdentityProvider(ctx, p.UID))(t)
	ck.done("DeleteIdentityProvider", -1)

	in := must(c.CreateGroupInvite(ctx, org, api.NewGroupInvite{RoleUID: viewer.UID, Email: "new@acme.example",
		TTL: api.Duration(48 * time.Hour), SingleUse: true}))(t)
	ck.done("CreateGroupInvite", -1)
	lists(ck, "ListGroupInvites", c.ListGroupInvites, hierarchy(org)...)
	must(c.GetGroupInvite(ctx, in.UID))(t)
	ck.done("GetGroupInvite", -1)
	must(0, c.DeleteGroupInvite(ctx, in.UID))(t)
	ck.done("DeleteGroupInvite", -1)
}
