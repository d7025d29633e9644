package api

import "context"

// Changing an identity provider: its name, description and default role,
// and each part of its OIDC login, one mask path at a time. Its SCIM state
// is not among them (scim.go), nor how a sign-in is matched to a
// provisioned user, which is fixed once the provider is made.

// Mask paths of an identity provider's updatable fields (besides FieldName
// and FieldDescription): proto names, an OIDC member after "oidc.".
const (
	FieldDefaultRole      = "default_role"
	FieldOIDCIssuer       = "oidc.issuer"
	FieldOIDCClientID     = "oidc.client_id"
	FieldOIDCClientSecret = "oidc.client_secret"
	FieldOIDCScopes       = "oidc.additional_scopes"
	FieldOIDCGroupsClaim  = "oidc.groups_claim"
	FieldOIDCPKCE         = "oidc.pkce_enabled"
)

// ProviderFields are the mask paths PatchIdentityProvider takes.
func ProviderFields() []string {
	return []string{FieldName, FieldDescription, FieldDefaultRole, FieldOIDCIssuer, FieldOIDCClientID, FieldOIDCClientSecret,
		FieldOIDCScopes, FieldOIDCGroupsClaim, FieldOIDCPKCE}
}

// ProviderUpdate is what an update of an identity provider carries: its
// fields as read, and a client secret, which no read returns. Only the
// fields the mask names are sent; a field named and left empty is cleared
// (an empty client secret named makes the client a public one, signing in
// with PKCE alone).
type ProviderUpdate struct {
	Name        string      `json:"name,omitempty"`
	Description string      `json:"description,omitempty"`
	DefaultRole string      `json:"defaultRole,omitempty"`
	OIDC        *OIDCUpdate `json:"oidc,omitempty"`
}

// OIDCUpdate is the OIDC login of a ProviderUpdate.
type OIDCUpdate struct {
	Issuer           string   `json:"issuer,omitempty"`
	ClientID         string   `json:"clientId,omitempty"`
	ClientSecret     string   `json:"clientSecret,omitempty"`
	AdditionalScopes []string `json:"additionalScopes,omitempty"`
	GroupsClaim      string   `json:"groupsClaim,omitempty"`
	PKCEEnabled      bool     `json:"pkceEnabled,omitempty"`
}

// UpdateOf is p as an update starts from: what was read, no secret.
func UpdateOf(p *IdentityProvider) ProviderUpdate {
	u := ProviderUpdate{Name: p.Name, Description: p.Description, DefaultRole: p.DefaultRole, OIDC: &OIDCUpdate{}}
	if o := p.OIDC; o != nil {
		u.OIDC = &OIDCUpdate{Issuer: o.Issuer, ClientID: o.ClientID, AdditionalScopes: o.AdditionalScopes,
			GroupsClaim: o.GroupsClaim, PKCEEnabled: o.PKCEEnabled}
	}
	return u
}

// PatchIdentityProvider changes the fields of the provider uid that mask
// names (ProviderFields), from p.
func (c *Client) PatchIdentityProvider(ctx context.Context, uid string, p ProviderUpdate, mask ...string) (*IdentityProvider, error) {
	return patch[IdentityProvider](ctx, c, IdentityProviders.Patch(uid, mask...), p)
}
