package api

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// Paths of the registry domain.
const (
	reposPath = "/registry/v2/repos"
	tagsPath  = "/registry/v2/tags"
)

// Updatable repo fields, as update mask paths: proto field names (with
// FieldName and FieldDescription). A repo with a SyncConfig takes its tier,
// bundles and aliases from its source and refuses changes to them.
const (
	FieldCatalogTier = "catalog_tier"
	FieldBundles     = "bundles"
	FieldAliases     = "aliases"
)

// Catalog tiers, the values of a repo's CatalogTier ("" is none).
const (
	CatalogTierApplication = "CATALOG_TIER_APPLICATION"
	CatalogTierBase        = "CATALOG_TIER_BASE"
	CatalogTierFIPS        = "CATALOG_TIER_FIPS"
	CatalogTierAI          = "CATALOG_TIER_AI"
	CatalogTierDevTools    = "CATALOG_TIER_DEVTOOLS"
	CatalogTierCommercial  = "CATALOG_TIER_COMMERCIAL"
)

// CatalogTiers lists every catalog tier, in the order the service numbers them.
func CatalogTiers() []string {
	return []string{CatalogTierApplication, CatalogTierBase, CatalogTierFIPS, CatalogTierAI,
		CatalogTierDevTools, CatalogTierCommercial}
}

// TierWord is a catalog tier as a word ("base" for CATALOG_TIER_BASE),
// as canopy shows it everywhere; "" for none.
func TierWord(tier string) string {
	return strings.ToLower(strings.TrimPrefix(tier, "CATALOG_TIER_"))
}

// ListRepos lists repos; Name filters by exact name.
func (c *Client) ListRepos(ctx context.Context, opts ListOptions) (*Page[Repo], error) {
	return list[Repo](ctx, c, reposPath, "repos", opts)
}

// GetRepo fetches one repo.
func (c *Client) GetRepo(ctx context.Context, uid string) (*Repo, error) {
	return get[Repo](ctx, c, reposPath+"/"+uid, nil)
}

// GetRepoReadme fetches a repo's Markdown readme.
func (c *Client) GetRepoReadme(ctx context.Context, uid string) (*RepoReadme, error) {
	return get[RepoReadme](ctx, c, reposPath+"/"+uid+"/readme", nil)
}

// CreateRepo creates a repo in group; Name is required.
func (c *Client) CreateRepo(ctx context.Context, group string, r Repo) (*Repo, error) {
	return create[Repo](ctx, c, Repos.Create(group), r)
}

// PatchRepo changes the fields of r named by mask (FieldName,
// FieldDescription, FieldCatalogTier, FieldBundles, FieldAliases).
func (c *Client) PatchRepo(ctx context.Context, r Repo, mask ...string) (*Repo, error) {
	return patch[Repo](ctx, c, Repos.Patch(r.UID, mask...), r)
}

// DeleteRepo deletes a repo and its tags.
func (c *Client) DeleteRepo(ctx context.Context, uid string) error {
	return del(ctx, c, Repos.Delete(uid))
}

// GetArchitectures lists the platforms an image digest of a repo is built for.
func (c *Client) GetArchitectures(ctx context.Context, repoUID, digest string) (*Architectures, error) {
	var out Architectures
	if err := c.do(ctx, digestCall(repoUID, digest, "architectures", nil), &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetImageSize is the size of one architecture of an image digest.
func (c *Client) GetImageSize(ctx context.Context, repoUID, digest, arch string) (*ImageSize, error) {
	var out ImageSize
	if err := c.do(ctx, digestCall(repoUID, digest, "size", url.Values{"architecture": {arch}}), &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// digestCall is a GET of what is under one digest of a repo. The repo's
// uid spans segments but the digest is one segment of the route, so it is
// escaped whole: a slash in it must not reach another route.
func digestCall(repoUID, digest, what string, q url.Values) call {
	return call{method: http.MethodGet, path: reposPath + "/" + repoUID + "/digests/" + digest + "/" + what,
		escaped: EscapePath(reposPath+"/"+repoUID) + "/digests/" + url.PathEscape(digest) + "/" + what, query: q}
}

// ListTags lists tags; ChildrenOf a repo gives its tags. Referrer, epoch and
// dated tags are hidden unless the Include options ask for them.
func (c *Client) ListTags(ctx context.Context, opts ListOptions) (*Page[Tag], error) {
	return list[Tag](ctx, c, tagsPath, "tags", opts)
}

// GetTag fetches one tag.
func (c *Client) GetTag(ctx context.Context, uid string) (*Tag, error) {
	return get[Tag](ctx, c, tagsPath+"/"+uid, nil)
}

// CreateTag points tag name of a repo at digest, creating it when absent
// (tags have no PATCH).
func (c *Client) CreateTag(ctx context.Context, repoUID, name, digest string) (*Tag, error) {
	return create[Tag](ctx, c, Tags.Create(repoUID), Tag{Name: name, Digest: digest})
}

// DeleteTag deletes a tag.
func (c *Client) DeleteTag(ctx context.Context, uid string) error {
	return del(ctx, c, Tags.Delete(uid))
}
