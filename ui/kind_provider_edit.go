package ui

import (
	"context"
	"strconv"
	"strings"

	"canopy/api"
	"canopy/views/form"
)

// An identity provider's edits, one mask path each, as other kinds' are:
// `e` on its row edits the description in place; on its page the field
// cursor reaches each. Its default role is typed by name (or uid); its
// client secret is typed as dots, sent, and neither shown, noted nor kept
// (it cannot be undone: no read returns the old one). How a sign-in is
// matched to a provisioned user is fixed once the provider is made, and its
// SCIM state has keys of its own (scim.go).

func (providerKind) edits(c *api.Client, p *api.IdentityProvider) []edit { return providerEdits(c, p) }

// providerEdits are p's updatable parts, its description first.
func providerEdits(c *api.Client, p *api.IdentityProvider) []edit {
	it := *p
	o := api.ProviderOIDC{}
	if p.OIDC != nil {
		o = *p.OIDC
	}
	// one is the edit of mask: f's value set into the update by set.
	one := func(mask string, f form.Field, set func(u *api.ProviderUpdate, v string)) edit {
		return edit{mask: mask, sends: api.IdentityProviders.Patch(it.UID, mask), name: it.Name, noun: "identity provider",
			fields: []form.Field{f},
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				next := api.UpdateOf(&it)
				set(&next, v[f.Key])
				if mask == api.FieldDefaultRole {
					role, err := roleNamed(ctx, c, api.RootUID(it.UID), f.Key, strings.TrimSpace(next.DefaultRole))
					if err != nil {
						return nil, err
					}
					next.DefaultRole = role
				}
				return c.PatchIdentityProvider(ctx, it.UID, next, mask)
			}}
	}
	secret := one(api.FieldOIDCClientSecret, form.Field{Key: "oidc.clientSecret", Label: "client secret", Secret: true,
		Placeholder: "the new secret; empty: none (a public client, with pkce)"},
		func(u *api.ProviderUpdate, v string) { u.OIDC.ClientSecret = v })
	secret.secret = true
	return []edit{
		one(api.FieldDescription, form.Field{Key: "description", Label: "description", Value: it.Description, Validate: description,
			Max: api.DescriptionMax}, func(u *api.ProviderUpdate, v string) { u.Description = v }),
		one(api.FieldName, form.Field{Key: "name", Label: "name", Value: it.Name, Validate: providerName, Max: api.ProviderNameMax},
			func(u *api.ProviderUpdate, v string) { u.Name = v }),
		one(api.FieldDefaultRole, form.Field{Key: "defaultRole", Label: "default role", Value: it.DefaultRole, Validate: required,
			Placeholder: "a role's name or uid"}, func(u *api.ProviderUpdate, v string) { u.DefaultRole = v }),
		one(api.FieldOIDCIssuer, form.Field{Key: "oidc.issuer", Label: "issuer", Value: o.Issuer, Validate: issuerURL},
			func(u *api.ProviderUpdate, v string) { u.OIDC.Issuer = v }),
		one(api.FieldOIDCClientID, form.Field{Key: "oidc.clientId", Label: "client id", Value: o.ClientID, Validate: required},
			func(u *api.ProviderUpdate, v string) { u.OIDC.ClientID = v }),
		secret,
		one(api.FieldOIDCScopes, form.Field{Key: "oidc.additionalScopes", Label: "scopes", Value: joined(o.AdditionalScopes),
			Placeholder: "comma separated (openid is always asked)"},
			func(u *api.ProviderUpdate, v string) { u.OIDC.AdditionalScopes = list(v) }),
		one(api.FieldOIDCGroupsClaim, form.Field{Key: "oidc.groupsClaim", Label: "groups claim", Value: o.GroupsClaim,
			Placeholder: "the claim listing the user's groups"},
			func(u *api.ProviderUpdate, v string) { u.OIDC.GroupsClaim = strings.TrimSpace(v) }),
		one(api.FieldOIDCPKCE, form.Field{Key: "oidc.pkceEnabled", Label: "pkce", Value: strconv.FormatBool(o.PKCEEnabled),
			Choices: []string{"false", "true"}, ChoiceLabel: choiceYesNo},
			func(u *api.ProviderUpdate, v string) { u.OIDC.PKCEEnabled = v == "true" }),
	}
}
