package api

import "net/http"

// Routes of external group role mappings (mappings.go).

const svcMappings = "chainguard.platform.iam.v2.ExternalGroupRoleMappingsService"

// mappingRoutes are the calls of mappings.go.
func mappingRoutes() []Route {
	p := externalGroupRoleMappingsPath
	return []Route{
		{Call: "ListExternalGroupRoleMappings", Service: svcMappings, RPC: "ListExternalGroupRoleMappings", Method: http.MethodGet,
			Path: p, Query: joined(uidpQuery(), []string{"identity_provider_uid"}, pageQuery()),
			ListKey: "externalGroupRoleMappings", Page: pageKeys(), Reads: mappingFields()},
		{Call: "GetExternalGroupRoleMapping", Service: svcMappings, RPC: "GetExternalGroupRoleMapping", Method: http.MethodGet,
			Path: p + varUID, Reads: mappingFields()},
		// The provider is the parent; the service sets the uid, the
		// provider's uid and the time.
		{Call: "CreateExternalGroupRoleMapping", Service: svcMappings, RPC: "CreateExternalGroupRoleMapping", Method: http.MethodPost,
			Path: p + varParent, Body: "external_group_role_mapping",
			Sends: []string{"externalGroupId", "roleUid", "scope"}, Reads: mappingFields()},
		{Call: "DeleteExternalGroupRoleMapping", Service: svcMappings, RPC: "DeleteExternalGroupRoleMapping", Method: http.MethodDelete,
			Path: p + varUID},
		// A custom method: the body is the whole request.
		{Call: "BatchDeleteExternalGroupRoleMappings", Service: svcMappings, RPC: "BatchDeleteExternalGroupRoleMappings",
			Method: http.MethodPost, Path: string(ExternalGroupRoleMappings.BatchDelete().Path), Body: "*",
			Sends: []string{"parent", "names"},
			Reads: joined([]string{"parent"}, under("externalGroupRoleMappings", mappingFields()...))},
	}
}

// mappingFields are the fields of an ExternalGroupRoleMapping the client reads.
func mappingFields() []string {
	return []string{"uid", "identityProviderUid", "externalGroupId", "roleUid", "scope", "createTime"}
}
