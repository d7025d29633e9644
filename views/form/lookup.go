package form

// What a form looks up while the user types (does a tag of this name
// already exist?), so that what the request will really do is said before
// it is sent, and a change that replaces something takes a second enter.

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
)

// LookupDelay is how long typing must rest before a lookup is sent, so
// that typing a name does not send a request per letter.
const LookupDelay = 250 * time.Millisecond

// lookup is the state of the form's lookup.
type lookup struct {
	seq      int    // counts the lookups asked for; answers to older ones are dropped
	asked    string // the key of the lookup on its way, "" for none
	key      string // the key of the answer held
	found    any    // what was found for key (nil: nothing)
	err      error  // why the lookup for key failed
	known    bool   // found/err hold the answer for key
	armed    string // the values a first enter confirmed
	sendNext bool   // enter came before the answer: send (or ask) once it comes
}

// lookDueMsg fires when typing has rested.
type lookDueMsg struct {
	owner *Model
	seq   int
}

// lookedMsg carries a lookup's answer.
type lookedMsg struct {
	owner *Model
	key   string
	found any
	err   error
}

// key is the lookup key of the current values, "" when there is none.
func (m *Model) lookupKey() string {
	if m.cfg.Lookup == nil || m.cfg.LookupKey == nil {
		return ""
	}
	return m.cfg.LookupKey(m.Values())
}

// changed follows a change of the values: a first enter no longer counts,
// and a new key is looked up once typing rests.
func (m *Model) changed() tea.Cmd {
	m.look.armed, m.look.sendNext = "", false // typing after enter: enter again
	key := m.lookupKey()
	if key == "" || (m.look.known && m.look.key == key) {
		return nil
	}
	m.look.seq++
	seq, owner := m.look.seq, m
	return tea.Tick(LookupDelay, func(time.Time) tea.Msg { return lookDueMsg{owner: owner, seq: seq} })
}

// ask sends the lookup of the current key.
func (m *Model) ask() tea.Cmd {
	key := m.lookupKey()
	if key == "" || m.look.asked == key {
		return nil
	}
	m.look.asked = key
	ctx, f, values, owner := m.cfg.Ctx, m.cfg.Lookup, m.Values(), m
	return func() tea.Msg {
		found, err := f(ctx, values)
		return lookedMsg{owner: owner, key: key, found: found, err: err}
	}
}

func (m *Model) updateLookup(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case lookDueMsg:
		if msg.owner == m && msg.seq == m.look.seq {
			return m.ask()
		}
	case lookedMsg:
		if msg.owner != m {
			return nil
		}
		if msg.key == m.look.asked {
			m.look.asked = ""
		}
		if msg.key != m.lookupKey() {
			return nil // typed on since: another lookup comes
		}
		m.look.key, m.look.found, m.look.err, m.look.known = msg.key, msg.found, msg.err, true
		if m.look.sendNext {
			m.look.sendNext = false
			return m.accept()
		}
	}
	return nil
}

// signature names the values, for "enter again sends these".
func (m *Model) signature() string {
	v := m.Values()
	keys := slices.Sorted(maps.Keys(v))
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + v[k] + "\x00")
	}
	return b.String()
}

// accept is enter: send, unless what the values would replace is not
// known yet (it is looked up first) or needs a second enter.
func (m *Model) accept() tea.Cmd {
	if m.lost != nil {
		return m.acceptLost()
	}
	if m.unfit() {
		return views.FlashError("fix the fields marked first")
	}
	key := m.lookupKey()
	if key != "" && !(m.look.known && m.look.key == key) {
		m.look.sendNext = true
		return m.ask()
	}
	if _, confirm := m.warning(); confirm && m.look.armed != m.signature() {
		m.look.armed = m.signature()
		return views.Flash(m.common.Key(keymap.Accept) + " again to go on (" + m.common.Key(keymap.Cancel) + " cancels)")
	}
	return m.send()
}

// warning is what the lookup says of the current values, and whether it
// takes a second enter.
func (m *Model) warning() (string, bool) {
	key := m.lookupKey()
	switch {
	case key == "" || m.cfg.Warn == nil:
		return "", false
	case m.look.sendNext || !(m.look.known && m.look.key == key):
		return "checking what this would change…", false
	case m.look.err != nil:
		return "could not check what this would change (" + safe.String(m.look.err.Error()) + ")", true
	}
	return m.cfg.Warn(m.Values(), m.look.found)
}

// lookedKey is the context key of what the lookup found for the values
// sent.
type lookedKey struct{}

// Looked is what the form's lookup found for the values that Submit sends
// (or that Check looks up after their answer was lost), nil for nothing
// or without a Lookup. The form keeps it, in Update, and gives it with the
// request's context, so that Submit and Check need keep nothing of their
// own across commands (a tag's send says whether it moved the tag).
func Looked(ctx context.Context) any { return ctx.Value(lookedKey{}) }

// beganKey is the context key of what Begin said of a send.
type beganKey struct{}

// Attempt is what the form's Begin said of the send that Submit makes (or
// whose lost answer Check looks for), nil without a Begin.
func Attempt(ctx context.Context) any { return ctx.Value(beganKey{}) }

// withSent is ctx carrying what the lookup found, when the form has one,
// and what Begin said of the send.
func (m *Model) withSent(ctx context.Context, looked, began any) context.Context {
	if m.cfg.Lookup == nil && m.cfg.Begin == nil {
		return ctx
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if m.cfg.Lookup != nil {
		ctx = context.WithValue(ctx, lookedKey{}, looked)
	}
	if m.cfg.Begin != nil {
		ctx = context.WithValue(ctx, beganKey{}, began)
	}
	return ctx
}

// looked is what the lookup found for the current values, if it is known.
func (m *Model) looked() any {
	if key := m.lookupKey(); key != "" && m.look.known && m.look.key == key {
		return m.look.found
	}
	return nil
}
