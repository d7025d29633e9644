package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// The caller's own identity: which uid an OIDC issuer and subject have
// (or will have once they sign up), and the profile the caller keeps of
// itself. Both are open to any caller: neither takes a capability.

const (
	lookupIdentityPath = identitiesPath + ":lookupIdentity"
	identityMetaPath   = identitiesPath + ":updateIdentityMetadata"
)

// The mask paths of the profile canopy edits: what a person says of
// themselves. The rest of the metadata (campaign tracking, form URLs, a
// marketing cookie, the self-serve flag) is what the vendor's console
// records of a sign-up, not the person's to state from a terminal:
// canopy neither sends nor reads it.
const (
	MetaCompany      = "company"
	MetaJobTitle     = "job_title"
	MetaProduct      = "product"
	MetaUpdatesOptIn = "updates_opt_in"
)

// IdentityMetadata is the profile of the caller's identity. Only the
// service sets UID and the names (from the caller's sign-in); the rest
// the caller sets. There is no call that reads it: the answer to an
// update is the only time the service shows it.
type IdentityMetadata struct {
	UID          string `json:"uid,omitempty"`
	Name         string `json:"name,omitempty"`
	GivenName    string `json:"givenName,omitempty"`
	FamilyName   string `json:"familyName,omitempty"`
	Company      string `json:"company,omitempty"`
	JobTitle     string `json:"jobTitle,omitempty"`
	Product      string `json:"product,omitempty"`
	UpdatesOptIn bool   `json:"updatesOptIn,omitempty"`
}

// lookedUpIdentity is LookupIdentity's answer.
type lookedUpIdentity struct {
	UID string `json:"uid"`
}

// LookupIdentity is the uid of the identity an OIDC issuer and subject
// sign in as: the identity's, or, before they ever signed in, the uid the
// service will give them (a role can be bound to it already).
func (c *Client) LookupIdentity(ctx context.Context, issuer, subject string) (string, error) {
	out, err := get[lookedUpIdentity](ctx, c, lookupIdentityPath, url.Values{"issuer": {issuer}, "subject": {subject}})
	if err != nil {
		return "", err
	}
	if out.UID == "" {
		return "", fmt.Errorf("look up %s %s: the answer has no uid", issuer, subject)
	}
	return out.UID, nil
}

// UpdateIdentityMetadataOf is the request that sets the fields of mask
// (proto names) of the caller's profile: a custom method whose body is
// the whole request, so the mask travels in the body.
func UpdateIdentityMetadataOf(mask ...string) Request {
	return Request{Method: http.MethodPatch, Path: identityMetaPath, Mask: strings.Join(mask, ","), BodyMask: true}
}

// metadataBody is an update's body: the request whole.
type metadataBody struct {
	Metadata any    `json:"identityMetadata"`
	Mask     string `json:"updateMask"`
}

// UpdateIdentityMetadata sets the fields of mask (MetaCompany, …) of the
// caller's own profile to md's (a field left empty is cleared) and
// answers the whole profile as the service then has it. The caller is
// whoever the token is: there is no uid to give. Never retried.
func (c *Client) UpdateIdentityMetadata(ctx context.Context, md IdentityMetadata, mask ...string) (*IdentityMetadata, error) {
	r := UpdateIdentityMetadataOf(mask...)
	if len(mask) == 0 {
		return nil, fmt.Errorf("PATCH %s: empty update mask", r.Path)
	}
	paths := make([]string, len(mask))
	for i, f := range mask {
		if !maskPath.MatchString(f) || f == FieldAll {
			return nil, fmt.Errorf("PATCH %s: update mask path %q is not a proto field name", r.Path, f)
		}
		paths[i] = JSONName(f)
	}
	only, err := masked(md, mask)
	if err != nil {
		return nil, fmt.Errorf("PATCH %s: %w", r.Path, err)
	}
	// In a JSON body a field mask is one string of lowerCamelCase paths
	// (protojson refuses snake_case there), unlike the query parameter.
	var out IdentityMetadata
	if err := c.do(ctx, call{method: r.Method, path: r.Path, body: metadataBody{Metadata: only, Mask: strings.Join(paths, ",")}}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Caller is who the client's token says it is: the issuer and subject of
// its claims, read without checking its signature (the service checks
// it). ok is false without a token, or for one that is no JWT.
func (c *Client) Caller() (issuer, subject string, ok bool) {
	if c.tokens == nil {
		return "", "", false
	}
	tok, err := c.tokens.Token()
	if err != nil {
		return "", "", false
	}
	parts := strings.Split(tok.AccessToken, ".")
	if len(parts) != 3 {
		return "", "", false
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return "", "", false
	}
	var claims struct {
		Iss string `json:"iss"`
		Sub string `json:"sub"`
	}
	if json.Unmarshal(b, &claims) != nil || claims.Iss == "" || claims.Sub == "" {
		return "", "", false
	}
	return claims.Iss, claims.Sub, true
}
