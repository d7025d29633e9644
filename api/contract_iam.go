package api

import "net/http"

// Routes of IAM: groups, identities, roles and role bindings.

// iamRoutes are the calls of iam.go.
func iamRoutes() []Route {
	// Each route gets slices of its own, so that changing one changes no other.
	groupUpdates := func() []Update { return plainUpdates(FieldName, FieldDescription) }
	idUpdates := plainUpdates(FieldName, FieldDescription, FieldClaimMatch)
	for _, m := range claimMembers() {
		idUpdates = append(idUpdates, Update{Mask: ClaimMatchField(m), JSON: JSONName(FieldClaimMatch) + "." + JSONName(m)})
	}
	// Lists of resources in groups: the hierarchy filter, a name, paging.
	named := func() []string { return joined(uidpQuery(), []string{"name"}, pageQuery()) }
	return []Route{
		{Call: "ListGroups", Service: svcGroups, RPC: "ListGroups", Method: http.MethodGet, Path: groupsPath,
			Query: named(), ListKey: "groups", Page: pageKeys(), Reads: groupFields()},
		{Call: "GetGroup", Service: svcGroups, RPC: "GetGroup", Method: http.MethodGet, Path: groupsPath + varUID,
			Reads: groupFields()},
		{Call: "CreateGroup", Service: svcGroups, RPC: "CreateGroup", Method: http.MethodPost, Path: groupsPath + varParent,
			Body: "group", Sends: []string{"name", "description"}, Reads: groupFields()},
		{Call: "PatchGroup", Service: svcGroups, RPC: "UpdateGroup", Method: http.MethodPatch,
			Path: groupsPath + "/{group.uid=**}", Body: "group", Query: []string{maskQuery},
			Sends: sends(groupUpdates()), Replace: true, Updates: groupUpdates(), Reads: groupFields()},
		{Call: "DeleteGroup", Service: svcGroups, RPC: "DeleteGroup", Method: http.MethodDelete, Path: groupsPath + varUID},

		{Call: "ListIdentities", Service: svcIdentities, RPC: "ListIdentities", Method: http.MethodGet, Path: identitiesPath,
			Query: named(), ListKey: "identities", Page: pageKeys(), Reads: identityFields()},
		{Call: "GetIdentity", Service: svcIdentities, RPC: "GetIdentity", Method: http.MethodGet,
			Path: identitiesPath + varUID, Reads: identityFields()},
		// A create carries a name, a description and a claim match: the
		// only way of assuming an identity the client sets up.
		{Call: "CreateIdentity", Service: svcIdentities, RPC: "CreateIdentity", Method: http.MethodPost,
			Path: identitiesPath + varParent, Body: "identity",
			Sends: joined([]string{"name", "description"}, claimMatchJSON()), Reads: identityFields()},
		{Call: "PatchIdentity", Service: svcIdentities, RPC: "UpdateIdentity", Method: http.MethodPatch,
			Path: identitiesPath + "/{identity.uid=**}", Body: "identity", Query: []string{maskQuery},
			Sends: joined([]string{"name", "description"}, claimMatchJSON()), Replace: true, Updates: idUpdates,
			Reads: identityFields()},
		{Call: "DeleteIdentity", Service: svcIdentities, RPC: "DeleteIdentity", Method: http.MethodDelete,
			Path: identitiesPath + varUID},

		// RolesOf lists roles through ListRoles, with and without a filter.
		{Call: "ListRoles", Service: svcRoles, RPC: "ListRoles", Method: http.MethodGet, Path: rolesPath,
			Query: named(), ListKey: "roles", Page: pageKeys(), Reads: roleFields()},
		{Call: "GetRole", Service: svcRoles, RPC: "GetRole", Method: http.MethodGet, Path: rolesPath + varUID,
			Reads: roleFields()},

		{Call: "ListRoleBindings", Service: svcRoleBindings, RPC: "ListRoleBindings", Method: http.MethodGet,
			Path: bindingsPath, Query: joined(uidpQuery(), []string{"identity", "group", "role"}, pageQuery()),
			ListKey: "roleBindings", Page: pageKeys(), Reads: bindingFields()},
		{Call: "GetRoleBinding", Service: svcRoleBindings, RPC: "GetRoleBinding", Method: http.MethodGet,
			Path: bindingsPath + varUID, Reads: bindingFields()},
		// A binding is created from two uids and read back hydrated.
		{Call: "CreateRoleBinding", Service: svcRoleBindings, RPC: "CreateRoleBinding", Method: http.MethodPost,
			Path: bindingsPath + varParent, Body: "role_binding", Sends: []string{"identityUid", "roleUid"},
			Reads: bindingFields()},
		{Call: "DeleteRoleBinding", Service: svcRoleBindings, RPC: "DeleteRoleBinding", Method: http.MethodDelete,
			Path: bindingsPath + varUID},
	}
}

// claimMembers are the members of a claim match, as proto names.
func claimMembers() []string {
	return []string{ClaimIssuer, ClaimIssuerPattern, ClaimSubject, ClaimSubjectPattern,
		ClaimAudience, ClaimAudiencePattern, ClaimClaims, ClaimClaimPatterns}
}

// claimMatchJSON are the members of a claim match as JSON fields of an
// identity (the two claim maps are read whole).
func claimMatchJSON() []string {
	out := make([]string, 0, len(claimMembers()))
	for _, m := range claimMembers() {
		out = append(out, JSONName(FieldClaimMatch)+"."+JSONName(m))
	}
	return out
}

// groupFields are the fields of a Group the client reads; resourceLimits
// is a map, read whole.
func groupFields() []string {
	return []string{"uid", "name", "description", "kind", "status", "verified", "resourceLimits",
		"createTime", "updateTime"}
}

// identityFields are the fields of an Identity the client reads: its own,
// and those of whichever way of assuming it is set.
func identityFields() []string {
	return joined([]string{"uid", "name", "description", "email", "emailUnverified", "company",
		"servicePrincipal", "lastSeenTime", "createTime", "updateTime"},
		claimMatchJSON(),
		under("staticKeys", "issuer", "subject", "issuerKeys", "expirationTime", "audiences"),
		under("awsIdentity", "awsAccount", "arn", "arnPattern", "userId", "userIdPattern"))
}

// roleFields are the fields of a Role the client reads.
func roleFields() []string {
	return []string{"uid", "name", "description", "capabilities", "createTime", "updateTime"}
}

// bindingFields are the fields of a hydrated RoleBinding the client reads.
func bindingFields() []string {
	return joined([]string{"uid", "createTime"},
		under("identity", "uid", "name", "description", "subject", "issuer", "email"),
		under("group", "uid", "name", "description"),
		under("role", "uid", "name", "description"))
}
