package api

import (
	"context"
	"net/http"
)

// A repo's readme is a resource of its own under the repo, updated with a
// mask like the repo is.

// FieldContent is the mask path of a readme's text.
const FieldContent = "content"

// ReposPath is the path of the repo uid.
func ReposPath(uid string) string { return reposPath + "/" + uid }

// ReadmePatch is the request that replaces the readme of the repo uid.
func ReadmePatch(uid string) Request {
	return Request{Method: http.MethodPatch, Path: reposPath + "/" + uid + "/readme", Mask: FieldContent}
}

// UpdateRepoReadme replaces the Markdown readme of the repo uid with
// content ("" clears it) and answers the readme as the service then has
// it. A repo synced from another takes its readme from there: the service
// may refuse. Never retried.
func (c *Client) UpdateRepoReadme(ctx context.Context, uid, content string) (*RepoReadme, error) {
	return patch[RepoReadme](ctx, c, ReadmePatch(uid), RepoReadme{UID: uid, Content: content})
}
