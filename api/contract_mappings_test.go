package api_test

import (
	"canopy/api"
)

// driveMappings makes every call of external group role mappings.
func driveMappings(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	providers := must(c.ListIdentityProviders(ctx, api.ListOptions{DescendantsOf: org, Name: "okta-sso"}))(t)
	ck.done("ListIdentityProviders", len(providers.Items))
	okta := pick(t, providers.Items, func(p api.IdentityProvider) bool { return p.Name == "okta-sso" })
	roles := must(c.ListRoles(ctx, api.ListOptions{PageSize: api.MaxPageSize}))(t)
	ck.done("ListRoles", len(roles.Items))
	viewer := pick(t, roles.Items, func(r api.Role) bool { return r.Name == "viewer" })

	m := must(c.CreateExternalGroupRoleMapping(ctx, okta.UID, api.NewExternalGroupRoleMapping{ExternalGroupID: "contract-group",
		RoleUID: viewer.UID, Scope: org}))(t)
	ck.done("CreateExternalGroupRoleMapping", -1)
	lists(ck, "ListExternalGroupRoleMappings", c.ListExternalGroupRoleMappings,
		append(hierarchy(org), api.ListOptions{IdentityProvider: okta.UID})...)
	must(c.GetExternalGroupRoleMapping(ctx, m.UID))(t)
	ck.done("GetExternalGroupRoleMapping", -1)
	must(0, c.DeleteExternalGroupRoleMapping(ctx, m.UID))(t)
	ck.done("DeleteExternalGroupRoleMapping", -1)
	must(c.BatchDeleteExternalGroupRoleMappings(ctx, okta.UID, []string{m.UID}))(t)
	ck.done("BatchDeleteExternalGroupRoleMappings", -1)
}
