package columns

import (
	"time"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/table"
)

// Who may come into the organization from outside: identity providers and
// group invites, each of a folder (FOLDER where a table spans folders).

// Providers are the columns of an identity provider table.
func Providers(c views.Common) []table.Column[api.IdentityProvider] { return ProvidersIn(c, nil) }

// ProvidersIn are the columns of an identity provider table spanning
// folders.
func ProvidersIn(c views.Common, folders Folders) []table.Column[api.IdentityProvider] {
	// An answer without the OIDC login leaves its cells empty.
	oidc := func(p *api.IdentityProvider) api.ProviderOIDC {
		if p.OIDC == nil {
			return api.ProviderOIDC{}
		}
		return *p.OIDC
	}
	return withFolder([]table.Column[api.IdentityProvider]{
		{Title: "NAME", Flex: 2, Min: 12, Max: 32, Order: "name", Cell: func(p *api.IdentityProvider) safe.Text { return safe.Of(p.Name) }},
		{Title: "ISSUER", Flex: 3, Min: 16, Search: true, Cell: func(p *api.IdentityProvider) safe.Text { return safe.Of(oidc(p).Issuer) }},
		{Title: "CLIENT ID", Flex: 2, Min: 10, Max: 40, Drop: 2, Search: true, Cell: func(p *api.IdentityProvider) safe.Text { return safe.Of(oidc(p).ClientID) }},
		{Title: "LOGIN", Width: 12, Drop: 3, Cell: func(p *api.IdentityProvider) safe.Text {
			if oidc(p).PKCEEnabled {
				return "oidc + pkce"
			}
			return "oidc"
		}},
		{Title: "SCIM", Width: 4, Drop: 4, Cell: func(p *api.IdentityProvider) safe.Text {
			if p.SCIM != nil && p.SCIM.Enabled {
				return "yes"
			}
			return "no"
		}},
		{Title: "UPDATED", Width: 7, Right: true, Order: "update_time", Cell: func(p *api.IdentityProvider) safe.Text { return age(c, p.UpdateTime) }},
	}, folders, api.IdentityProviderKey, 1)
}

// ProviderOrders is the `s` cycle of identity providers: by name, the
// first the table starts with (and canopy list prints in).
func ProviderOrders() []table.Order { return Orders()[:2] }

// Invites are the columns of a group invite table. An invite's code is a
// secret, said once in the answer to its create: no column shows it.
func Invites(c views.Common) []table.Column[api.GroupInvite] { return InvitesIn(c, nil) }

// InvitesIn are the columns of an invite table spanning folders: FOLDER
// is the one an invite joins people to.
func InvitesIn(c views.Common, folders Folders) []table.Column[api.GroupInvite] {
	return withFolder([]table.Column[api.GroupInvite]{
		{Title: "ROLE", Flex: 1, Min: 8, Max: 24, Cell: func(g *api.GroupInvite) safe.Text {
			if g.Role != nil && g.Role.Name != "" {
				return safe.Of(g.Role.Name)
			}
			return safe.Of(text.Short(g.RoleUID, 12))
		}},
		{Title: "FOR", Flex: 2, Min: 10, Search: true, Cell: func(g *api.GroupInvite) safe.Text { return safe.Of(InviteFor(g)) }},
		{Title: "EXPIRES", Width: 14, Cell: func(g *api.GroupInvite) safe.Text { return safe.Of(Expires(g.ExpirationTime, c.Clock())) }},
		{Title: "USES", Width: 5, Drop: 2, Cell: func(g *api.GroupInvite) safe.Text {
			if g.SingleUse {
				return "once"
			}
			return "many"
		}},
		{Title: "CREATED", Width: 7, Right: true, Drop: 1, Cell: func(g *api.GroupInvite) safe.Text { return age(c, g.CreateTime) }},
	}, folders, api.GroupInviteKey, 1)
}

// InviteOrders is the `s` cycle of invites: the server's own order only
// (newest first, the service says), as an invite has no name to sort by.
func InviteOrders() []table.Order { return []table.Order{{Label: "server order"}} }

// InviteFor is who may redeem an invite: its one address, else "anyone".
func InviteFor(g *api.GroupInvite) string {
	if g.Email == "" {
		return "anyone"
	}
	return g.Email
}

// Expires is how long an invite has left, as its EXPIRES column and page
// say it: "in 7 days", "in 5 hours", "expired" once it has. It is rounded
// to the unit it is said in, not cut down to it: an invite made to last 7
// days reads "in 7 days" (not "in 6 days") for its first half day, one of
// 2 days "in 2 days" (not "in 47 hours").
func Expires(t api.Time, now time.Time) string {
	switch {
	case t.IsZero():
		return "—"
	case !t.Time().After(now):
		return "expired"
	}
	d := t.Time().Sub(now)
	r := d.Round(time.Minute)
	if r >= time.Hour {
		r = d.Round(time.Hour)
	}
	if r >= 48*time.Hour { // where text.Ago counts in days
		r = d.Round(24 * time.Hour)
	}
	if r < time.Minute {
		return "in seconds"
	}
	// A whole number of the unit: Ago, which cuts down, says it exactly.
	return text.Ago(now.Add(r), now)
}
