package api

import (
	"net/http"
	"strings"
)

// Routes of an identity provider's update and SCIM methods
// (provider_update.go, scim.go).

// scimRoutes are the calls of provider_update.go and scim.go.
func scimRoutes() []Route {
	providerEnums := func() []Enum {
		return []Enum{{In: InAnswer, Field: "oidc.correlationRule", Values: CorrelationRules()},
			{In: InAnswer, Field: "scim.credentialState", Values: CredentialStates()}}
	}
	updates := func() []Update {
		out := make([]Update, 0, len(ProviderFields()))
		for _, m := range ProviderFields() {
			top, member, dotted := strings.Cut(m, ".")
			json := JSONName(top)
			if dotted {
				json += "." + JSONName(member)
			}
			out = append(out, Update{Mask: m, JSON: json})
		}
		return out
	}
	// A verb of one provider: the uid is the path's, the body the rest of
	// the request.
	verb := func(v string) string { return identityProvidersPath + "/{identity_provider_uid=**}:" + v }
	return []Route{
		// One field at a time; never the mask "*", which would clear the
		// client secret no read returns.
		{Call: "PatchIdentityProvider", Service: svcIdentityProviders, RPC: "UpdateIdentityProvider", Method: http.MethodPatch,
			Path: identityProvidersPath + "/{identity_provider.uid=**}", Body: "identity_provider", Query: []string{maskQuery},
			Sends: sends(updates()), Updates: updates(), Reads: providerFields(), Enums: providerEnums()},
		{Call: "GenerateScimToken", Service: svcIdentityProviders, RPC: "GenerateScimToken", Method: http.MethodPost,
			Path: verb(VerbGenerateScimToken), Body: "*", Sends: []string{"expireTime", "neverExpires"},
			Reads: []string{"token", "endpointUrl", "expireTime", "identityProviderUid", "etag"}},
		{Call: "RegenerateScimToken", Service: svcIdentityProviders, RPC: "RegenerateScimToken", Method: http.MethodPost,
			Path: verb(VerbRegenerateScimToken), Body: "*", Sends: []string{"overlap", "expireTime", "etag", "neverExpires"},
			Reads: []string{"token", "endpointUrl", "expireTime", "identityProviderUid", "etag", "previousTokenExpireTime",
				"requestedOverlap"}},
		{Call: "RevokeScimToken", Service: svcIdentityProviders, RPC: "RevokeScimToken", Method: http.MethodPost,
			Path: verb(VerbRevokeScimToken), Body: "*", Reads: []string{"identityProviderUid", "etag", "enabled", "revokeTime"}},
		{Call: "SetScimEnabled", Service: svcIdentityProviders, RPC: "SetScimEnabled", Method: http.MethodPost,
			Path: verb(VerbSetScimEnabled), Body: "*", Sends: []string{"enabled", "etag"},
			Reads: []string{"identityProviderUid", "enabled", "etag"}},
	}
}
