package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/join"
)

// A token that sees no organization (or not the one named) gets a screen
// that asks the service what it can: whether the token may look for the
// organization of its email's domain, which one that is, and, on A, asks
// that organization's owners to let it in. It says what was asked and
// what the service answered. The service tells the owners out of band
// and shows nothing of the request afterwards: r looks again, and opens
// the organization once an owner has bound a role.

// notVisible is the start's failure when the organization asked for by
// name is not visible to the token.
type notVisible struct{ name string }

func (e notVisible) Error() string {
	return fmt.Sprintf("no organization or folder named %q is visible to this token", e.name)
}

// reqState is what became of the request to join.
type reqState int

const (
	reqNone reqState = iota
	reqSending
	reqSent
	reqAlready // the service had one from this caller already
	reqRefused
	reqUnknown // the answer was lost
)

// joinFlow is the screen and what the service answered on it.
type joinFlow struct {
	screen *join.Model
	wanted string // the organization asked for by name, "" for none
	why    string // why no organization opened, canopy's words
	// again looks for organizations again (r), opening one now visible.
	again func() tea.Cmd
	// over: the screen is on an organization open (:join): esc closes it.
	over bool

	looking  bool
	eligible bool
	eligErr  error
	org      *api.Group
	lookErr  error // not NOT_FOUND: the lookup failed
	// member: org is among the organizations the token lists: it is in
	// already, and there is nothing to ask. memberErr: listing them failed.
	member    bool
	memberErr error
	req       reqState
	reqAt     time.Time
	reqErr    error
}

// joinLooked carries the service's answers to the two lookups.
type joinLooked struct {
	flow      *joinFlow
	eligible  bool
	eligErr   error
	org       *api.Group
	lookErr   error
	member    bool
	memberErr error
}

// joinAsked carries the answer to the request to join.
type joinAsked struct {
	flow *joinFlow
	at   time.Time
	err  error
}

// noOrgs takes the start's answer when it found no organization: the
// join screen instead of the bare failure. ok is false for any other
// answer; one that finds the organization a request was sent to says
// access was granted.
func (m *Model) noOrgs(msg orgsMsg) (tea.Cmd, bool) {
	var nv notVisible
	switch {
	case errors.As(msg.err, &nv):
		return m.noOrganization(nv.name, msg.err), true
	case msg.err == nil && len(msg.orgs) == 0:
		return m.noOrganization("", errors.New("this token sees no organization and no folder: it has no role binding on any group")), true
	}
	f := m.env.join
	if f == nil || msg.err != nil || f.org == nil || (f.req != reqSent && f.req != reqAlready) {
		return nil, false
	}
	for _, g := range msg.orgs {
		if g.UID == f.org.UID {
			m.env.join = nil
			return tea.Batch(m.gotOrgs(msg), views.Flash("access granted: this token now sees "+safe.String(g.Name))), true
		}
	}
	return nil, false
}

// noOrganization shows the join screen (or looks again on the one shown).
func (m *Model) noOrganization(wanted string, why error) tea.Cmd {
	m.starting, m.startErr = false, why // Failed says it when canopy quits here
	if f := m.env.join; f != nil && len(m.stack) > 0 && m.top() == f.screen {
		f.wanted, f.why = wanted, why.Error()
		return f.look(m.env)
	}
	f := &joinFlow{screen: join.New(m.common, "no organization"), wanted: wanted, why: why.Error(),
		again: func() tea.Cmd { return m.resolveOrg() }}
	m.env.join = f
	return tea.Batch(m.push(func(context.Context) views.Screen { return f.screen }), f.look(m.env))
}

// joinScreen is :join: the same screen over the organization open, for a
// token whose email's domain is another organization's.
func (m *Model) joinScreen() tea.Cmd {
	f := &joinFlow{screen: join.New(m.common, "join an organization"), over: true,
		why: "this token may ask to join the organization of its email's domain"}
	f.again = func() tea.Cmd { return f.look(m.env) }
	m.env.join = f
	return tea.Batch(m.env.open(func(context.Context) views.Screen { return f.screen }), f.look(m.env))
}

// look asks the service whether the token may look for its domain's
// organization, and which that is; then whether the token is in it
// already (it is among the organizations the token lists).
func (f *joinFlow) look(e *env) tea.Cmd {
	f.looking = true
	f.show(e)
	c, ctx := e.client, e.ctx
	return func() tea.Msg {
		out := joinLooked{flow: f}
		out.eligible, out.eligErr = c.CheckEligibility(ctx)
		org, err := c.LookupGroup(ctx)
		switch {
		case err == nil:
			out.org = org
			out.member, out.memberErr = memberOf(ctx, c, org.UID)
		case !api.IsNotFound(err):
			out.lookErr = err
		}
		return out
	}
}

// memberOf reports whether the organization uid is among those the
// token lists: the token is in it already.
func memberOf(ctx context.Context, c *api.Client, uid string) (bool, error) {
	cur := api.NewCursor(c.ListGroups, api.ListOptions{InRoot: true, PageSize: api.MaxPageSize}, api.GroupKey)
	for g, err := range cur.All(ctx) {
		if err != nil {
			return false, fmt.Errorf("list your organizations: %w", err)
		}
		if g.UID == uid {
			return true, nil
		}
	}
	return false, nil
}

func (msg joinLooked) update(e *env) tea.Cmd {
	f := msg.flow
	f.looking = false
	f.eligible, f.eligErr, f.lookErr = msg.eligible, msg.eligErr, msg.lookErr
	f.member, f.memberErr = msg.member, msg.memberErr
	if msg.org == nil || f.org == nil || f.org.UID != msg.org.UID {
		f.req = reqNone // another organization (or none): nothing asked of it yet
	}
	f.org = msg.org
	f.show(e)
	return nil
}

// ask sends the request to join, once: the service tells the owners.
func (f *joinFlow) ask(e *env) tea.Cmd {
	if f.org == nil || f.member || f.req == reqSending {
		return nil
	}
	f.req = reqSending
	f.show(e)
	c, ctx, uid, name := e.client, e.ctx, f.org.UID, f.org.Name
	return func() tea.Msg {
		n := &api.Note{What: "organization " + fmt.Sprintf("%q", name), Fields: "access", Change: "asked its owners to let this token in"}
		err := c.RequestGroupAccess(api.WithNote(ctx, n), uid)
		return joinAsked{flow: f, at: time.Now(), err: err}
	}
}

func (msg joinAsked) update(e *env) tea.Cmd {
	f := msg.flow
	f.reqAt, f.reqErr = msg.at, msg.err
	switch {
	case msg.err == nil:
		f.req = reqSent
	case api.AlreadyRequested(msg.err):
		f.req = reqAlready
	case api.MaybeMade(msg.err):
		f.req = reqUnknown
	default:
		f.req = reqRefused
	}
	f.show(e)
	return func() tea.Msg { return views.ChangedMsg{Changes: []views.Change{views.Logged()}} }
}

// show lays out what was asked and answered, and the keys.
func (f *joinFlow) show(e *env) {
	why := join.Line{Text: safe.Of(f.why), Tone: join.Bad}
	if f.over && f.member {
		why = join.Line{Text: "this token is in the organization of its email's domain already", Tone: join.Muted}
	}
	lines := []join.Line{why}
	if !f.over {
		lines = append(lines, join.Line{Text: "An owner of an organization can bind you a role, or invite you. If your email's domain is a verified organization's name, its owners can be asked from here.", Tone: join.Muted})
	}
	lines = append(lines, join.Line{}, join.Line{Label: "asked", Text: "GET /iam/v2/groups:checkEligibility and GET /iam/v2/groups:lookupGroup (the token decides: neither takes a name), then GET /iam/v2/groups (the organizations the token lists: is it in that one already?)", Tone: join.Muted})
	lines = append(lines, f.eligibleLine(e), f.orgLine(e))
	lines = append(lines, f.requestLines(e)...)
	f.screen.Set(lines, f.actions(e), f.looking || f.req == reqSending)
}

func (f *joinFlow) eligibleLine(e *env) join.Line {
	l := join.Line{Label: "eligible"}
	switch {
	case f.looking:
		l.Text, l.Tone = "asking…", join.Muted
	case f.eligErr != nil:
		l.Text, l.Tone = safe.Of("could not ask: "+joinedFailure(e, f.eligErr)), join.Bad
	case f.eligible:
		l.Text, l.Tone = "yes: the token carries a verified email from a sign-in the service trusts, of a domain it matches with organizations", join.Good
	default:
		l.Text, l.Tone = "no: the service matches an organization with the email domain of a token from a sign-in that verifies email addresses; this token is not from one, or its domain is free mail. Ask an owner for an invite.", join.Bad
	}
	return l
}

func (f *joinFlow) orgLine(e *env) join.Line {
	l := join.Line{Label: "organization"}
	switch {
	case f.looking:
		l.Text, l.Tone = "looking…", join.Muted
	case f.lookErr != nil:
		l.Text, l.Tone = safe.Of("could not look: "+joinedFailure(e, f.lookErr)), join.Bad
	case f.org == nil:
		l.Text, l.Tone = "none: no verified organization is named as your email's domain, or the service does not say (it answers the same to a token it does not take)", join.Muted
	case f.member:
		l.Text, l.Tone = safe.Of(fmt.Sprintf("%s (verified, uid %s): you are a member already (it is among the organizations this token lists)", f.org.Name, f.org.UID)), join.Good
	case f.wanted != "" && f.org.Name != f.wanted:
		l.Text = safe.Of(fmt.Sprintf("%s (verified, uid %s), not %s: a token may ask to join its email domain's organization only", f.org.Name, f.org.UID, f.wanted))
	default:
		l.Text, l.Tone = safe.Of(fmt.Sprintf("%s (verified, uid %s)", f.org.Name, f.org.UID)), join.Good
		if f.memberErr != nil {
			l.Text += safe.Of("; whether you are a member already is not known: " + joinedFailure(e, f.memberErr))
		}
	}
	return l
}

func (f *joinFlow) requestLines(e *env) []join.Line {
	if f.org == nil || f.looking {
		return nil
	}
	ask := e.common.Key(keymap.RequestAccess)
	name := safe.String(f.org.Name)
	req := join.Line{Text: safe.Of(api.RequestGroupAccessOf(f.org.UID).String()), Tone: join.Muted}
	l := join.Line{Label: "request"}
	if f.member {
		l.Text, l.Tone = safe.Of("none needed: you are a member of "+name+" already"+f.memberHint(e)), join.Muted
		return []join.Line{l}
	}
	switch f.req {
	case reqNone:
		l.Text = safe.Of("not sent: " + ask + " asks the owners of " + name + " to let you in")
	case reqSending:
		l.Text, l.Tone = "sending…", join.Muted
	case reqSent:
		l.Text, l.Tone = safe.Of("sent at "+f.reqAt.UTC().Format("15:04 UTC")+": pending. The service tells the owners of "+name+
			"; canopy cannot see the request after. Once one binds you a role, "+e.common.Key(keymap.Refresh)+" opens the organization."), join.Good
	case reqAlready:
		l.Text, l.Tone = safe.Of("already sent: the service had a recent request from you to "+name+" and did not send another ("+
			joinedFailure(e, f.reqErr)+"). Its owners have it; "+e.common.Key(keymap.Refresh)+" opens the organization once they let you in."), join.Muted
	case reqRefused:
		l.Text, l.Tone = safe.Of("refused: "+joinedFailure(e, f.reqErr)), join.Bad
	case reqUnknown:
		l.Text, l.Tone = safe.Of(unknownLine(f.reqErr, "it was sent", ask+" asks again: the service refuses a second request the same day, so its owners are not told twice")), join.Bad
	}
	return []join.Line{l, req}
}

// memberHint says where the organization a member is in opens from: it is
// the one open, or :org opens it.
func (f *joinFlow) memberHint(e *env) string {
	if e.org != nil && e.org.UID == f.org.UID {
		return " (it is the organization open)"
	}
	return "; :org opens it"
}

// actions are A (ask) and r (look again), and esc over an organization.
func (f *joinFlow) actions(e *env) []keymap.State {
	ask := e.common.Change(keymap.RequestAccess)
	switch {
	case !ask.Enabled:
	case f.looking:
		ask = keymap.Off(keymap.RequestAccess, "the service has not answered yet")
	case f.org == nil:
		ask = keymap.Off(keymap.RequestAccess, "no organization of your email's domain to ask")
	case f.member:
		ask = keymap.Off(keymap.RequestAccess, "you are a member of "+safe.String(f.org.Name)+" already: nothing to ask")
	case f.req == reqSending:
		ask = keymap.Off(keymap.RequestAccess, "the request is on its way")
	case f.req == reqSent || f.req == reqAlready:
		ask = keymap.Off(keymap.RequestAccess, "already asked: its owners have the request")
	default:
		ask = ask.Does(func() tea.Cmd { return f.ask(e) })
	}
	states := []keymap.State{ask, keymap.On(keymap.Refresh).Does(f.again)}
	if f.over {
		states = append(states, keymap.On(keymap.Back).Does(func() tea.Cmd { return f.close(e) }))
	}
	return states
}

// close leaves :join's screen.
func (f *joinFlow) close(e *env) tea.Cmd {
	e.join = nil
	f.screen.Close()
	return nil
}

// selfCommands are the `:` commands about the caller itself.
func selfCommands() []shellCommand {
	return []shellCommand{
		{Command: cmdline.Command{Name: "join", Desc: "ask to join the organization of your email's domain: what the service says of it, and a request to its owners"},
			run: func(m *Model, _ []string) tea.Cmd {
				if m.env.org == nil && m.env.join != nil {
					return m.setFlash("the screen shown is the one to join from", false)
				}
				return m.joinScreen()
			}},
		{Command: cmdline.Command{Name: "whois", Args: "<issuer> <subject>", Desc: "which identity a sign-in is (its uid, even before it ever signed in): opens its page, or copies the uid"},
			run: func(m *Model, args []string) tea.Cmd { return m.env.whois(args) }},
	}
}
