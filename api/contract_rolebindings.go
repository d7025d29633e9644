package api

import "net/http"

// Routes of role bindings changed in place and made in batches
// (rolebindings.go).

// roleBindingChangeRoutes are the calls of rolebindings.go.
func roleBindingChangeRoutes() []Route {
	updates := func() []Update { return plainUpdates(FieldRoleUID) }
	return []Route{
		// The role alone changes: the uid is the path's, the rest is the
		// service's.
		{Call: "PatchRoleBinding", Service: svcRoleBindings, RPC: "UpdateRoleBinding", Method: http.MethodPatch,
			Path: bindingsPath + "/{role_binding.uid=**}", Body: "role_binding", Query: []string{maskQuery},
			Sends: sends(updates()), Updates: updates(), Reads: bindingFields()},
		// A custom method of the collection: the body is the whole request,
		// each binding a create's request (read whole) under one parent.
		{Call: "BatchCreateRoleBindings", Service: svcRoleBindings, RPC: "BatchCreateRoleBindings", Method: http.MethodPost,
			Path: string(RoleBindings.BatchCreate().Path), Body: "*", Sends: []string{"parent", "requests"},
			Reads: under("roleBindings", bindingFields()...)},
	}
}
