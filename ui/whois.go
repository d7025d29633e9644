package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/safe"
	"canopy/views"
)

// :whois ISSUER SUBJECT answers which identity a sign-in is: the service
// knows it by its issuer and subject, and gives the uid of the identity
// they sign in as, or, before they ever did, the uid they will get (a
// role can be bound to it already). An identity the token sees opens on
// its page; any other uid is copied, said to be none the token sees.

// whoisMsg carries LookupIdentity's answer and what the token sees of it.
type whoisMsg struct {
	issuer, subject, uid string
	identity             *api.Identity
	err                  error
}

// whois looks a sign-in up.
func (e *env) whois(args []string) tea.Cmd {
	if len(args) != 2 {
		return views.FlashError(":whois takes an issuer and a subject: :whois https://accounts.google.com 1234567890")
	}
	c, ctx, issuer, subject := e.client, e.ctx, args[0], args[1]
	return tea.Batch(views.Flash("asking the service who "+safe.String(subject)+" of "+safe.String(issuer)+" is…"), func() tea.Msg {
		uid, err := c.LookupIdentity(ctx, issuer, subject)
		if err != nil {
			return whoisMsg{issuer: issuer, subject: subject, err: err}
		}
		id, err := c.GetIdentity(ctx, uid)
		if err != nil {
			id = nil // not one it sees: the uid is what there is
		}
		return whoisMsg{issuer: issuer, subject: subject, uid: uid, identity: id}
	})
}

func (m whoisMsg) update(e *env) tea.Cmd {
	who := safe.String(m.subject) + " of " + safe.String(m.issuer)
	switch {
	case m.err != nil:
		return views.FlashError("could not look " + who + " up: " + joinedFailure(e, m.err))
	case m.identity != nil:
		return tea.Batch(e.page(m.identity), views.Flash(fmt.Sprintf("%s signs in as the identity %s", who, safe.String(m.identity.Name))))
	}
	return views.Copy(m.uid, "uid of "+who+" (no identity this token sees: not signed in yet, or out of reach; a role can be bound to it)")
}

// joinedFailure is a failure's explanation on one line, each thing said
// once.
func joinedFailure(e *env, err error) string {
	out := ""
	for i, l := range saidOnce(e.failure(err)) {
		if i > 0 {
			out += " "
		}
		out += l
	}
	return out
}
