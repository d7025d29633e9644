package emulator

import (
	"fmt"
	"net/http"
	"time"

	"canopy/api"
)

// An identity provider's SCIM provisioning, as the service keeps it: no
// token, only whether one was made (and when), until when it and the one
// it replaced work, whether it was revoked, whether provisioning is on,
// and a version (etag) that a regenerate and a switch must name. A token
// is said once, in the answer that makes it. Each call is a verb after the
// provider's uid (":generateScimToken"), never part of the uid.

const capScimManage = "CAP_IAM_SCIM_MANAGE"

// Bounds the service puts on a token's life and a rotation's overlap.
const (
	scimDefaultLife    = 365 * day
	scimMaxLife        = 2 * 365 * day
	scimDefaultOverlap = time.Hour
	scimMaxOverlap     = day
)

// scimVerb answers a SCIM method of the provider uid.
func (c *call) scimVerb(uid, verb string) *apiErr {
	run, ok := map[string]func(*api.IdentityProvider, *api.ProviderSCIM) *apiErr{
		api.VerbGenerateScimToken:   c.generateScim,
		api.VerbRegenerateScimToken: c.regenerateScim,
		api.VerbRevokeScimToken:     c.revokeScim,
		api.VerbSetScimEnabled:      c.switchScim,
	}[verb]
	switch {
	case !ok:
		return noRoute()
	case c.r.Method != http.MethodPost:
		return methodNotAllowed(domainIAM, c.r)
	}
	for _, capability := range []string{capScimManage, capProvidersList} {
		if e := c.p.require(domainIAM, capability, uid, false); e != nil {
			return e
		}
	}
	id, found := c.st.providers.find(uid)
	if !found {
		return notFound(domainIAM, typeIdentityProvider, uid)
	}
	p := c.st.providers.items[id]
	s := api.ProviderSCIM{EndpointURL: scimEndpoint(uid), CredentialState: api.CredentialNotIssued}
	if p.SCIM != nil {
		s = *p.SCIM
	}
	if e := run(&p, &s); e != nil {
		return e
	}
	p.SCIM = &s
	c.st.providers.update(id, p)
	return nil
}

// samePath refuses a body that names another provider than the path.
func samePath(p *api.IdentityProvider, named string) *apiErr {
	if named != "" && named != p.UID {
		return badField(domainIAM, "identity_provider_uid", fmt.Sprintf("%q is not the provider of the path (%s)", named, p.UID))
	}
	return nil
}

// tokenLife is when a new token expires: asked, for ever (zero), or the
// default.
func (c *call) tokenLife(expire api.Time, never bool) (api.Time, *apiErr) {
	now := c.now()
	switch {
	case never && !expire.IsZero():
		return api.Time{}, badField(domainIAM, "expire_time", "is set with never_expires: ask for one of them")
	case never:
		return api.Time{}, nil
	case expire.IsZero():
		return api.TimeOf(now.Time().Add(scimDefaultLife)), nil
	case !expire.After(now) || expire.Time().After(now.Time().Add(scimMaxLife)):
		return api.Time{}, badField(domainIAM, "expire_time", "must be in the future, at most two years from now")
	}
	return expire, nil
}

// scimToken is a fresh token: "cgscim_" and 64 hexadecimal digits.
func (c *call) scimToken() string {
	r := c.st.rng
	return fmt.Sprintf("cgscim_%016x%016x%016x%016x", r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64())
}

// newToken records a token made now, lasting until expire.
func (c *call) newToken(p *api.IdentityProvider, s *api.ProviderSCIM, expire api.Time) {
	s.CredentialState, s.TokenExpireTime = api.CredentialLive, expire
	rec := c.st.provRecs[p.UID]
	rec.tokenMade = c.now()
	c.st.provRecs[p.UID] = rec
}

func (c *call) generateScim(p *api.IdentityProvider, s *api.ProviderSCIM) *apiErr {
	var body struct {
		IdentityProviderUID string   `json:"identityProviderUid"`
		ExpireTime          api.Time `json:"expireTime"`
		NeverExpires        bool     `json:"neverExpires"`
	}
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if e := samePath(p, body.IdentityProviderUID); e != nil {
		return e
	}
	if s.CredentialState != api.CredentialNotIssued {
		return newErr(api.CodeFailedPrecondition, domainIAM, fmt.Sprintf("identity provider %q has had a SCIM token: regenerate it", p.Name),
			api.Detail{PreconditionFailure: &api.PreconditionFailure{Violations: []api.PreconditionViolation{{
				Type: "SCIM_TOKEN_EXISTS", Subject: p.UID, Description: "a token was generated before: use RegenerateScimToken"}}}})
	}
	expire, e := c.tokenLife(body.ExpireTime, body.NeverExpires)
	if e != nil {
		return e
	}
	c.newToken(p, s, expire)
	s.PreviousTokenExpireTime = api.Time{}
	etag := c.st.hex16()
	writeJSON(c.w, api.ScimToken{Token: c.scimToken(), EndpointURL: s.EndpointURL, ExpireTime: expire,
		IdentityProviderUID: p.UID, Etag: etag})
	s.Etag = etag
	return nil
}

func (c *call) regenerateScim(p *api.IdentityProvider, s *api.ProviderSCIM) *apiErr {
	var body struct {
		IdentityProviderUID string   `json:"identityProviderUid"`
		Overlap             *string  `json:"overlap"`
		ExpireTime          api.Time `json:"expireTime"`
		Etag                string   `json:"etag"`
		NeverExpires        bool     `json:"neverExpires"`
	}
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if e := samePath(p, body.IdentityProviderUID); e != nil {
		return e
	}
	if s.CredentialState == api.CredentialNotIssued {
		return notFound(domainIAM, "chainguard.iam.v2.IdentityProvider.SCIM", p.UID)
	}
	if e := c.checkEtag(s, body.Etag); e != nil {
		return e
	}
	overlap := scimDefaultOverlap
	if body.Overlap != nil {
		d, err := parseDuration(*body.Overlap)
		if err != nil || d < 0 {
			return badField(domainIAM, "overlap", fmt.Sprintf("%q must be a duration of 0s or more (\"3600s\")", *body.Overlap))
		}
		overlap = min(d, scimMaxOverlap)
	}
	expire, e := c.tokenLife(body.ExpireTime, body.NeverExpires)
	if e != nil {
		return e
	}
	now := c.now()
	var previous api.Time
	if st := shownScim(*s, now).CredentialState; overlap > 0 && (st == api.CredentialLive || st == api.CredentialRotating) {
		// The token replaced works a while more, never past its own end.
		previous = api.TimeOf(now.Time().Add(overlap))
		if !s.TokenExpireTime.IsZero() && s.TokenExpireTime.Before(previous) {
			previous = s.TokenExpireTime
		}
	}
	c.newToken(p, s, expire)
	s.PreviousTokenExpireTime = previous
	etag := c.st.hex16()
	writeJSON(c.w, api.RegeneratedScimToken{Token: c.scimToken(), EndpointURL: s.EndpointURL, ExpireTime: expire,
		IdentityProviderUID: p.UID, Etag: etag, PreviousTokenExpireTime: previous,
		RequestedOverlap: fmt.Sprintf("%gs", overlap.Seconds())})
	s.Etag = etag
	return nil
}

func (c *call) revokeScim(p *api.IdentityProvider, s *api.ProviderSCIM) *apiErr {
	var body struct {
		IdentityProviderUID string `json:"identityProviderUid"`
	}
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if e := samePath(p, body.IdentityProviderUID); e != nil {
		return e
	}
	if s.CredentialState == api.CredentialNotIssued {
		return notFound(domainIAM, "chainguard.iam.v2.IdentityProvider.SCIM", p.UID)
	}
	// Revoking again is no change, and no error: the token stays dead.
	now := c.now()
	if s.CredentialState != api.CredentialRevoked {
		s.CredentialState, s.TokenExpireTime = api.CredentialRevoked, now
	}
	s.PreviousTokenExpireTime = api.Time{}
	etag := c.st.hex16()
	writeJSON(c.w, api.ScimRevoked{IdentityProviderUID: p.UID, Etag: etag, Enabled: s.Enabled, RevokeTime: now})
	s.Etag = etag
	return nil
}

func (c *call) switchScim(p *api.IdentityProvider, s *api.ProviderSCIM) *apiErr {
	var body struct {
		IdentityProviderUID string `json:"identityProviderUid"`
		Enabled             *bool  `json:"enabled"`
		Etag                string `json:"etag"`
	}
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if e := samePath(p, body.IdentityProviderUID); e != nil {
		return e
	}
	if body.Enabled == nil {
		return badField(domainIAM, "enabled", "is required")
	}
	if e := c.checkEtag(s, body.Etag); e != nil {
		return e
	}
	if org := api.RootUID(p.UID); *body.Enabled && c.st.owners(org) < 2 {
		// SCIM could otherwise remove the organization's only owner.
		return newErr(api.CodeFailedPrecondition, domainIAM,
			"turning SCIM provisioning on takes at least two owners of the organization bound by hand",
			api.Detail{PreconditionFailure: &api.PreconditionFailure{Violations: []api.PreconditionViolation{{
				Type: "TOO_FEW_OWNERS", Subject: org,
				Description: fmt.Sprintf("the organization has %d owner bindings made by hand; bind another owner first", c.st.owners(org))}}}})
	}
	s.Enabled = *body.Enabled
	etag := c.st.hex16()
	writeJSON(c.w, api.ScimSwitched{IdentityProviderUID: p.UID, Enabled: s.Enabled, Etag: etag})
	s.Etag = etag
	return nil
}

// checkEtag refuses a lifecycle change that names a SCIM version other than
// the current one: someone changed it since it was read.
func (c *call) checkEtag(s *api.ProviderSCIM, etag string) *apiErr {
	switch {
	case etag == "":
		return badField(domainIAM, "etag", "is required: the SCIM etag of the provider as read")
	case etag != s.Etag:
		return newErr(api.CodeAborted, domainIAM, fmt.Sprintf("the SCIM configuration changed since etag %q was read: read it again", etag))
	}
	return nil
}

// owners counts the organization's bindings of the built-in owner role.
func (s *store) owners(org string) int {
	n := 0
	for _, id := range s.bindings.childIDs(org) {
		if s.bindings.items[id].RoleUID == builtinRoleUID("owner") {
			n++
		}
	}
	return n
}

// shownScim is a provider's SCIM state as a read says it at now: the
// token's state follows from its times (expired, or rotating while the
// one it replaced still works).
func shownScim(s api.ProviderSCIM, now api.Time) api.ProviderSCIM {
	switch s.CredentialState {
	case api.CredentialNotIssued, api.CredentialRevoked, "":
		return s
	}
	switch {
	case !s.TokenExpireTime.IsZero() && !now.Before(s.TokenExpireTime):
		s.CredentialState = api.CredentialExpired
	case !s.PreviousTokenExpireTime.IsZero() && now.Before(s.PreviousTokenExpireTime):
		s.CredentialState = api.CredentialRotating
	default:
		s.CredentialState = api.CredentialLive
	}
	return s
}

// shownProvider is p as a read of it says it: its SCIM state as of now.
func (c *call) shownProvider(p api.IdentityProvider) api.IdentityProvider {
	if p.SCIM != nil {
		s := shownScim(*p.SCIM, c.now())
		p.SCIM = &s
	}
	return p
}
