package api_test

import (
	"canopy/api"
)

// driveRoleBindingChanges binds two identities in one batch on a folder,
// changes one binding's role in place, finds them again as after a lost
// answer, and deletes them.
func driveRoleBindingChanges(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	groups := must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: org, Name: "security"}))(t)
	ck.done("ListGroups", len(groups.Items))
	security := pick(t, groups.Items, func(g api.Group) bool { return g.Name == "security" })
	ids := must(c.ListIdentities(ctx, api.ListOptions{DescendantsOf: org, PageSize: api.MaxPageSize}))(t)
	ck.done("ListIdentities", len(ids.Items))
	alice := pick(t, ids.Items, func(id api.Identity) bool { return id.Name == "alice" })
	bob := pick(t, ids.Items, func(id api.Identity) bool { return id.Name == "bob" })
	roles := must(c.ListRoles(ctx, api.ListOptions{PageSize: api.MaxPageSize}))(t)
	ck.done("ListRoles", len(roles.Items))
	editor := pick(t, roles.Items, func(r api.Role) bool { return r.Name == "editor" })

	made := must(c.BatchCreateRoleBindings(ctx, security.UID, viewerRole, []string{alice.UID, bob.UID}))(t)
	ck.done("BatchCreateRoleBindings", -1)
	if len(made.RoleBindings) != 2 {
		t.Fatalf("the batch made %d bindings, want 2", len(made.RoleBindings))
	}
	must(c.FindRoleBindings(ctx, security.UID, viewerRole, []string{alice.UID, bob.UID}))(t)
	ck.done("ListRoleBindings", -1)
	must(c.PatchRoleBinding(ctx, made.RoleBindings[0].UID, editor.UID))(t)
	ck.done("PatchRoleBinding", -1)
	for _, b := range made.RoleBindings {
		must(0, c.DeleteRoleBinding(ctx, b.UID))(t)
		ck.done("DeleteRoleBinding", -1)
	}
}
