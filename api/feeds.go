package api

import (
	"context"
	"net/http"
	"net/url"
)

// Paths of the advisory, library and events domains.
const (
	advisoriesPath    = "/vulnerabilities/v2/advisories"
	artifactsPath     = "/libraries/v2/artifacts"
	subscriptionsPath = "/events/v2/subscriptions"
)

// ListAdvisories lists the advisory feed; filter with ArtifactNames,
// AdvisoryIDs and Query.
func (c *Client) ListAdvisories(ctx context.Context, opts ListOptions) (*Page[Advisory], error) {
	return list[Advisory](ctx, c, advisoriesPath, "advisories", opts)
}

// GetAdvisory fetches one advisory.
func (c *Client) GetAdvisory(ctx context.Context, uid string) (*Advisory, error) {
	return get[Advisory](ctx, c, advisoriesPath+"/"+uid, nil)
}

// ListArtifacts lists library artifacts of opts.Ecosystems, which the
// service requires: none given lists every ecosystem (Ecosystems()).
// Filter with Query. The service has no call that gets one artifact.
func (c *Client) ListArtifacts(ctx context.Context, opts ListOptions) (*Page[Artifact], error) {
	if len(opts.Ecosystems) == 0 {
		opts.Ecosystems = Ecosystems()
	}
	return list[Artifact](ctx, c, artifactsPath, "artifacts", opts)
}

// ListArtifactVersions lists the versions of a library artifact. The
// artifact's uid holds a slash ("pypi/requests") but is one path segment
// of the route, so it is sent escaped (pypi%2Frequests).
func (c *Client) ListArtifactVersions(ctx context.Context, artifactUID string, opts ListOptions) (*Page[ArtifactVersion], error) {
	k := listCall(c, artifactsPath+"/"+artifactUID+"/versions", opts)
	k.escaped = artifactsPath + "/" + url.PathEscape(artifactUID) + "/versions"
	return runList[ArtifactVersion](ctx, c, k, "artifactVersions")
}

// CountArtifacts counts library artifacts per ecosystem; the service
// requires at least one, and none given counts every ecosystem.
func (c *Client) CountArtifacts(ctx context.Context, ecosystems ...string) (*ArtifactCounts, error) {
	if len(ecosystems) == 0 {
		ecosystems = Ecosystems()
	}
	q := url.Values{}
	for _, e := range ecosystems {
		q.Add("ecosystems", e)
	}
	var out ArtifactCounts
	if err := c.do(ctx, call{method: http.MethodGet, path: artifactsPath + "/count", query: q}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListSubscriptions lists event subscriptions.
func (c *Client) ListSubscriptions(ctx context.Context, opts ListOptions) (*Page[Subscription], error) {
	return list[Subscription](ctx, c, subscriptionsPath, "subscriptions", opts)
}

// GetSubscription fetches one subscription.
func (c *Client) GetSubscription(ctx context.Context, uid string) (*Subscription, error) {
	return get[Subscription](ctx, c, subscriptionsPath+"/"+uid, nil)
}

// CreateSubscription subscribes an https sink to the events of group.
func (c *Client) CreateSubscription(ctx context.Context, group string, s Subscription) (*Subscription, error) {
	return create[Subscription](ctx, c, Subscriptions.Create(group), s)
}

// DeleteSubscription deletes a subscription.
func (c *Client) DeleteSubscription(ctx context.Context, uid string) error {
	return del(ctx, c, Subscriptions.Delete(uid))
}
