package emulator

import (
	"fmt"
	"slices"
	"sync"

	"canopy/api"
)

// An identity provider's update: its name, description, default role and
// OIDC login, whole or a member at a time. Its SCIM state changes only
// through the SCIM methods (an update ignores it, so a client may send a
// provider back as read), and how a sign-in is matched to a provisioned
// user only ever restates what it is. The OIDC client's secret is never
// answered: the service keeps whether there is one (providerRec).

const capProvidersUpdate = "CAP_IAM_IDENTITY_PROVIDERS_UPDATE"

// providerSpec is how a provider is updated.
var providerSpec = sync.OnceValue(func() *maskSpec {
	return &maskSpec{
		fields:    jsonNames("uid", "name", "description", "create_time", "update_time", "default_role", "oidc", "scim"),
		updatable: []string{"name", "description", "default_role", "oidc"},
		members: map[string][]string{"oidc": {"issuer", "client_id", "client_secret", "additional_scopes", "groups_claim",
			"correlation_rule", "pkce_enabled"}},
		fixed: map[string]string{"scim": "only the SCIM token methods and SetScimEnabled change it",
			"uid": "the server sets it", "create_time": "the server sets it", "update_time": "the server sets it"}}
})

// providerRec is what the service keeps of a provider and never answers:
// whether its OIDC client has a secret, and when its SCIM token was made.
type providerRec struct {
	secret    bool
	tokenMade api.Time
}

// providerBody is a provider as an update sends it: as read, with the
// client secret that no read has.
type providerBody struct {
	api.IdentityProvider
	OIDC *struct {
		api.ProviderOIDC
		ClientSecret *string `json:"clientSecret"`
	} `json:"oidc"`
}

// hasSecret reports whether p's OIDC client has a secret. A provider the
// emulator has no record of (a seeded one) has one when it is a
// confidential client: without PKCE it could have none.
func (s *store) hasSecret(p *api.IdentityProvider) bool {
	if r, ok := s.provRecs[p.UID]; ok {
		return r.secret
	}
	return p.OIDC == nil || !p.OIDC.PKCEEnabled
}

func (c *call) patchProvider(uid string) *apiErr {
	st := c.st
	for _, capability := range []string{capProvidersUpdate, capBindingsCreate} {
		if e := c.p.require(domainIAM, capability, uid, false); e != nil {
			return e
		}
	}
	id, ok := st.providers.find(uid)
	if !ok {
		return notFound(domainIAM, typeIdentityProvider, uid)
	}
	var body providerBody
	raw, e := decodePatch(c, domainIAM, &body)
	if e != nil {
		return e
	}
	paths, e := c.updateMask(domainIAM, raw, providerSpec())
	if e != nil {
		return e
	}
	cur := st.providers.items[id]
	var next api.IdentityProvider
	if e := patched(c, domainIAM, &cur, raw, providerSpec(), &next); e != nil {
		return e
	}
	// What only the server sets stays as it is, whatever the body said.
	next.UID, next.SCIM, next.CreateTime, next.UpdateTime = cur.UID, cur.SCIM, cur.CreateTime, cur.UpdateTime
	if e := keepCorrelation(&cur, &next, body, paths); e != nil {
		return e
	}
	had := st.hasSecret(&cur)
	secret := had
	if body.OIDC != nil && body.OIDC.ClientSecret != nil {
		named := slices.Contains(paths, "oidc.client_secret")
		// The whole login named (or implied by the body) takes a secret
		// given; an empty one keeps what there is, unless the member
		// itself is named, or sent without a mask.
		whole := slices.Contains(paths, "oidc") && (*body.OIDC.ClientSecret != "" || len(c.r.URL.Query()["update_mask"]) == 0)
		if named || whole {
			secret = *body.OIDC.ClientSecret != ""
		}
	} else if slices.Contains(paths, "oidc.client_secret") {
		secret = false // named and absent: cleared
	}
	if e := c.checkProvider(&next, &cur, secret); e != nil {
		return e
	}
	rec := st.provRecs[uid]
	rec.secret = secret
	st.provRecs[uid] = rec
	if !sameJSON(next, cur) || had != secret {
		next.UpdateTime = c.now()
		st.providers.update(id, next)
	}
	writeJSON(c.w, c.shownProvider(next))
	return nil
}

// keepCorrelation holds the correlation rule to what it was: a body that
// leaves it out (or restates it) keeps it; one that changes it is refused.
func keepCorrelation(cur, next *api.IdentityProvider, body providerBody, paths []string) *apiErr {
	was := ""
	if cur.OIDC != nil {
		was = cur.OIDC.CorrelationRule
	}
	asked := ""
	if body.OIDC != nil {
		asked = body.OIDC.CorrelationRule
	}
	named := slices.Contains(paths, "oidc") || slices.Contains(paths, "oidc.correlation_rule")
	if named && asked != "" && asked != was && !(was == "" && asked == api.CorrelationSubject) {
		return badField(domainIAM, "identity_provider.oidc.correlation_rule",
			fmt.Sprintf("is fixed once the provider is made (%s): make another provider to match sign-ins another way", was))
	}
	if next.OIDC != nil {
		next.OIDC.CorrelationRule = was
	}
	return nil
}

// checkProvider checks a provider after an update (was: before it), with
// whether its client has a secret then.
func (c *call) checkProvider(p, was *api.IdentityProvider, secret bool) *apiErr {
	if p.Name != was.Name {
		if e := checkName(domainIAM, "name", p.Name, api.ProviderNameMin, api.ProviderNameMax); e != nil {
			return e
		}
	}
	if e := checkDescription(domainIAM, "description", p.Description); e != nil {
		return e
	}
	if p.DefaultRole != was.DefaultRole {
		r, ok := c.st.roles.get(p.DefaultRole)
		if !ok || !builtinRole(r.UID) && api.RootUID(r.UID) != api.RootUID(p.UID) {
			return badField(domainIAM, "default_role", fmt.Sprintf("%q is not a role of the organization", p.DefaultRole))
		}
	}
	o := p.OIDC
	if o == nil {
		return badField(domainIAM, "oidc", "is required: a provider signs users in with OIDC")
	}
	if e := checkHTTPSURL(domainIAM, "oidc.issuer", o.Issuer); e != nil {
		return e
	}
	switch {
	case o.ClientID == "":
		return badField(domainIAM, "oidc.client_id", "is required")
	case !secret && !o.PKCEEnabled:
		return badField(domainIAM, "oidc.client_secret", "is required unless pkce_enabled is set: a public client signs in with PKCE")
	}
	return nil
}
