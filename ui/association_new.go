package ui

import (
	"context"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/picker"
)

// newAssociation is n on a folder's associations (or :associations, on
// the organization). A folder has one at most: its own is looked up
// first, and one it has is said (e on it adds a provider). Else the
// provider is chosen, and the form has that provider's fields beside a
// name and a description; the others are added with e once it is made.
func newAssociation(e *env, parent, where string) tea.Cmd {
	if st := e.common.Change(keymap.New); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	if parent == "" {
		return views.FlashError("no folder here to tie accounts to")
	}
	c, ctx := e.client, e.ctx
	return tea.Sequence(views.Flash("looking up the account association of "+safe.String(where)+"…"), func() tea.Msg {
		a, err := c.FindAccountAssociation(ctx, parent)
		switch {
		case err != nil:
			return views.FlashMsg{Text: "new account association: " + safe.String(err.Error()), Error: true}
		case a != nil:
			return views.FlashMsg{Text: safe.String(where) + " has its account association already, " + strconv.Quote(safe.String(a.Name)) +
				" (a folder has one): " + e.common.Key(keymap.Edit) + " on it adds a provider", Error: true}
		}
		return openMsg{screenAsk{build: func(context.Context) views.Screen { return providerPicker(e, parent, where) }}}
	})
}

// providerPicker asks which provider a new association ties first.
func providerPicker(e *env, parent, where string) views.Screen {
	options := []picker.Option{
		{Label: "AWS", Detail: "an AWS account, by its 12-digit id", Value: api.FieldAmazon},
		{Label: "Google Cloud", Detail: "a project, by its id and its number", Value: api.FieldGoogle},
		{Label: "Azure", Detail: "an Entra tenant, and the client id of each component the platform runs there", Value: api.FieldAzure},
		{Label: "GitHub", Detail: "installations of GitHub Apps, by app and installation id", Value: api.FieldGitHub},
		{Label: "Chainguard's services", Detail: "the identity each of Chainguard's services acts as in the folder", Value: api.FieldChainguard},
	}
	title := "New account association in " + safe.Of(where) + ": what does it tie first?"
	return choosing{picker.New(e.common, title, options, true, func(o picker.Option) tea.Msg {
		return openMsg{screenAsk{build: associationForm(e, parent, where, o.Value.(string))}}
	}).WithDigits()}
}

// choosing is a picker that leaves the stack once a choice is made: the
// next step (the form of the provider chosen) opens in its place, and esc
// there goes back to where n was pressed.
type choosing struct{ *picker.Model }

func (c choosing) Closed() bool { return c.Model.Closed() || c.Model.Chosen() }

// TakesText: its filter is typed into (q is a letter there).
func (c choosing) TakesText() bool { return true }

// associationForm is the form of a new association tying provider (a
// part's mask): its fields are required here.
func associationForm(e *env, parent, where, provider string) func(ctx context.Context) views.Screen {
	c := e.client
	var none api.AccountAssociation
	fields := append(partFields(api.FieldName, &none), partFields(api.FieldDescription, &none)...)
	for _, f := range partFields(provider, &none) {
		check := f.Validate
		f.Validate = func(s string) error {
			if err := required(s); err != nil {
				return err
			}
			return check(s)
		}
		f.Placeholder = strings.TrimSuffix(f.Placeholder, " (empty: none)")
		fields = append(fields, f)
	}
	return e.createScreen(resource.Association, where, creation{parent: parent, sends: api.AccountAssociations.Create(parent),
		named: "name", fields: fields,
		submit: func(ctx context.Context, v map[string]string) (any, error) {
			var a api.AccountAssociation
			for _, mask := range []string{api.FieldName, api.FieldDescription, provider} {
				if err := setPart(&a, mask, v); err != nil {
					return nil, err
				}
			}
			made, err := c.CreateAccountAssociation(ctx, parent, a)
			if api.CodeOf(err) == api.CodeAlreadyExists {
				// Made meanwhile, by someone else: a folder has one.
				return nil, &fieldError{key: "name", why: safe.String(where) + " has its account association already (a folder has one): " +
					"esc, then " + e.common.Key(keymap.Edit) + " on it adds a provider"}
			}
			return made, err
		},
		find: func(ctx context.Context, v map[string]string) (any, error) {
			a, err := c.FindAccountAssociation(ctx, parent)
			if a != nil && a.Name != v["name"] {
				a = nil // another's, made meanwhile: not this form's
			}
			return found(a, err)
		}})
}
