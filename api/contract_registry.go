package api

import "net/http"

// Routes of the registry: repos, their readmes and images, and tags.

// registryRoutes are the calls of registry.go.
func registryRoutes() []Route {
	// Each route gets slices of its own, so that changing one changes no other.
	repoUpdates := func() []Update {
		return plainUpdates(FieldName, FieldDescription, FieldCatalogTier, FieldBundles, FieldAliases)
	}
	tier := func() []Enum { return []Enum{{In: InAnswer, Field: "catalogTier", Values: CatalogTiers()}} }
	sentTier := func() []Enum { return append(tier(), Enum{In: InBody, Field: "catalogTier", Values: CatalogTiers()}) }
	// The image calls name a repo (any number of segments) and one digest.
	digest := reposPath + "/{repo_uid=**}/digests/{digest=*}"
	return []Route{
		{Call: "ListRepos", Service: svcRepos, RPC: "ListRepos", Method: http.MethodGet, Path: reposPath,
			Query:   joined(uidpQuery(), []string{"uidp.ids", "name"}, pageQuery()),
			ListKey: "repos", Page: pageKeys(), Reads: repoFields(), Enums: tier()},
		{Call: "GetRepo", Service: svcRepos, RPC: "GetRepo", Method: http.MethodGet, Path: reposPath + varUID,
			Reads: repoFields(), Enums: tier()},
		{Call: "GetRepoReadme", Service: svcRepos, RPC: "GetRepoReadme", Method: http.MethodGet,
			Path: reposPath + varUID + "/readme", Reads: []string{"uid", "content"}},
		// A create carries what the new-repo form asks for.
		{Call: "CreateRepo", Service: svcRepos, RPC: "CreateRepo", Method: http.MethodPost, Path: reposPath + varParent,
			Body: "repo", Sends: []string{"name", "description", "catalogTier"}, Reads: repoFields(), Enums: sentTier()},
		{Call: "PatchRepo", Service: svcRepos, RPC: "UpdateRepo", Method: http.MethodPatch,
			Path: reposPath + "/{repo.uid=**}", Body: "repo", Query: []string{maskQuery},
			Sends: sends(repoUpdates()), Replace: true, Updates: repoUpdates(), Reads: repoFields(), Enums: sentTier()},
		{Call: "DeleteRepo", Service: svcRepos, RPC: "DeleteRepo", Method: http.MethodDelete, Path: reposPath + varUID},
		{Call: "GetArchitectures", Service: svcImages, RPC: "GetArchitectures", Method: http.MethodGet,
			Path: digest + "/architectures", Reads: []string{"architectures"}},
		{Call: "GetImageSize", Service: svcImages, RPC: "GetSize", Method: http.MethodGet,
			Path: digest + "/size", Query: []string{"architecture"}, Reads: []string{"size", "architecture"}},
		{Call: "ListTags", Service: svcTags, RPC: "ListTags", Method: http.MethodGet, Path: tagsPath,
			Query:   joined(uidpQuery(), []string{"name", "include_referrers", "include_epochs", "include_dates"}, pageQuery()),
			ListKey: "tags", Page: pageKeys(), Reads: tagFields()},
		{Call: "GetTag", Service: svcTags, RPC: "GetTag", Method: http.MethodGet, Path: tagsPath + varUID,
			Reads: tagFields()},
		// Tags have no update: a create under the repo moves a tag that exists.
		{Call: "CreateTag", Service: svcTags, RPC: "CreateTag", Method: http.MethodPost, Path: tagsPath + varParent,
			Body: "tag", Sends: []string{"name", "digest"}, Reads: tagFields()},
		{Call: "DeleteTag", Service: svcTags, RPC: "DeleteTag", Method: http.MethodDelete, Path: tagsPath + varUID},
	}
}

// repoFields are the fields of a Repo the client reads; a synced repo's
// sync configuration is under a snake_case key, and a custom overlay is
// kept whole, only to be sent back by a full replacement.
func repoFields() []string {
	return joined([]string{"uid", "name", "description", "catalogTier", "bundles", "aliases", "activeTags",
		"customOverlay", "createTime", "updateTime"},
		under("sync_config", "source", "uniqueTags", "expirationTime", "google", "amazon", "azure", "gracePeriod"))
}

// tagFields are the fields of a Tag the client reads.
func tagFields() []string {
	return []string{"uid", "name", "digest", "deprecated", "bundles", "updateTime"}
}
