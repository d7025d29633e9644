package form

// A change whose answer was lost (Config.Lost: a dropped connection, a
// timeout) may or may not have been made: it is neither failed nor done,
// and enter never sends it again blindly. The form first looks up what the
// server has (Config.Check) and says it: the change is there (the form
// closes as on success), it is not (only then does enter send again), the
// server has something else (enter puts that in the fields to edit from),
// or the lookup failed (enter looks again).

import (
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
)

// Verdict is what a lookup after a lost answer found.
type Verdict int

const (
	// Absent: the server does not have the change; sending it again is
	// safe.
	Absent Verdict = iota
	// Made: the server has the change; Found.Result is what it has.
	Made
	// Other: the server has something else (another value, or the
	// resource is gone); Found.Values are its values, if any.
	Other
)

// Found is the answer of Config.Check.
type Found struct {
	Verdict Verdict
	// Says is what the server has, for the user (safe to print): "the
	// server has it: created", "the server still has the old value".
	Says string
	// Result, when Made, goes to Done as a success's answer would.
	Result any
	// Values, when Other, are the server's values by field key: enter
	// puts them in the fields (and tells Rebase) to edit from. Nil: there
	// is nothing to edit from.
	Values map[string]string
}

// lost is the state of a change whose answer was lost.
type lost struct {
	values   map[string]string // what was sent
	looked   any               // what the lookup had found for it (see Looked)
	began    any               // what Begin said of its send (see Attempt)
	checking bool
	seq      int // counts the lookups; answers to older ones are dropped
	found    *Found
	err      error // why the last lookup failed
}

// checkedMsg carries what Check found.
type checkedMsg struct {
	owner *Model
	seq   int
	found Found
	err   error
}

// Lost reports whether the form holds a change whose answer was lost and
// that has not been settled since.
func (m *Model) Lost() bool { return m.lost != nil }

// checking reports whether a lookup after a lost answer is on its way.
func (m *Model) checking() bool { return m.lost != nil && m.lost.checking }

// lose takes a lost answer to the values sent: nothing is sent again until
// a lookup says what the server has.
func (m *Model) lose(err error, values map[string]string, looked, began any) tea.Cmd {
	_, m.formErr = m.explain(err)
	clear(m.server)
	m.lost = &lost{values: values, looked: looked, began: began}
	return m.lookAgain()
}

// lookAgain asks Check what the server has for the values sent.
func (m *Model) lookAgain() tea.Cmd {
	if m.cfg.Check == nil {
		return nil
	}
	m.lost.checking, m.lost.err, m.lost.found = true, nil, nil
	m.lost.seq++
	owner, seq, check, values := m, m.lost.seq, m.cfg.Check, m.lost.values
	ctx := m.withSent(m.cfg.Ctx, m.lost.looked, m.lost.began)
	return func() tea.Msg {
		found, err := check(ctx, values)
		return checkedMsg{owner: owner, seq: seq, found: found, err: err}
	}
}

// checked takes what Check found: a change the server has is done.
func (m *Model) checked(msg checkedMsg) tea.Cmd {
	if msg.owner != m || m.lost == nil || msg.seq != m.lost.seq {
		return nil
	}
	m.lost.checking = false
	if msg.err != nil {
		m.lost.err = msg.err
		return nil
	}
	m.lost.found = &msg.found
	if msg.found.Verdict == Made {
		return tea.Sequence(m.close(true), m.cfg.Done(msg.found.Result))
	}
	return nil
}

// acceptLost is enter while an answer is lost: never a blind resend.
func (m *Model) acceptLost() tea.Cmd {
	l := m.lost
	switch {
	case l.checking:
		return views.Flash("checking what the server has: wait for it")
	case m.cfg.Check == nil:
		return views.FlashError("no answer: the change may have been made; " + m.lookHint())
	case l.err != nil || l.found == nil:
		return m.lookAgain()
	case l.found.Verdict == Other && l.found.Values == nil:
		return views.FlashError(l.found.Says + ": nothing to send again (" + m.common.Key(keymap.Cancel) + " closes)")
	case l.found.Verdict == Other:
		m.rebase(l.found.Values)
		m.settle()
		return views.Flash("the fields hold what the server has: edit them, then " + m.common.Key(keymap.Accept) + " sends")
	}
	m.settle()
	return m.accept()
}

// settle ends the lost state: what the server has is known and said.
func (m *Model) settle() {
	m.lost, m.formErr = nil, nil
	// What a lookup found while typing may have changed with the lost
	// change: look it up again before it is trusted.
	m.look.known, m.look.armed = false, ""
}

// rebase makes the server's values the fields' starting values, so that
// what is sent next is said against what the server has.
func (m *Model) rebase(values map[string]string) {
	for i, f := range m.cfg.Fields {
		v, ok := values[f.Key]
		if !ok {
			continue
		}
		m.cfg.Fields[i].Value = v
		m.shown[i] = safe.String(v)
		m.inputs[i].SetValue(m.shown[i])
		m.inputs[i].CursorEnd()
		m.check(i)
	}
	if m.cfg.Rebase != nil {
		m.cfg.Rebase(values)
	}
}

// lostStatus is the status line while an answer is lost.
func (m *Model) lostStatus() (string, []string) {
	th := m.common.Theme
	l := m.lost
	warn := func(s string, keys ...string) (string, []string) { return th.Warn.Render("? no answer; " + s), keys }
	enter, esc := m.common.Key(keymap.Accept), m.common.Key(keymap.Cancel)
	switch {
	case l.checking:
		return warn("checking what the server has…", esc+" cancels")
	case m.cfg.Check == nil:
		return warn("unknown whether it was made", m.lookHint())
	case l.err != nil || l.found == nil:
		return warn("could not look it up", enter+" looks again", esc+" cancels")
	case l.found.Verdict == Made:
		return th.Good.Render("the server has it"), nil
	case l.found.Verdict == Other && l.found.Values == nil:
		return warn(l.found.Says, esc+" closes")
	case l.found.Verdict == Other:
		return warn("the server has another value", enter+" edits from it", esc+" cancels")
	}
	return warn(l.found.Says, enter+" sends again", esc+" cancels")
}

// lostFooter is what the footer says under the lost answer: what the
// server has, or why it could not be told.
func (m *Model) lostFooter() string {
	l := m.lost
	switch {
	case l.checking:
		return "checking what the server has…"
	case m.cfg.Check == nil:
		return m.lookHint()
	case l.err != nil:
		return "could not look it up: " + safe.String(l.err.Error()) + " — " + m.common.Key(keymap.Accept) + " looks again"
	case l.found == nil:
		return ""
	case l.found.Verdict == Absent:
		return l.found.Says + ": " + m.common.Key(keymap.Accept) + " sends again"
	case l.found.Verdict == Other && l.found.Values != nil:
		return l.found.Says + " — " + m.common.Key(keymap.Accept) + " puts it in the field to edit from"
	}
	return l.found.Says
}

// lookHint says how to learn what the server has when the form cannot
// look it up: close it, and refresh the screen below.
func (m *Model) lookHint() string {
	if m.cfg.Unreadable != "" {
		return m.cfg.Unreadable
	}
	return m.common.Key(keymap.Cancel) + ", then " + m.common.Key(keymap.Refresh) + " to see what the server has"
}
