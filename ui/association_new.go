package ui

import (
	"context"
	"fmt"
	"slices"
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

// newAssociation is n on a folder's associations (:associations, which
// spans folders, asks which first: associationFolders). A folder has one
// at most: its own is looked up
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

// associationFolders is n in a table of every folder's associations:
// which folder the new one is for, among those that have none (a folder
// has one at most), then which provider it ties first.
func associationFolders(e *env, scope string) tea.Cmd {
	c := e.client
	offer := func(ctx context.Context, opts []picker.Option) ([]picker.Option, error) {
		has := map[string]bool{}
		cur := api.NewCursor(c.AccountAssociationsUnder(), api.ListOptions{DescendantsOf: scope, PageSize: api.MaxPageSize},
			api.AccountAssociationKey)
		for a, err := range cur.All(ctx) {
			if err != nil {
				return nil, fmt.Errorf("list account associations: %w", err)
			}
			has[a.UID] = true
		}
		free := slices.DeleteFunc(opts, func(o picker.Option) bool { return has[o.Value.(string)] })
		if len(free) == 0 {
			return nil, fmt.Errorf("every folder here has its account association already (a folder has one): %s on one adds a provider",
				e.common.Key(keymap.Edit))
		}
		return free, nil
	}
	return whichFolder(e, "New account association: for which folder? (those without one)", scope, offer,
		func(uid, where string) func(context.Context) views.Screen {
			return func(context.Context) views.Screen { return providerPicker(e, uid, where) }
		})
}

// whichFolder is n in a table spanning folders (the organization's
// invites, every folder's associations): a picker of scope and the folders
// below it, by path as the tree has them, and then next's screen for the
// one chosen, in the picker's place (esc there goes back to the table).
// offer, when set, keeps those a new one may go in, or says why none.
func whichFolder(e *env, title safe.Text, scope string, offer func(context.Context, []picker.Option) ([]picker.Option, error),
	next func(uid, where string) func(context.Context) views.Screen) tea.Cmd {
	if st := e.common.Change(keymap.New); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	if e.org == nil || scope == "" {
		return views.FlashError("no folder here to make it in")
	}
	org := *e.org
	return e.open(func(ctx context.Context) views.Screen {
		return choosing{picker.New(e.common, title, nil, true, func(o picker.Option) tea.Msg {
			uid, where := o.Value.(string), string(o.Label)
			if uid == org.UID {
				where = org.Name // not "(organization)": the form says "in acme.example"
			}
			return openMsg{screenAsk{build: next(uid, where)}}
		}).Load(ctx, "listing folders…", func(ctx context.Context) ([]picker.Option, error) {
			groups, err := e.groups(ctx, org)
			if err != nil {
				return nil, err
			}
			opts := slices.DeleteFunc(groupOptions(groups), func(o picker.Option) bool {
				uid := o.Value.(string)
				return uid != scope && !strings.HasPrefix(uid, scope+"/")
			})
			if offer != nil {
				return offer(ctx, opts)
			}
			return opts, nil
		})}
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
