package api

import "net/http"

// Routes of who may come into a group: identity providers and invites.

const (
	svcIdentityProviders = "chainguard.platform.iam.v2.IdentityProvidersService"
	svcGroupInvites      = "chainguard.platform.iam.v2.GroupInvitesService"
)

// accessRoutes are the calls of access.go.
func accessRoutes() []Route {
	providerEnums := func() []Enum {
		return []Enum{{In: InAnswer, Field: "oidc.correlationRule", Values: CorrelationRules()},
			{In: InAnswer, Field: "scim.credentialState", Values: CredentialStates()}}
	}
	return []Route{
		{Call: "ListIdentityProviders", Service: svcIdentityProviders, RPC: "ListIdentityProviders", Method: http.MethodGet,
			Path: identityProvidersPath, Query: joined(uidpQuery(), []string{"name"}, pageQuery()),
			ListKey: "identityProviders", Page: pageKeys(), Reads: providerFields(), Enums: providerEnums()},
		{Call: "GetIdentityProvider", Service: svcIdentityProviders, RPC: "GetIdentityProvider", Method: http.MethodGet,
			Path: identityProvidersPath + varUID, Reads: providerFields(), Enums: providerEnums()},
		// A create carries the OIDC client's secret, which no answer does.
		{Call: "CreateIdentityProvider", Service: svcIdentityProviders, RPC: "CreateIdentityProvider", Method: http.MethodPost,
			Path: identityProvidersPath + varParent, Body: "identity_provider",
			Sends: joined([]string{"name", "description", "defaultRole"},
				under("oidc", "issuer", "clientId", "clientSecret", "additionalScopes", "groupsClaim", "pkceEnabled")),
			Reads: providerFields(), Enums: providerEnums()},
		{Call: "DeleteIdentityProvider", Service: svcIdentityProviders, RPC: "DeleteIdentityProvider", Method: http.MethodDelete,
			Path: identityProvidersPath + varUID},

		{Call: "ListGroupInvites", Service: svcGroupInvites, RPC: "ListGroupInvites", Method: http.MethodGet,
			Path: groupInvitesPath, Query: joined(uidpQuery(), pageQuery()),
			ListKey: "groupInvites", Page: pageKeys(), Reads: inviteFields()},
		{Call: "GetGroupInvite", Service: svcGroupInvites, RPC: "GetGroupInvite", Method: http.MethodGet,
			Path: groupInvitesPath + varUID, Reads: inviteFields()},
		// How long an invite lasts goes in; when it expires comes back.
		{Call: "CreateGroupInvite", Service: svcGroupInvites, RPC: "CreateGroupInvite", Method: http.MethodPost,
			Path: groupInvitesPath + varParent, Body: "group_invite",
			Sends: []string{"roleUid", "email", "ttl", "singleUse"}, Reads: inviteFields()},
		{Call: "DeleteGroupInvite", Service: svcGroupInvites, RPC: "DeleteGroupInvite", Method: http.MethodDelete,
			Path: groupInvitesPath + varUID},
	}
}

// providerFields are the fields of an IdentityProvider the client reads.
func providerFields() []string {
	return joined([]string{"uid", "name", "description", "defaultRole", "createTime", "updateTime"},
		under("oidc", "issuer", "clientId", "additionalScopes", "groupsClaim", "correlationRule", "pkceEnabled"),
		under("scim", "enabled", "endpointUrl", "credentialState", "tokenExpireTime", "previousTokenExpireTime", "etag"))
}

// inviteFields are the fields of a GroupInvite the client reads.
func inviteFields() []string {
	return joined([]string{"uid", "roleUid", "email", "expirationTime", "singleUse", "code", "keyId", "createTime"},
		under("role", "uid", "name", "description", "capabilities"))
}
