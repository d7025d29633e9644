package api

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// Who may come into a group from outside: identity providers (single
// sign-on through an upstream OIDC provider) and group invites (a code that
// joins whoever redeems it to the group with a role).

const (
	identityProvidersPath = "/iam/v2/identityProviders"
	groupInvitesPath      = "/iam/v2/groupInvites"
)

// IdentityProvider lets the users of an upstream identity provider sign in
// to a group, with a role given to each on their first sign-in.
type IdentityProvider struct {
	UID         string `json:"uid,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// DefaultRole is the uid of the role a user of the provider gets on
	// first sign-in.
	DefaultRole string        `json:"defaultRole,omitempty"`
	OIDC        *ProviderOIDC `json:"oidc,omitempty"`
	// SCIM is the provisioning state; the service fills it on reads only
	// (and leaves most of it out of lists).
	SCIM       *ProviderSCIM `json:"scim,omitempty"`
	CreateTime Time          `json:"createTime,omitzero"`
	UpdateTime Time          `json:"updateTime,omitzero"`
}

// ProviderOIDC is how the service signs users in with the upstream
// provider. The client secret is never read back: it goes only in a create
// (NewIdentityProvider).
type ProviderOIDC struct {
	Issuer           string   `json:"issuer,omitempty"`
	ClientID         string   `json:"clientId,omitempty"`
	AdditionalScopes []string `json:"additionalScopes,omitempty"`
	// GroupsClaim names the token claim with the user's groups ("" when
	// the provider's groups are not read).
	GroupsClaim string `json:"groupsClaim,omitempty"`
	// CorrelationRule is how a sign-in is matched to a provisioned user
	// (CorrelationRules); fixed once the provider is made.
	CorrelationRule string `json:"correlationRule,omitempty"`
	PKCEEnabled     bool   `json:"pkceEnabled,omitempty"`
}

// The values of ProviderOIDC.CorrelationRule ("" is the first).
const (
	CorrelationSubject  = "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID"
	CorrelationObjectID = "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"
)

// CorrelationRules are the values a provider's correlation rule takes.
func CorrelationRules() []string { return []string{CorrelationSubject, CorrelationObjectID} }

// ProviderSCIM is a provider's user provisioning state, as the service
// reports it.
type ProviderSCIM struct {
	Enabled     bool   `json:"enabled,omitempty"`
	EndpointURL string `json:"endpointUrl,omitempty"`
	// CredentialState is the provisioning token's state (CredentialStates).
	CredentialState         string `json:"credentialState,omitempty"`
	TokenExpireTime         Time   `json:"tokenExpireTime,omitzero"`
	PreviousTokenExpireTime Time   `json:"previousTokenExpireTime,omitzero"`
	Etag                    string `json:"etag,omitempty"`
}

// CredentialStates are the values of ProviderSCIM.CredentialState.
func CredentialStates() []string {
	return []string{"CREDENTIAL_STATE_NOT_ISSUED", "CREDENTIAL_STATE_LIVE", "CREDENTIAL_STATE_EXPIRED",
		"CREDENTIAL_STATE_REVOKED", "CREDENTIAL_STATE_ROTATING"}
}

// NewIdentityProvider is what a create sends: the provider, with the OIDC
// client's secret (optional for a public client that uses PKCE).
type NewIdentityProvider struct {
	Name        string       `json:"name"`
	Description string       `json:"description,omitempty"`
	DefaultRole string       `json:"defaultRole"`
	OIDC        NewOIDCLogin `json:"oidc"`
}

// NewOIDCLogin is a new provider's OIDC settings.
type NewOIDCLogin struct {
	Issuer           string   `json:"issuer"`
	ClientID         string   `json:"clientId"`
	ClientSecret     string   `json:"clientSecret,omitempty"`
	AdditionalScopes []string `json:"additionalScopes,omitempty"`
	GroupsClaim      string   `json:"groupsClaim,omitempty"`
	PKCEEnabled      bool     `json:"pkceEnabled,omitempty"`
}

// Bounds the service puts on an identity provider's name.
const (
	ProviderNameMin = 3
	ProviderNameMax = 63
)

// FindIdentityProvider finds the identity provider named name directly in
// group (after a create whose answer was lost).
func (c *Client) FindIdentityProvider(ctx context.Context, group, name string) (*IdentityProvider, error) {
	p, err := find(ctx, c.ListIdentityProviders, ListOptions{ChildrenOf: group, Name: name}, func(p *IdentityProvider) bool {
		return p.Name == name && ParentUID(p.UID) == group
	})
	if err != nil {
		return nil, fmt.Errorf("find identity provider %q in %s: %w", name, group, err)
	}
	return p, nil
}

// IdentityProviderKey is a provider's uid.
func IdentityProviderKey(p *IdentityProvider) string { return p.UID }

// ListIdentityProviders lists identity providers.
func (c *Client) ListIdentityProviders(ctx context.Context, opts ListOptions) (*Page[IdentityProvider], error) {
	return list[IdentityProvider](ctx, c, identityProvidersPath, "identityProviders", opts)
}

// GetIdentityProvider fetches one identity provider, its provisioning
// state included.
func (c *Client) GetIdentityProvider(ctx context.Context, uid string) (*IdentityProvider, error) {
	return get[IdentityProvider](ctx, c, identityProvidersPath+"/"+uid, nil)
}

// CreateIdentityProvider makes an identity provider in group.
func (c *Client) CreateIdentityProvider(ctx context.Context, group string, p NewIdentityProvider) (*IdentityProvider, error) {
	return create[IdentityProvider](ctx, c, IdentityProviders.Create(group), p)
}

// DeleteIdentityProvider deletes an identity provider: its users can no
// longer sign in through it.
func (c *Client) DeleteIdentityProvider(ctx context.Context, uid string) error {
	return del(ctx, c, IdentityProviders.Delete(uid))
}

// GroupInvite is a code that joins whoever redeems it to a group with a
// role. The code is said once, in the answer to the create.
type GroupInvite struct {
	UID     string      `json:"uid,omitempty"`
	RoleUID string      `json:"roleUid,omitempty"`
	Role    *InviteRole `json:"role,omitempty"`
	// Email, when set, is the one address that may redeem the invite.
	Email          string `json:"email,omitempty"`
	ExpirationTime Time   `json:"expirationTime,omitzero"`
	SingleUse      bool   `json:"singleUse,omitempty"`
	// Code is the invite itself: only the create's answer carries it.
	Code       string `json:"code,omitempty"`
	KeyID      string `json:"keyId,omitempty"`
	CreateTime Time   `json:"createTime,omitzero"`
}

// InviteRole is the role an invite grants, as the service describes it.
type InviteRole struct {
	UID          string   `json:"uid,omitempty"`
	Name         string   `json:"name,omitempty"`
	Description  string   `json:"description,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
}

// NewGroupInvite is what a create sends: the role, how long the invite
// lasts, and optionally the one address that may redeem it.
type NewGroupInvite struct {
	RoleUID   string   `json:"roleUid"`
	Email     string   `json:"email,omitempty"`
	TTL       Duration `json:"ttl"`
	SingleUse bool     `json:"singleUse,omitempty"`
}

// Duration is a length of time as the service writes one in JSON: seconds
// with an "s" ("86400s").
type Duration time.Duration

// MarshalJSON writes d as whole and fractional seconds with an "s".
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(strconv.Quote(strconv.FormatFloat(time.Duration(d).Seconds(), 'f', -1, 64) + "s")), nil
}

// GroupInviteKey is an invite's uid.
func GroupInviteKey(g *GroupInvite) string { return g.UID }

// ListGroupInvites lists group invites (never their codes).
func (c *Client) ListGroupInvites(ctx context.Context, opts ListOptions) (*Page[GroupInvite], error) {
	return list[GroupInvite](ctx, c, groupInvitesPath, "groupInvites", opts)
}

// GetGroupInvite fetches one group invite.
func (c *Client) GetGroupInvite(ctx context.Context, uid string) (*GroupInvite, error) {
	return get[GroupInvite](ctx, c, groupInvitesPath+"/"+uid, nil)
}

// CreateGroupInvite makes an invite to group; the answer holds its code.
func (c *Client) CreateGroupInvite(ctx context.Context, group string, in NewGroupInvite) (*GroupInvite, error) {
	return create[GroupInvite](ctx, c, GroupInvites.Create(group), in)
}

// DeleteGroupInvite deletes an invite: its code no longer joins anyone.
func (c *Client) DeleteGroupInvite(ctx context.Context, uid string) error {
	return del(ctx, c, GroupInvites.Delete(uid))
}
