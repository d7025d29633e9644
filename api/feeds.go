package api

import (
	"context"
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

// ListArtifacts lists library artifacts; filter with Ecosystems and Query.
func (c *Client) ListArtifacts(ctx context.Context, opts ListOptions) (*Page[Artifact], error) {
	return list[Artifact](ctx, c, artifactsPath, "artifacts", opts)
}

// GetArtifact fetches one library artifact.
func (c *Client) GetArtifact(ctx context.Context, uid string) (*Artifact, error) {
	return get[Artifact](ctx, c, artifactsPath+"/"+uid, nil)
}

// ListArtifactVersions lists the versions of a library artifact.
func (c *Client) ListArtifactVersions(ctx context.Context, artifactUID string, opts ListOptions) (*Page[ArtifactVersion], error) {
	return list[ArtifactVersion](ctx, c, artifactsPath+"/"+artifactUID+"/versions", "versions", opts)
}

// CountArtifacts counts library artifacts per ecosystem (all when none given).
func (c *Client) CountArtifacts(ctx context.Context, ecosystems ...string) (*ArtifactCounts, error) {
	q := url.Values{}
	for _, e := range ecosystems {
		q.Add("ecosystems", e)
	}
	return get[ArtifactCounts](ctx, c, artifactsPath+"/count", q)
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
	return create[Subscription](ctx, c, subscriptionsPath+"/"+group, s)
}

// DeleteSubscription deletes a subscription.
func (c *Client) DeleteSubscription(ctx context.Context, uid string) error {
	return del(ctx, c, subscriptionsPath+"/"+uid)
}
