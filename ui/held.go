package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Keys typed while a screen is on its way (the key that opens it and the
// next ones arrive in one read of the terminal: `b1⏎` typed fast, or sent
// by a script) are held and given to that screen once it is pushed and
// ready (a table, once its first page came), instead of to the screen under
// it or to no rows. Whatever does not come within holdFor gets the keys as
// things are.
const (
	holdFor  = 2 * time.Second
	holdMost = 256
)

// readiness is a screen that is not ready for keys typed ahead before its
// first rows came (a table: `:repos⏎jjj⏎` moves over the repos).
type readiness interface{ Ready() bool }

// topReady reports whether the top screen can take keys typed ahead.
func (m *Model) topReady() bool {
	r, ok := m.top().(readiness)
	return !ok || r.Ready()
}

// heldKeysMsg releases the keys held since the hold numbered gen.
type heldKeysMsg struct{ gen int }

// hold keeps a key for the screen on its way.
func (m *Model) hold(k tea.KeyPressMsg) tea.Cmd {
	if len(m.held) >= holdMost {
		return m.setFlash("too many keys typed ahead: some were dropped", true)
	}
	m.held = append(m.held, k)
	if len(m.held) > 1 {
		return nil
	}
	m.holdGen++
	gen := m.holdGen
	return tea.Tick(holdFor, func(time.Time) tea.Msg { return heldKeysMsg{gen: gen} })
}

// awaited reports whether keys typed now are for something on its way: a
// screen asked for, or what the command line just ran.
func (m *Model) awaited() bool {
	return m.env.opening > 0 || m.cmd != nil && m.cmd.Closing() || m.help != nil && m.help.Closing()
}

// opened notes a screen pushed.
func (m *Model) opened(msg openMsg) tea.Cmd {
	if msg.counted && m.env.opening > 0 {
		m.env.opening--
	}
	return m.settled()
}

// settled gives the held keys to the top screen once nothing is awaited
// and it is ready.
func (m *Model) settled() tea.Cmd {
	if m.awaited() || len(m.held) == 0 || !m.topReady() {
		return nil
	}
	return m.release(false)
}

// timedOut releases held keys whose screen did not come.
func (m *Model) timedOut(msg heldKeysMsg) tea.Cmd {
	if msg.gen != m.holdGen || len(m.held) == 0 {
		return nil
	}
	m.env.opening = 0
	if m.cmd != nil && m.cmd.Closing() {
		m.cmd = nil
		m.layout()
	}
	if m.help != nil && m.help.Closing() {
		m.help = nil
	}
	return m.release(true)
}

// release gives the held keys, in order, to whatever has them now; a key
// that opens another screen (or, unless the wait timed out, leaves one not
// ready, as a sort does) holds the rest again.
func (m *Model) release(timedOut bool) tea.Cmd {
	keys := m.held
	m.held = nil
	// Keys whose wait timed out go to the screen as it is, rows or not.
	m.releasing = timedOut
	defer func() { m.releasing = false }()
	var cmds []tea.Cmd
	for i, k := range keys {
		cmds = append(cmds, m.key(k))
		if m.awaited() || !timedOut && !m.topReady() {
			for _, rest := range keys[i+1:] {
				cmds = append(cmds, m.hold(rest))
			}
			break
		}
	}
	return tea.Batch(cmds...)
}
