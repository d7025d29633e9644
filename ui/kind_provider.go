package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/table"
)

// providerKind: an identity provider, through which people sign in to the
// organization with their company's single sign-on (OIDC), and which may
// provision them (SCIM).
type providerKind struct{ is[api.IdentityProvider] }

func (providerKind) of() string { return resource.Provider }
func (providerKind) shape() shape {
	return shape{list: "identityProviders", byName: true}
}
func (providerKind) folder(p *api.IdentityProvider) string { return api.ParentUID(p.UID) }
func (providerKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "identity providers of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (providerKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return providersTable(e, ctx, title, o)
}

// page: a list leaves out the provisioning token's state, so the page
// reads the provider (loadProvider) and names its default role; its own
// keys are the SCIM token's and switch's (scim.go).
func (providerKind) page(e *env) detail.Page {
	c := e.client
	return detail.LoadedPage(api.IdentityProviderKey, func(p *api.IdentityProvider) []detail.Field { return providerFields(p, p.DefaultRole) },
		func(ctx context.Context, p *api.IdentityProvider) ([]detail.Field, error) {
			return loadProvider(ctx, c, p)
		}).WithKeys(e.scimKeys)
}
func (providerKind) create(e *env, parent, parentName string) tea.Cmd {
	return newProvider(e, parent, parentName)
}
func (providerKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteIdentityProvider(ctx, uid)
}
func (providerKind) get(c *api.Client, ctx context.Context, uid string) (*api.IdentityProvider, error) {
	return c.GetIdentityProvider(ctx, uid)
}
func (providerKind) lost(_ *env, cfg *dialog.Config, ps []*api.IdentityProvider) {
	if len(ps) > 1 {
		cfg.Lines = append(cfg.Lines, "Sign-ins through these providers stop; the identities of who signed in stay.")
		return
	}
	cfg.Lines = append(cfg.Lines, "Sign-ins through "+safe.Of(ps[0].Name)+" stop; the identities of who signed in stay.")
}

func providersTable(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.IdentityProvider]{Title: title, Refused: e.orders.of("identityProviders"),
		Columns: columns.ProvidersIn(e.common, e.folderColumn(o)), Loaded: loadedIn(e, o, api.IdentityProviderKey),
		List: paging.New(ctx, source(e.client.ListIdentityProviders, o), api.IdentityProviderKey), Key: api.IdentityProviderKey,
		Orders: columns.ProviderOrders(), Open: pageOf[api.IdentityProvider](e), Copy: uidCopy(api.IdentityProviderKey),
		Edit:   editOf[api.IdentityProvider](ctx, e),
		New:    func() tea.Cmd { return newProvider(e, scopeOf(o), whereOf(string(title))) },
		Watch:  kindFor[api.IdentityProvider](e.kinds).watched,
		Delete: rowDelete[api.IdentityProvider](e)})
}

// loadProvider reads a provider whole and the name of its default role
// (a role of its organization, built-in ones included), for its page.
func loadProvider(ctx context.Context, c *api.Client, listed *api.IdentityProvider) ([]detail.Field, error) {
	p, err := c.GetIdentityProvider(ctx, listed.UID)
	if err != nil {
		return nil, fmt.Errorf("get identity provider: %w", err)
	}
	role := p.DefaultRole
	org, _, _ := strings.Cut(p.UID, "/")
	roles, err := c.RolesOf(ctx, org)
	if err != nil {
		return nil, fmt.Errorf("name its default role: %w", err)
	}
	for _, r := range roles {
		if r.UID == p.DefaultRole {
			role = r.Name + "  (" + r.UID + ")"
		}
	}
	return providerFields(p, role), nil
}

// providerFields are what a provider's page shows below its uid, its
// default role as role says it.
func providerFields(p *api.IdentityProvider, role string) []detail.Field {
	fs := []detail.Field{{Label: "description", Value: p.Description}, {Label: "default role", Value: role}}
	if o := p.OIDC; o != nil {
		fs = append(fs, detail.Field{Section: "OIDC LOGIN"},
			detail.Field{Label: "issuer", Value: o.Issuer}, detail.Field{Label: "client id", Value: o.ClientID},
			detail.Field{Label: "client secret", Value: "write-only: no read says it, nor whether there is one"},
			detail.Field{Label: "scopes", Value: strings.Join(append([]string{"openid"}, o.AdditionalScopes...), ", ")},
			detail.Field{Label: "groups claim", Value: o.GroupsClaim},
			detail.Field{Label: "matched by", Value: strings.ToLower(strings.TrimPrefix(o.CorrelationRule, "CORRELATION_RULE_"))},
			detail.Field{Label: "pkce", Value: yesNo(o.PKCEEnabled)})
	}
	if s := p.SCIM; s != nil {
		fs = append(fs, detail.Field{Section: "SCIM PROVISIONING"},
			detail.Field{Label: "enabled", Value: yesNo(s.Enabled)}, detail.Field{Label: "endpoint", Value: s.EndpointURL},
			detail.Field{Label: "token", Value: strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(s.CredentialState, "CREDENTIAL_STATE_"), "_", " "))},
			detail.Field{Label: "token expires", When: s.TokenExpireTime})
	}
	return append(fs, detail.Field{Label: "created", When: p.CreateTime}, detail.Field{Label: "updated", When: p.UpdateTime})
}

// newProvider is the form of a new identity provider in a folder: an OIDC
// login, confidential (a client secret) or public (PKCE).
func newProvider(e *env, parent, parentName string) tea.Cmd {
	c, org := e.client, e.org.UID
	return e.createForm("identity provider", parentName, creation{parent: parent,
		sends: api.IdentityProviders.Create(parent), named: "name",
		fields: []form.Field{
			{Key: "name", Label: "name", Validate: providerName, Max: api.ProviderNameMax},
			{Key: "description", Label: "description", Validate: description, Max: api.DescriptionMax},
			{Key: "defaultRole", Label: "default role", Value: "viewer", Placeholder: "the role of who signs in first", Validate: required},
			{Key: "oidc.issuer", Label: "issuer", Placeholder: "https://login.example.com", Validate: issuerURL},
			{Key: "oidc.clientId", Label: "client id", Validate: required},
			{Key: "oidc.clientSecret", Label: "client secret", Placeholder: "none for a public client (pkce)", Secret: true},
			{Key: "oidc.pkceEnabled", Label: "pkce", Value: "false", Choices: []string{"false", "true"}, ChoiceLabel: choiceYesNo},
			{Key: "oidc.additionalScopes", Label: "more scopes", Placeholder: "comma separated (openid is always asked)"},
			{Key: "oidc.groupsClaim", Label: "groups claim", Placeholder: "the claim listing the user's groups"},
		},
		submit: func(ctx context.Context, v map[string]string) (any, error) {
			pkce := v["oidc.pkceEnabled"] == "true"
			if v["oidc.clientSecret"] == "" && !pkce {
				return nil, &fieldError{key: "oidc.clientSecret", why: "a client secret, or pkce for a public client"}
			}
			role, err := roleNamed(ctx, c, org, "defaultRole", strings.TrimSpace(v["defaultRole"]))
			if err != nil {
				return nil, err
			}
			return c.CreateIdentityProvider(ctx, parent, api.NewIdentityProvider{Name: v["name"], Description: v["description"], DefaultRole: role,
				OIDC: api.NewOIDCLogin{Issuer: v["oidc.issuer"], ClientID: v["oidc.clientId"], ClientSecret: v["oidc.clientSecret"],
					PKCEEnabled: pkce, AdditionalScopes: list(v["oidc.additionalScopes"]), GroupsClaim: strings.TrimSpace(v["oidc.groupsClaim"])}})
		},
		find: func(ctx context.Context, v map[string]string) (any, error) {
			return found(c.FindIdentityProvider(ctx, parent, v["name"]))
		}})
}

// providerName is the service's bound on a provider's name.
func providerName(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("required")
	}
	if n := api.Chars(s); n < api.ProviderNameMin || n > api.ProviderNameMax {
		return fmt.Errorf("%d to %d characters", api.ProviderNameMin, api.ProviderNameMax)
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// choiceYesNo reads a "true"/"false" choice as yes or no.
func choiceYesNo(v string) string { return yesNo(v == "true") }
