package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/detail"
	"canopy/views/dialog"
)

// An identity provider's SCIM keys, on its page: T makes its token (the
// first at once; a new one in place of the one it has after asking), X
// revokes it and P turns provisioning on or off, both after asking. Each
// reads the provider first: what it has decides what T does, and its
// SCIM version (etag) goes with a regenerate and a switch, so that a
// change made meanwhile is refused rather than overwritten. A new token
// is said once: it goes to the page that asked (detail.Reveal), shown
// there until the page closes; the change log keeps the answer without
// it. A lost answer is looked up (the provider read again) before
// anything is sent again: a token made then is one nobody saw, and T
// replaces it.

// scimOverlap is how long a regenerated token's predecessor keeps working
// (the dialog says "an hour"), so that the identity provider's connector
// can take the new one first.
const scimOverlap = time.Hour

// scimKeys are the SCIM keys of a provider's page.
func (e *env) scimKeys(ctx context.Context, item any, reveal detail.Reveal) []keymap.State {
	p, ok := item.(*api.IdentityProvider)
	if !ok {
		return nil
	}
	uid, name := p.UID, p.Name
	return []keymap.State{
		e.common.Change(keymap.ScimToken).Does(func() tea.Cmd { return e.scimRead(ctx, uid, name, reveal, e.scimToken) }),
		e.common.Change(keymap.ScimRevoke).Does(func() tea.Cmd { return e.scimRead(ctx, uid, name, reveal, e.scimRevoke) }),
		e.common.Change(keymap.ScimSwitch).Does(func() tea.Cmd { return e.scimRead(ctx, uid, name, reveal, e.scimSwitch) }),
	}
}

// scimStep is what a key does once the provider is read, in a command:
// its message (a dialog to open, the answer of a change, a flash).
type scimStep func(ctx context.Context, p *api.IdentityProvider, s api.ProviderSCIM, reveal detail.Reveal) tea.Msg

// scimRead reads the provider uid, then takes the key's step.
func (e *env) scimRead(ctx context.Context, uid, name string, reveal detail.Reveal, step scimStep) tea.Cmd {
	c := e.client
	return func() tea.Msg {
		p, err := c.GetIdentityProvider(ctx, uid)
		if err != nil {
			return views.FlashMsg{Text: "could not read " + safe.String(name) + ": " + safe.String(api.LostCause(err)), Error: true}
		}
		return step(ctx, p, scimOf(p), reveal)
	}
}

// scimOf is p's SCIM state; a provider that says none has no token.
func scimOf(p *api.IdentityProvider) api.ProviderSCIM {
	if p.SCIM == nil || p.SCIM.CredentialState == "" {
		s := api.ProviderSCIM{CredentialState: api.CredentialNotIssued}
		if p.SCIM != nil {
			s.Enabled, s.EndpointURL, s.Etag = p.SCIM.Enabled, p.SCIM.EndpointURL, p.SCIM.Etag
		}
		return s
	}
	return *p.SCIM
}

// tokenState is a token's state in words ("live", "not issued").
func tokenState(s api.ProviderSCIM) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(s.CredentialState, "CREDENTIAL_STATE_"), "_", " "))
}

// scimNote is what :changes says of a SCIM change of p.
func scimNote(p *api.IdentityProvider, change string) *api.Note {
	return &api.Note{What: "SCIM of identity provider " + strconv.Quote(p.Name), Change: change}
}

// revealed is what follows a new token: the page shows it, the status line
// says where it is.
func revealed(reveal detail.Reveal, p *api.IdentityProvider, token, endpoint string, expire, previous api.Time, how string) tea.Msg {
	notes := []detail.Field{{Label: "endpoint", Value: endpoint}, {Label: "expires", When: expire}}
	if expire.IsZero() {
		notes[1] = detail.Field{Label: "expires", Value: "never"}
	}
	if !previous.IsZero() {
		notes = append(notes, detail.Field{Label: "old one ends", When: previous})
	}
	s := detail.Secret{UID: p.UID, Section: "SCIM TOKEN: SHOWN ONCE, COPY IT NOW", Label: "token", What: "SCIM token",
		Value: token, Notes: notes}
	return tea.Batch(func() tea.Msg { return reveal(s) },
		views.Flash(how+" the SCIM token of "+safe.String(p.Name)+": it shows once, on this page (y copies it)"))()
}

// scimToken is T once read: the first token at once, else a dialog.
func (e *env) scimToken(ctx context.Context, p *api.IdentityProvider, s api.ProviderSCIM, reveal detail.Reveal) tea.Msg {
	if s.CredentialState != api.CredentialNotIssued {
		return e.regenerateDialog(p, s, reveal)
	}
	n := scimNote(p, "token generated")
	tok, err := e.client.GenerateScimToken(api.WithNote(ctx, n), p.UID, api.ScimTokenOptions{})
	switch {
	case err == nil:
		e.changes.answered(n, tok)
		return revealed(reveal, p, tok.Token, tok.EndpointURL, tok.ExpireTime, api.Time{}, "generated")
	case !api.MaybeMade(err):
		return views.FlashMsg{Text: "no SCIM token for " + safe.String(p.Name) + ": " + strings.Join(e.failure(err), " "), Error: true}
	}
	// The answer was lost: was a token made? Its state says.
	head := "no SCIM token shown for " + safe.String(p.Name) + ": no answer (" + safe.String(api.LostCause(err)) + ")"
	now, lookErr := e.client.GetIdentityProvider(ctx, p.UID)
	switch {
	case lookErr != nil:
		e.changes.settle(n, "lookup failed")
		return views.FlashMsg{Text: head + ", and it could not be looked up: T looks again", Error: true}
	case scimOf(now).CredentialState != api.CredentialNotIssued:
		e.changes.settle(n, "found generated")
		return views.FlashMsg{Text: head + "; the server has a token now, which nobody saw: T makes a new one in its place", Error: true}
	}
	e.changes.settle(n, "found not generated")
	return views.FlashMsg{Text: head + "; the server has none: T asks again", Error: true}
}

// regenerateDialog asks before a token replaces the one p has.
func (e *env) regenerateDialog(p *api.IdentityProvider, s api.ProviderSCIM, reveal detail.Reveal) tea.Msg {
	c, it, etag := e.client, *p, s.Etag
	old := "The token it has (" + tokenState(s) + ") keeps working for an hour, then stops: give the new one to the identity provider first."
	if s.CredentialState != api.CredentialLive && s.CredentialState != api.CredentialRotating {
		old = "The token it has (" + tokenState(s) + ") works no more: provisioning waits for the new one."
	}
	overlap := scimOverlap
	cfg := dialog.Config{Title: "Regenerate the SCIM token of " + safe.Of(p.Name) + "?", Verb: "regenerate", AutoClose: true,
		Outcome: e.outcomeOf("regenerated"),
		Lines: []safe.Text{safe.Of(api.IdentityProviders.Verb(p.UID, api.VerbRegenerateScimToken).String()),
			safe.Of(`{"overlap": "` + strconv.Itoa(int(overlap.Seconds())) + `s", "etag": ` + strconv.Quote(etag) + `}`),
			safe.Of(old), "The new token shows once, on the provider's page."},
		Items: []dialog.Item{{Key: p.UID, Label: "SCIM token of " + safe.Of(p.Name), Run: func(ctx context.Context) (any, error) {
			n := scimNote(&it, "token regenerated")
			tok, err := c.RegenerateScimToken(api.WithNote(ctx, n), it.UID, etag, &overlap, api.ScimTokenOptions{})
			if err == nil {
				e.changes.answered(n, tok)
			}
			if !api.MaybeMade(err) {
				return tok, err
			}
			// A new version means it was made: its token is one nobody saw.
			now, lookErr := c.GetIdentityProvider(ctx, it.UID)
			made := lookErr == nil && scimOf(now).Etag != etag
			return nil, e.lookedUp(n, err, made, map[bool]string{true: "the server has a new token, which nobody saw: T makes another",
				false: "the server still has the old token"}[made], "regenerated", lookErr)
		}}},
		Done: func(st dialog.Settled) tea.Msg {
			if tok, ok := st.Answers[it.UID].(*api.RegeneratedScimToken); ok && tok != nil {
				return revealed(reveal, &it, tok.Token, tok.EndpointURL, tok.ExpireTime, tok.PreviousTokenExpireTime, "regenerated")
			}
			return changedUID(it.UID)
		}}
	return openMsg{screenAsk{build: func(ctx context.Context) views.Screen { return dialog.New(ctx, e.common, cfg) }}}
}

// scimRevoke is X once read: a dialog, unless there is no token.
func (e *env) scimRevoke(_ context.Context, p *api.IdentityProvider, s api.ProviderSCIM, reveal detail.Reveal) tea.Msg {
	if s.CredentialState == api.CredentialNotIssued {
		return views.FlashMsg{Text: safe.String(p.Name) + " has no SCIM token to revoke: " + e.common.Key(keymap.ScimToken) + " generates one"}
	}
	c, it := e.client, *p
	on := "off"
	if s.Enabled {
		on = "on"
	}
	cfg := dialog.Config{Title: "Revoke the SCIM token of " + safe.Of(p.Name) + "?", Verb: "revoke", AutoClose: true,
		Outcome: e.outcomeOf("revoked"),
		Lines: []safe.Text{safe.Of(api.IdentityProviders.Verb(p.UID, api.VerbRevokeScimToken).String()),
			safe.Of("The token (" + tokenState(s) + ") stops working at once, and a token it replaced with it: provisioning requests are refused."),
			safe.Of("Provisioning stays " + on + "; " + e.common.Key(keymap.ScimToken) + " makes a new token.")},
		Items: []dialog.Item{{Key: p.UID, Label: "SCIM token of " + safe.Of(p.Name), Run: func(ctx context.Context) (any, error) {
			n := scimNote(&it, "token revoked")
			rev, err := c.RevokeScimToken(api.WithNote(ctx, n), it.UID)
			if err == nil {
				e.changes.answered(n, rev)
			}
			if !api.MaybeMade(err) {
				return rev, err
			}
			now, lookErr := c.GetIdentityProvider(ctx, it.UID)
			made := lookErr == nil && scimOf(now).CredentialState == api.CredentialRevoked
			return nil, e.lookedUp(n, err, made, map[bool]string{true: "the server has it revoked", false: "the token still works"}[made],
				"revoked", lookErr)
		}}},
		Done: func(st dialog.Settled) tea.Msg {
			if len(st.Done) == 0 {
				return changedUID(it.UID)
			}
			// The token shown, if any, works no more: the page forgets it.
			return tea.Batch(func() tea.Msg { return reveal(detail.Secret{UID: it.UID}) },
				views.Flash("revoked the SCIM token of "+safe.String(it.Name)))()
		}}
	return openMsg{screenAsk{build: func(ctx context.Context) views.Screen { return dialog.New(ctx, e.common, cfg) }}}
}

// scimSwitch is P once read: a dialog that turns provisioning the other way.
func (e *env) scimSwitch(_ context.Context, p *api.IdentityProvider, s api.ProviderSCIM, _ detail.Reveal) tea.Msg {
	c, it, etag, want := e.client, *p, s.Etag, !s.Enabled
	verb, what := "off", "Its provisioning requests are refused; the users, groups and bindings it made stay."
	if want {
		verb, what = "on", "It may then create, change and remove the organization's users. The server allows it only with two or more owners bound by hand."
	}
	cfg := dialog.Config{Title: "Turn SCIM provisioning " + safe.Of(verb) + " for " + safe.Of(p.Name) + "?", Verb: "turn " + verb,
		AutoClose: true, Outcome: e.outcomeOf("turned " + verb),
		Lines: []safe.Text{safe.Of(api.IdentityProviders.Verb(p.UID, api.VerbSetScimEnabled).String()),
			safe.Of(fmt.Sprintf(`{"enabled": %t, "etag": %s}`, want, strconv.Quote(etag))), safe.Of(what),
			safe.Of("Its token (" + tokenState(s) + ") does not change.")},
		Items: []dialog.Item{{Key: p.UID, Label: "SCIM provisioning of " + safe.Of(p.Name), Run: func(ctx context.Context) (any, error) {
			n := scimNote(&it, "provisioning turned "+verb)
			sw, err := c.SetScimEnabled(api.WithNote(ctx, n), it.UID, want, etag)
			if err == nil {
				e.changes.answered(n, sw)
			}
			if !api.MaybeMade(err) {
				return sw, err
			}
			now, lookErr := c.GetIdentityProvider(ctx, it.UID)
			made := lookErr == nil && scimOf(now).Enabled == want
			says := "provisioning is still " + map[bool]string{true: "off", false: "on"}[want]
			if made {
				says = "provisioning is " + verb
			}
			return nil, e.lookedUp(n, err, made, says, "turned "+verb, lookErr)
		}}},
		Done: func(st dialog.Settled) tea.Msg {
			if len(st.Done) == 0 {
				return changedUID(it.UID)
			}
			return tea.Batch(changedCmd(it.UID), views.Flash("SCIM provisioning of "+safe.String(it.Name)+" turned "+verb))()
		}}
	return openMsg{screenAsk{build: func(ctx context.Context) views.Screen { return dialog.New(ctx, e.common, cfg) }}}
}

// changedUID says a resource changed: what shows it reads it again.
func changedUID(uid string) tea.Msg {
	return views.ChangedMsg{Changes: []views.Change{views.Changed(uid)}}
}

func changedCmd(uid string) tea.Cmd { return func() tea.Msg { return changedUID(uid) } }
