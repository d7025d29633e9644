package api

import (
	"context"
	"net/http"
	"time"
)

// SCIM provisioning of an identity provider: the bearer token its
// directory sends when it creates and removes users, and whether the
// service takes them. The token is said once, in the answer that makes it
// (the service keeps only its digest); the other calls and the provider's
// reads say only its state (ProviderSCIM). Each call is a custom method of
// the provider: its verb follows the provider's uid after a colon.

// Verbs of an identity provider's SCIM methods.
const (
	VerbGenerateScimToken   = "generateScimToken"
	VerbRegenerateScimToken = "regenerateScimToken"
	VerbRevokeScimToken     = "revokeScimToken"
	VerbSetScimEnabled      = "setScimEnabled"
)

// The states of a SCIM token, as ProviderSCIM.CredentialState says them.
const (
	CredentialNotIssued = "CREDENTIAL_STATE_NOT_ISSUED"
	CredentialLive      = "CREDENTIAL_STATE_LIVE"
	CredentialExpired   = "CREDENTIAL_STATE_EXPIRED"
	CredentialRevoked   = "CREDENTIAL_STATE_REVOKED"
	CredentialRotating  = "CREDENTIAL_STATE_ROTATING"
)

// Verb is the request of the custom method verb of the member uid: a
// POST whose path ends with the uid, a colon and the verb.
func (c Collection) Verb(uid, verb string) Request {
	return Request{Method: http.MethodPost, Path: string(c) + "/" + uid + ":" + verb}
}

// ScimToken is the answer that makes a token: the token itself, said
// this once, and where the provider's directory sends its requests.
type ScimToken struct {
	Token       string `json:"token,omitempty"`
	EndpointURL string `json:"endpointUrl,omitempty"`
	// ExpireTime is when it stops working; zero for a token that does
	// not expire.
	ExpireTime          Time   `json:"expireTime,omitzero"`
	IdentityProviderUID string `json:"identityProviderUid,omitempty"`
	// Etag is the provider's SCIM version after the call, which the next
	// regenerate or switch must name.
	Etag string `json:"etag,omitempty"`
}

// RegeneratedScimToken is the answer to a regenerate: a ScimToken, and
// until when the token it replaced keeps working (zero: it stopped at
// once, or was already dead).
type RegeneratedScimToken struct {
	Token                   string `json:"token,omitempty"`
	EndpointURL             string `json:"endpointUrl,omitempty"`
	ExpireTime              Time   `json:"expireTime,omitzero"`
	IdentityProviderUID     string `json:"identityProviderUid,omitempty"`
	Etag                    string `json:"etag,omitempty"`
	PreviousTokenExpireTime Time   `json:"previousTokenExpireTime,omitzero"`
	// RequestedOverlap is the overlap asked, as the service writes a
	// duration ("3600s").
	RequestedOverlap string `json:"requestedOverlap,omitempty"`
}

// ScimRevoked is the answer to a revoke.
type ScimRevoked struct {
	IdentityProviderUID string `json:"identityProviderUid,omitempty"`
	Etag                string `json:"etag,omitempty"`
	// Enabled is whether provisioning is still on: a revoke leaves the
	// switch as it was (no request authenticates meanwhile).
	Enabled    bool `json:"enabled,omitempty"`
	RevokeTime Time `json:"revokeTime,omitzero"`
}

// ScimSwitched is the answer to SetScimEnabled.
type ScimSwitched struct {
	IdentityProviderUID string `json:"identityProviderUid,omitempty"`
	Enabled             bool   `json:"enabled,omitempty"`
	Etag                string `json:"etag,omitempty"`
}

// ScimTokenOptions say how long a new token lasts: until ExpireTime (at
// most two years on), for ever (NeverExpires), or, with neither, the
// service's default (a year).
type ScimTokenOptions struct {
	ExpireTime   Time
	NeverExpires bool
}

// generateScim is a generate's body.
type generateScim struct {
	ExpireTime   Time `json:"expireTime,omitzero"`
	NeverExpires bool `json:"neverExpires,omitempty"`
}

// regenerateScim is a regenerate's body.
type regenerateScim struct {
	Overlap      *Duration `json:"overlap,omitempty"`
	ExpireTime   Time      `json:"expireTime,omitzero"`
	Etag         string    `json:"etag"`
	NeverExpires bool      `json:"neverExpires,omitempty"`
}

// switchScim is a SetScimEnabled body.
type switchScim struct {
	Enabled bool   `json:"enabled"`
	Etag    string `json:"etag"`
}

// GenerateScimToken makes the first SCIM token of the provider uid; the
// answer is the only place the token is ever said. A provider that has
// had one is refused (FAILED_PRECONDITION): RegenerateScimToken replaces
// it. Not safe to send again after a lost answer: read the provider's
// SCIM state first.
func (c *Client) GenerateScimToken(ctx context.Context, uid string, o ScimTokenOptions) (*ScimToken, error) {
	return create[ScimToken](ctx, c, IdentityProviders.Verb(uid, VerbGenerateScimToken),
		generateScim{ExpireTime: o.ExpireTime, NeverExpires: o.NeverExpires})
}

// RegenerateScimToken replaces the SCIM token of the provider uid, whose
// SCIM version is etag (ProviderSCIM.Etag). A live token it replaces keeps
// working for overlap (nil: the service's default, an hour; at most a
// day; 0: it stops at once). Not safe to send again after a lost answer:
// read the provider's SCIM state (its etag) first.
func (c *Client) RegenerateScimToken(ctx context.Context, uid, etag string, overlap *time.Duration, o ScimTokenOptions) (*RegeneratedScimToken, error) {
	body := regenerateScim{Etag: etag, ExpireTime: o.ExpireTime, NeverExpires: o.NeverExpires}
	if overlap != nil {
		d := Duration(*overlap)
		body.Overlap = &d
	}
	return create[RegeneratedScimToken](ctx, c, IdentityProviders.Verb(uid, VerbRegenerateScimToken), body)
}

// RevokeScimToken stops the SCIM token of the provider uid (and a replaced
// one still in its overlap) at once. Whether provisioning is on does not
// change.
func (c *Client) RevokeScimToken(ctx context.Context, uid string) (*ScimRevoked, error) {
	return create[ScimRevoked](ctx, c, IdentityProviders.Verb(uid, VerbRevokeScimToken), struct{}{})
}

// SetScimEnabled turns SCIM provisioning of the provider uid on or off;
// etag is its SCIM version as last read. The service refuses to turn it on
// for an organization with fewer than two owners bound by hand.
func (c *Client) SetScimEnabled(ctx context.Context, uid string, enabled bool, etag string) (*ScimSwitched, error) {
	return create[ScimSwitched](ctx, c, IdentityProviders.Verb(uid, VerbSetScimEnabled), switchScim{Enabled: enabled, Etag: etag})
}
