package emulator

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"canopy/api"
)

// Identity providers and group invites, as the service keeps them: a
// provider's OIDC client secret is taken on create and never answered; an
// invite's code is answered once, by the create.

const (
	capProvidersList   = "CAP_IAM_IDENTITY_PROVIDERS_LIST"
	capProvidersCreate = "CAP_IAM_IDENTITY_PROVIDERS_CREATE"
	capProvidersDelete = "CAP_IAM_IDENTITY_PROVIDERS_DELETE"
	capInvitesList     = "CAP_IAM_GROUP_INVITES_LIST"
	capInvitesCreate   = "CAP_IAM_GROUP_INVITES_CREATE"
	capInvitesDelete   = "CAP_IAM_GROUP_INVITES_DELETE"

	typeIdentityProvider = "chainguard.iam.v2.IdentityProvider"
	typeGroupInvite      = "chainguard.iam.v2.GroupInvite"
)

// maxInviteTTL is the longest an invite may last here.
const maxInviteTTL = 30 * day

func (c *call) identityProviders(rest string) *apiErr {
	st := c.st
	if uid, verb, ok := strings.Cut(rest, ":"); ok {
		// A custom method of one provider: its verb follows the uid.
		return c.scimVerb(uid, verb)
	}
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		return listMembers(c, domainIAM, sortNamed, listSpec[api.IdentityProvider]{c: st.providers, plural: "identityProviders", mask: maskAll,
			keep: scopedKeep(c.p, capProvidersList, false, api.IdentityProviderKey),
			// A list leaves the provisioning token's state and times out.
			out: func(p *api.IdentityProvider) any { return listedProvider(*p) }})
	case rest == "":
		return methodNotAllowed(domainIAM, c.r)
	case c.r.Method == http.MethodGet:
		return getMember(c, domainIAM, capProvidersList, typeIdentityProvider, st.providers, rest,
			func(p *api.IdentityProvider) any { return c.shownProvider(*p) })
	case c.r.Method == http.MethodPost:
		return c.createProvider(rest)
	case c.r.Method == http.MethodPatch:
		return c.patchProvider(rest)
	case c.r.Method == http.MethodDelete:
		if e := deleteMember(c, domainIAM, capProvidersDelete, typeIdentityProvider, st.providers, rest); e != nil {
			return e
		}
		// Its mappings go with it: they grant nothing without it.
		st.mappings.removeAll(st.mappings.childIDs(rest))
		return nil
	default:
		return methodNotAllowed(domainIAM, c.r)
	}
}

// listedProvider is p as a list shows it: without the SCIM token's state.
func listedProvider(p api.IdentityProvider) api.IdentityProvider {
	if p.SCIM != nil {
		p.SCIM = &api.ProviderSCIM{Enabled: p.SCIM.Enabled, EndpointURL: p.SCIM.EndpointURL}
	}
	return p
}

func (c *call) createProvider(parent string) *apiErr {
	if _, e := c.parentGroup(domainIAM, capProvidersCreate, parent, false); e != nil {
		return e
	}
	var body api.NewIdentityProvider
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if e := checkName(domainIAM, "name", body.Name, 3, 63); e != nil {
		return e
	}
	if e := checkDescription(domainIAM, "description", body.Description); e != nil {
		return e
	}
	if _, ok := c.st.roles.get(body.DefaultRole); !ok {
		return badField(domainIAM, "default_role", fmt.Sprintf("%q is not a role", body.DefaultRole))
	}
	o := body.OIDC
	if e := checkHTTPSURL(domainIAM, "oidc.issuer", o.Issuer); e != nil {
		return e
	}
	switch {
	case strings.TrimSpace(o.ClientID) == "":
		return badField(domainIAM, "oidc.client_id", "is required")
	case o.ClientSecret == "" && !o.PKCEEnabled:
		return badField(domainIAM, "oidc.client_secret", "is required unless pkce_enabled is set")
	}
	now := c.now()
	uid := c.st.childUID(parent)
	p := api.IdentityProvider{UID: uid, Name: body.Name, Description: body.Description, DefaultRole: body.DefaultRole,
		OIDC: &api.ProviderOIDC{Issuer: o.Issuer, ClientID: o.ClientID, AdditionalScopes: o.AdditionalScopes,
			GroupsClaim: o.GroupsClaim, CorrelationRule: api.CorrelationSubject, PKCEEnabled: o.PKCEEnabled},
		SCIM:       &api.ProviderSCIM{EndpointURL: scimEndpoint(uid), CredentialState: "CREDENTIAL_STATE_NOT_ISSUED"},
		CreateTime: now, UpdateTime: now}
	c.st.providers.insert(p)
	c.st.provRecs[uid] = providerRec{secret: o.ClientSecret != ""}
	writeJSON(c.w, p)
	return nil
}

// scimEndpoint is where a provider's users are provisioned, from its uid.
func scimEndpoint(uid string) string {
	return "https://scim.enforce.dev/v2/" + strings.ReplaceAll(uid, "/", "-")
}

// inviteBody is a create's body: the duration as the service writes one.
type inviteBody struct {
	RoleUID   string `json:"roleUid"`
	Email     string `json:"email"`
	TTL       string `json:"ttl"`
	SingleUse bool   `json:"singleUse"`
}

func (c *call) groupInvites(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		return listMembers(c, domainIAM, sortUnnamed, listSpec[api.GroupInvite]{c: st.invites, plural: "groupInvites", mask: maskAll,
			keep: scopedKeep(c.p, capInvitesList, false, api.GroupInviteKey),
			out:  func(g *api.GroupInvite) any { return c.shownInvite(*g) }})
	case rest == "":
		return methodNotAllowed(domainIAM, c.r)
	case c.r.Method == http.MethodGet:
		return getMember(c, domainIAM, capInvitesList, typeGroupInvite, st.invites, rest,
			func(g *api.GroupInvite) any { return c.shownInvite(*g) })
	case c.r.Method == http.MethodPost:
		return c.createInvite(rest)
	case c.r.Method == http.MethodDelete:
		return deleteMember(c, domainIAM, capInvitesDelete, typeGroupInvite, st.invites, rest)
	default:
		return methodNotAllowed(domainIAM, c.r)
	}
}

// shownInvite is g as reads show it: its role described, never its code.
func (c *call) shownInvite(g api.GroupInvite) api.GroupInvite {
	g.Code = ""
	if r, ok := c.st.roles.get(g.RoleUID); ok {
		g.Role = &api.InviteRole{UID: r.UID, Name: r.Name, Description: r.Description, Capabilities: r.Capabilities}
	}
	return g
}

func (c *call) createInvite(parent string) *apiErr {
	if _, e := c.parentGroup(domainIAM, capInvitesCreate, parent, false); e != nil {
		return e
	}
	if e := c.p.require(domainIAM, capBindingsCreate, parent, false); e != nil {
		return e
	}
	var body inviteBody
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if _, ok := c.st.roles.get(body.RoleUID); !ok {
		return badField(domainIAM, "role_uid", fmt.Sprintf("%q is not a role", body.RoleUID))
	}
	ttl, err := parseDuration(body.TTL)
	if err != nil || ttl <= 0 || ttl > maxInviteTTL {
		return badField(domainIAM, "ttl", fmt.Sprintf("%q must be a duration in seconds (\"86400s\"), more than 0 and at most %ds",
			body.TTL, int(maxInviteTTL.Seconds())))
	}
	if body.Email != "" && (!strings.Contains(body.Email, "@") || strings.ContainsAny(body.Email, " \t")) {
		return badField(domainIAM, "email", fmt.Sprintf("%q is not an email address", body.Email))
	}
	now := c.now()
	g := api.GroupInvite{UID: c.st.childUID(parent), RoleUID: body.RoleUID, Email: body.Email, SingleUse: body.SingleUse,
		ExpirationTime: api.TimeOf(now.Time().Add(ttl)), KeyID: c.st.hex16(), Code: inviteCode(c.st.rng), CreateTime: now}
	c.st.invites.insert(g)
	out := c.shownInvite(g)
	out.Code = g.Code // said once, here
	writeJSON(c.w, out)
	return nil
}

// parseDuration reads a duration as the service writes one: seconds, with
// a fraction or not, and an "s".
func parseDuration(s string) (time.Duration, error) {
	n, ok := strings.CutSuffix(s, "s")
	if !ok {
		return 0, fmt.Errorf("%q does not end in s", s)
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil || f > float64(1<<62)/float64(time.Second) {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// inviteCode is a fresh invite code.
func inviteCode(rng *rand.Rand) string {
	return fmt.Sprintf("cgi_%016x%016x", rng.Uint64(), rng.Uint64())
}
