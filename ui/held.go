package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// A screen is pushed in the Update of the key that opens it, so the keys
// after that key (in the same read of the terminal: `b1⏎` typed fast, or
// sent by a script) go to it. Keys are held only while what they are for
// is not there yet: a screen's rows (a table before its first page, or
// after a sort: `:repos⏎jjj⏎` moves over the repos), or what the command
// line or the help, closing, asked for. Whatever does not come within
// Waits.HoldKeys gets the keys as things are; at most holdMost are held.
const holdMost = 256

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

// hold keeps a key for what it waits for.
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
	return tea.Tick(m.opts.Waits.HoldKeys, func(time.Time) tea.Msg { return heldKeysMsg{gen: gen} })
}

// awaited reports whether keys typed now are for what the command line
// ran, or for the screen under the help, whose message is on its way.
func (m *Model) awaited() bool {
	return m.cmd != nil && m.cmd.Closing() || m.help != nil && m.help.Closing()
}

// settled gives the held keys to the top screen once nothing is awaited
// and it is ready.
func (m *Model) settled() tea.Cmd {
	if m.awaited() || len(m.held) == 0 || !m.topReady() {
		return nil
	}
	return m.release(false)
}

// timedOut releases held keys whose wait did not end in time.
func (m *Model) timedOut(msg heldKeysMsg) tea.Cmd {
	if msg.gen != m.holdGen || len(m.held) == 0 {
		return nil
	}
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
// that runs a command line (or, unless the wait timed out, opens a screen
// not ready or leaves one so, as a sort does) holds the rest again.
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
