package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/detail"
	"canopy/views/form"
)

// The caller's own profile (its identity's metadata): only the caller may
// set it, for itself (the request names no identity), and no call reads
// it: the service shows it only in answer to a change. So canopy learns
// which identity is the caller's (LookupIdentity with its token's issuer
// and subject), offers the profile's edits on that identity's page only,
// shows what the service last answered, and undoes a change only when it
// knows what came before. Of the metadata it edits what a person says of
// themselves (employer, job title, what they are interested in, the
// vendor's news); the rest is the vendor's console's sign-up tracking.

// selfMsg: the identity the token is, as the service names it.
type selfMsg struct{ uid string }

func (m selfMsg) update(e *env) tea.Cmd {
	e.self = m.uid
	return nil
}

// whoAmI learns the caller's identity uid, once p (if any) is ready;
// nothing when the token is no JWT (the admin's, an opaque one) or the
// service does not say.
func (e *env) whoAmI(p Preparing) tea.Cmd {
	c, ctx := e.client, e.ctx
	if c == nil {
		return nil
	}
	return func() tea.Msg {
		if p != nil {
			select {
			case <-p.Ready():
			case <-ctx.Done():
				return nil
			}
		}
		iss, sub, ok := c.Caller()
		if !ok {
			return nil
		}
		uid, err := c.LookupIdentity(ctx, iss, sub)
		if err != nil {
			return nil // no profile offered: nothing is lost by not saying so
		}
		return selfMsg{uid: uid}
	}
}

// profileField is one field of the profile canopy edits.
type profileField struct {
	mask, label string
	get         func(*api.IdentityMetadata) string
	set         func(*api.IdentityMetadata, string)
}

func profileFields() []profileField {
	return []profileField{
		{api.MetaCompany, detail.ProfileCompany, func(p *api.IdentityMetadata) string { return p.Company },
			func(p *api.IdentityMetadata, v string) { p.Company = v }},
		{api.MetaJobTitle, detail.ProfileJobTitle, func(p *api.IdentityMetadata) string { return p.JobTitle },
			func(p *api.IdentityMetadata, v string) { p.JobTitle = v }},
		{api.MetaProduct, detail.ProfileProduct, func(p *api.IdentityMetadata) string { return p.Product },
			func(p *api.IdentityMetadata, v string) { p.Product = v }},
		{api.MetaUpdatesOptIn, detail.ProfileUpdates, func(p *api.IdentityMetadata) string { return yesNo(p.UpdatesOptIn) },
			func(p *api.IdentityMetadata, v string) { p.UpdatesOptIn = v == "yes" }},
	}
}

// profileOf is what an identity's page shows of its profile: nil unless
// it is the caller's.
func (e *env) profileOf(id *api.Identity) *detail.Profile {
	if e.self == "" || id.UID != e.self {
		return nil
	}
	if e.profile == nil {
		return &detail.Profile{}
	}
	p := e.profile
	return &detail.Profile{Company: p.Company, JobTitle: p.JobTitle, Product: p.Product, UpdatesOptIn: p.UpdatesOptIn, Known: true}
}

// profileForms are the edits of the caller's profile, on its identity's
// page; none on any other.
func (e *env) profileForms(ctx context.Context, item any) []form.Config {
	id, ok := item.(*api.Identity)
	if !ok || e.self == "" || id.UID != e.self {
		return nil
	}
	var out []form.Config
	for _, f := range profileFields() {
		out = append(out, e.profileForm(ctx, *id, f))
	}
	return out
}

// profileForm edits one field: the request's mask names it alone.
func (e *env) profileForm(ctx context.Context, id api.Identity, f profileField) form.Config {
	known := e.profile != nil
	var base api.IdentityMetadata
	if known {
		base = *e.profile
	}
	old := f.get(&base)
	field := form.Field{Key: f.mask, Label: f.label, Value: old, Max: 256}
	if f.mask == api.MetaUpdatesOptIn {
		field.Choices, field.Max = []string{"no", "yes"}, 0
	}
	c := e.client
	return form.Config{Title: safe.Of("edit " + f.label + " of your profile"), Fields: []form.Field{field}, Ctx: ctx,
		Preview: func(v map[string]string) string {
			from := quoted(old)
			if !known {
				from = "(not shown yet)"
			}
			return api.UpdateIdentityMetadataOf(f.mask).Short() + "  " + from + " → " + quoted(v[f.mask])
		},
		Submit: func(ctx context.Context, v map[string]string) (any, error) {
			next := base
			f.set(&next, v[f.mask])
			n := &api.Note{What: "your profile", Fields: f.mask, Change: "→ " + quoted(v[f.mask])}
			res, err := c.UpdateIdentityMetadata(api.WithNote(ctx, n), next, f.mask)
			if err == nil {
				e.changes.answered(n, res)
			}
			return res, err
		},
		Explain: e.profileExplain,
		// No call reads a profile back: after a lost answer nothing is
		// sent again by itself (the form has no lookup).
		Lost:       api.MaybeMade,
		Unreadable: "no call reads a profile back: the answer to its next change shows it",
		Done: func(result any) tea.Cmd {
			res, _ := result.(*api.IdentityMetadata)
			return func() tea.Msg { return profileSet{id: id, f: f, old: old, known: known, result: res} }
		}}
}

// profileExplain puts the service's reasons on the field it names
// (identity_metadata.job_title is the job title's).
func (e *env) profileExplain(err error) (map[string]string, []string) {
	fields, rest := e.explain(err)
	out := map[string]string{}
	for k, v := range fields {
		k = strings.TrimPrefix(strings.TrimPrefix(k, "identityMetadata."), "identity_metadata.")
		for _, f := range profileFields() {
			if k == f.mask || k == api.JSONName(f.mask) {
				k = f.mask
			}
		}
		out[k] = v
	}
	return out, rest
}

// profileSet: the service answered a change of the profile with all of it.
type profileSet struct {
	id     api.Identity
	f      profileField
	old    string
	known  bool
	result *api.IdentityMetadata
}

func (m profileSet) update(e *env) tea.Cmd {
	if m.result == nil {
		return nil
	}
	e.profile = m.result
	reload := func() tea.Msg { return views.ChangedMsg{Changes: []views.Change{views.Changed(m.id.UID)}} }
	now := m.f.get(m.result)
	if !m.known {
		return tea.Batch(reload, views.Flash(fmt.Sprintf("%s of your profile set to %s; %s cannot undo it: what it was before was never shown",
			m.f.label, quoted(now), e.common.Key(keymap.Undo))))
	}
	ed := profileEdit(e.client, m.id, m.f, now, *m.result)
	msg := editedMsg{e: ed, result: m.result, old: map[string]string{m.f.mask: m.old}, new: map[string]string{m.f.mask: now}}
	return tea.Batch(func() tea.Msg { return msg }, reload)
}

// errNoProfileRead is why a lost answer to a profile's change stays
// unknown: there is nothing to read it back with.
var errNoProfileRead = errors.New("no call reads a profile back")

// profileEdit is a profile field's change as an edit, for undo.
func profileEdit(c *api.Client, id api.Identity, f profileField, value string, base api.IdentityMetadata) edit {
	return edit{mask: f.mask, sends: api.UpdateIdentityMetadataOf(f.mask), name: "your profile", noun: "profile",
		fields: []form.Field{{Key: f.mask, Label: f.label, Value: value}},
		reload: []views.Change{views.Changed(id.UID)},
		patch: func(ctx context.Context, v map[string]string) (any, error) {
			next := base
			f.set(&next, v[f.mask])
			return c.UpdateIdentityMetadata(ctx, next, f.mask)
		},
		values: func(result any) map[string]string {
			if p, ok := result.(*api.IdentityMetadata); ok {
				return map[string]string{f.mask: f.get(p)}
			}
			return map[string]string{}
		},
		current: func(context.Context) (map[string]string, any, error) { return nil, nil, errNoProfileRead }}
}
