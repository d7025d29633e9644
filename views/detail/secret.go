package detail

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
)

// A page's own keys, and what it says once. A kind's page may offer keys
// beyond the pane's (a provider's SCIM keys: WithKeys); what one of them
// makes that is said only once (a new token) comes back to the page that
// asked (Reveal's message) and shows at its top while it is on that
// resource: `y` copies it as a secret (the status line says what was
// copied, not what it is), and nothing else keeps it, so it is gone when
// the page closes. Only a full page has these keys: a pane lives on, and
// would keep a secret on after the user has moved on.

// Secret is a value a page says once.
type Secret struct {
	UID     string  // the resource it is of: the page shows it while on that one
	Section string  // its heading ("SCIM TOKEN: SHOWN ONCE, COPY IT NOW")
	Label   string  // its line's label ("token")
	What    string  // what `y` says it copied ("SCIM token")
	Value   string  // the secret; "" takes back what the page showed (the token revoked)
	Notes   []Field // lines under it (where it is used, until when it works)
}

// Reveal makes the message that gives the page that asked a Secret.
type Reveal func(Secret) tea.Msg

// Keys are a page's own keys for the item shown, made in Update: ctx is
// the page's (closing it cancels their requests), reveal how a key's
// command gives the page what it says once.
type Keys func(ctx context.Context, item any, reveal Reveal) []keymap.State

// WithKeys is p with keys of its own, and the secret they reveal shown
// above the rest.
func (p Page) WithKeys(keys Keys) Page {
	write := p.write
	p.write = func(m *Model, s *sheet, item any) {
		m.writeSecret(s)
		write(m, s, item)
	}
	p.keys = keys
	return p
}

// secretMsg gives the page owner a secret to show.
type secretMsg struct {
	owner  *Model
	secret Secret
}

// pageKeys are the page's own keys, none for a pane.
func (m *Model) pageKeys() []keymap.State {
	p := m.kindPage()
	if !m.page || p == nil || p.keys == nil || m.item == nil {
		return nil
	}
	owner := m
	return p.keys(m.ctx, m.item, func(s Secret) tea.Msg { return secretMsg{owner: owner, secret: s} })
}

// takeSecret shows a secret given to this page (or takes back the one
// shown), and reads the resource again: what made the secret changed it.
func (m *Model) takeSecret(msg secretMsg) tea.Cmd {
	if msg.owner != m {
		return nil
	}
	m.secret = nil
	if msg.secret.Value != "" {
		s := msg.secret
		m.secret = &s
	}
	m.relayout()
	if msg.secret.UID == m.uid {
		m.drop(m.uid)
		return m.fetchExtras()
	}
	return nil
}

// shownSecret is the secret the page shows now, nil for none.
func (m *Model) shownSecret() *Secret {
	if m.secret == nil || m.secret.UID != m.uid || !m.page {
		return nil
	}
	return m.secret
}

// writeSecret writes the secret shown, first.
func (m *Model) writeSecret(s *sheet) {
	sec := m.shownSecret()
	if sec == nil {
		return
	}
	s.section(safe.String(sec.Section))
	s.field(sec.Label, safe.Of(sec.Value))
	writeFields(s, sec.Notes)
	s.muted(m.common.Key(keymap.Copy) + " copies it; it is not shown again once this page closes")
}

// copySecret copies the secret shown, without showing it on the status line.
func (m *Model) copySecret() (tea.Cmd, bool) {
	if sec := m.shownSecret(); sec != nil {
		return views.CopySecret(sec.Value, sec.What), true
	}
	return nil, false
}
