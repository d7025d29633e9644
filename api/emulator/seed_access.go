package emulator

import (
	"fmt"
	"math/rand/v2"
	"time"

	"canopy/api"
)

// seedAccess adds the primary organization's identity providers, group
// invites and the providers' external group role mappings. It draws from
// a generator of its own, so the data seeded before it and after it is
// what it was without it.
func (s *seeder) seedAccess(seedVal uint64, org string) {
	rng := rand.New(rand.NewPCG(seedVal^0xacce55, seedVal))
	hex16 := func() string { return fmt.Sprintf("%016x", rng.Uint64()) }
	at := func(ago time.Duration) api.Time { return api.TimeOf(s.now.Add(-ago).Truncate(time.Second)) }
	viewer, editor := builtinRoleUID("viewer"), builtinRoleUID("editor")

	okta := org + "/" + hex16()
	s.providers.add(api.IdentityProvider{UID: okta, Name: "okta-sso", Description: "Staff sign-in through Okta",
		DefaultRole: viewer,
		OIDC: &api.ProviderOIDC{Issuer: "https://acme.okta.com", ClientID: "0oa8f3k2m1QxYz7Lq5d7",
			AdditionalScopes: []string{"profile", "email", "groups"}, GroupsClaim: "groups",
			CorrelationRule: api.CorrelationSubject, PKCEEnabled: true},
		SCIM: &api.ProviderSCIM{Enabled: true, EndpointURL: scimEndpoint(okta), CredentialState: "CREDENTIAL_STATE_LIVE",
			TokenExpireTime: at(-60 * day), Etag: hex16()},
		CreateTime: at(400 * day), UpdateTime: at(20 * day)})
	entra := org + "/" + hex16()
	s.providers.add(api.IdentityProvider{UID: entra, Name: "entra-contractors", Description: "Contractors, through Microsoft Entra ID",
		DefaultRole: viewer,
		OIDC: &api.ProviderOIDC{Issuer: "https://login.microsoftonline.com/5b8e2c41-7d3a-4f09-9e6b-1c2d3e4f5a6b/v2.0",
			ClientID: "a1b2c3d4-e5f6-4789-abcd-ef0123456789", GroupsClaim: "groups", CorrelationRule: api.CorrelationObjectID},
		SCIM: &api.ProviderSCIM{EndpointURL: scimEndpoint(entra), CredentialState: "CREDENTIAL_STATE_EXPIRED",
			TokenExpireTime: at(12 * day), Etag: hex16()},
		CreateTime: at(200 * day), UpdateTime: at(12 * day)})

	for _, in := range []struct {
		role      string
		email     string
		singleUse bool
		made, ttl time.Duration
	}{
		{viewer, "dana@acme.example", true, 2 * day, 7 * day},
		{editor, "", false, 10 * day, 14 * day},
		{viewer, "erik@partner.example", true, 20 * day, 7 * day}, // expired
	} {
		made := at(in.made)
		s.invites.add(api.GroupInvite{UID: org + "/" + hex16(), RoleUID: in.role, Email: in.email, SingleUse: in.singleUse,
			ExpirationTime: api.TimeOf(made.Time().Add(in.ttl)), KeyID: hex16(),
			Code: fmt.Sprintf("cgi_%016x%016x", rng.Uint64(), rng.Uint64()), CreateTime: made})
	}

	// The providers' groups and the roles they give, on the organization
	// (the one scope a mapping takes); last, so the rest draws as before.
	auditor := ""
	for i := range s.roles.items {
		if r := &s.roles.items[i]; r.Name == "auditor" && api.RootUID(r.UID) == org {
			auditor = r.UID
		}
	}
	for _, m := range []struct {
		provider, group, role string
		made                  time.Duration
	}{
		{okta, "acme-platform-admins", builtinRoleUID("owner"), 390 * day},
		{okta, "acme-engineering", editor, 300 * day},
		{okta, "acme-security-review", auditor, 45 * day},
		{entra, "b7e4c2a9-5d31-4f8e-9a60-2c7d1e3f4b58", viewer, 190 * day},
	} {
		s.mappings.add(api.ExternalGroupRoleMapping{UID: m.provider + "/" + hex16(), IdentityProviderUID: m.provider,
			ExternalGroupID: m.group, RoleUID: m.role, Scope: org, CreateTime: at(m.made)})
	}
}
