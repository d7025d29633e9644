package api

import "net/http"

// Routes of joining an organization (joining.go), of the caller's own
// identity (self.go) and of a readme's update (readme.go).

// joiningRoutes are the calls of joining.go, self.go and readme.go.
func joiningRoutes() []Route {
	metaUpdates := func() []Update {
		var out []Update
		for _, m := range []string{MetaCompany, MetaJobTitle, MetaProduct, MetaUpdatesOptIn} {
			out = append(out, Update{Mask: m, JSON: "identityMetadata." + JSONName(m)})
		}
		return out
	}
	return []Route{
		// The token decides: the request has no field.
		{Call: "LookupGroup", Service: svcGroups, RPC: "LookupGroup", Method: http.MethodGet, Path: lookupGroupPath,
			Reads: under("group", groupFields()...)},
		{Call: "CheckEligibility", Service: svcGroups, RPC: "CheckEligibility", Method: http.MethodGet,
			Path: checkEligibilityPath, Reads: []string{"eligible"}},
		// The body is the whole request, whose one field is in the path.
		{Call: "RequestGroupAccess", Service: svcGroups, RPC: "RequestGroupAccess", Method: http.MethodPost,
			Path: groupsPath + "/{group_uid=**}" + requestGroupAccessVerb, Body: "*"},

		{Call: "LookupIdentity", Service: svcIdentities, RPC: "LookupIdentity", Method: http.MethodGet,
			Path: lookupIdentityPath, Query: []string{"issuer", "subject"}, Reads: []string{"uid"}},
		// The caller's own profile: the mask is in the body, of the
		// metadata's fields.
		{Call: "UpdateIdentityMetadata", Service: svcIdentities, RPC: "UpdateIdentityMetadata", Method: http.MethodPatch,
			Path: identityMetaPath, Body: "*", MaskOf: "identity_metadata",
			Sends:   joined(sends(metaUpdates()), []string{"updateMask"}),
			Updates: metaUpdates(),
			Reads:   []string{"uid", "name", "givenName", "familyName", "company", "jobTitle", "product", "updatesOptIn"}},

		{Call: "UpdateRepoReadme", Service: svcRepos, RPC: "UpdateRepoReadme", Method: http.MethodPatch,
			Path: reposPath + "/{repo_readme.uid=**}/readme", Body: "repo_readme", Query: []string{maskQuery},
			Sends: []string{"content"}, Updates: plainUpdates(FieldContent), Reads: []string{"uid", "content"}},
	}
}
