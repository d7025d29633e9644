package api_test

import (
	"canopy/api"
)

// driveRoles makes every call of custom roles, written: a create, an
// update by each mask path, a delete.
func driveRoles(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	r := must(c.CreateRole(ctx, org, api.NewRole{Name: "contract", Description: "checked",
		Capabilities: []string{"CAP_REPO_LIST", "CAP_TAG_LIST"}}))(t)
	ck.done("CreateRole", -1)
	r.Name, r.Description, r.Capabilities = "contract-renamed", "checked again", []string{"CAP_IAM_IDENTITY_LIST"}
	for _, m := range api.RoleUpdates() {
		r = must(c.UpdateRole(ctx, *r, m))(t)
		ck.done("UpdateRole", -1)
	}
	must(0, c.DeleteRole(ctx, r.UID))(t)
	ck.done("DeleteRole", -1)
}
