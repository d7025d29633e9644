package api

import "net/http"

// Routes of custom roles, written (roles.go); ListRoles and GetRole are
// IAM's (contract_iam.go).

// roleRoutes are the calls of roles.go.
func roleRoutes() []Route {
	updates := func() []Update { return plainUpdates(RoleUpdates()...) }
	// The capabilities a role is made or changed with are the catalogue's.
	caps := func() []Enum {
		names := make([]string, 0, 160)
		for _, c := range Capabilities() {
			names = append(names, c.Name)
		}
		return []Enum{{In: InBody, Field: JSONName(FieldCapabilities), Values: names}}
	}
	return []Route{
		// The parent folder is the route's; the service sets the uid and
		// the times.
		{Call: "CreateRole", Service: svcRoles, RPC: "CreateRole", Method: http.MethodPost, Path: rolesPath + varParent,
			Body: "role", Sends: []string{"name", "description", "capabilities"}, Reads: roleFields(), Enums: caps()},
		// One field at a time, the capabilities replaced whole; never "*".
		{Call: "UpdateRole", Service: svcRoles, RPC: "UpdateRole", Method: http.MethodPatch,
			Path: rolesPath + "/{role.uid=**}", Body: "role", Query: []string{maskQuery},
			Sends: sends(updates()), Updates: updates(), Reads: roleFields(), Enums: caps()},
		{Call: "DeleteRole", Service: svcRoles, RPC: "DeleteRole", Method: http.MethodDelete, Path: rolesPath + varUID},
	}
}
