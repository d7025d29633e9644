package ui

// The session kept between runs (package state): on quit, where the
// explorer was on the organization open; at the next start on that
// organization, its branches opened again and the cursor put back, and
// the last command offered on the command line.

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/state"
	"canopy/views/cmdline"
	"canopy/views/explorer"
)

// Session is where the explorer is now, to keep: false before an
// organization is open.
func (m *Model) Session() (state.Session, bool) {
	if m.env.org == nil || len(m.stack) == 0 {
		return state.Session{}, false
	}
	s := state.Session{OrgUID: m.env.org.UID, OrgName: m.env.org.Name, Command: m.lastCommand, Saved: m.common.Clock()}
	if ex, ok := m.stack[0].screen.(*explorer.Model); ok {
		s.Open, s.Cursor = ex.Tree().Opened(state.MaxBranches), ex.Tree().CursorPath()
	}
	return s, true
}

// resume puts the explorer back where the last session on this
// organization left it (once, at the first start, when no start was
// asked for).
func (m *Model) resume() tea.Cmd {
	s, ok := m.opts.Resume.Orgs[m.env.org.UID]
	m.opts.Resume.Orgs = nil
	if !ok {
		return nil
	}
	if m.lastCommand == "" {
		m.lastCommand = s.Command
	}
	ex, ok := m.top().(*explorer.Model)
	if !ok || len(s.Open) == 0 && len(s.Cursor) == 0 {
		return nil
	}
	say := "back where you left off"
	if s.Command != "" {
		say += " · " + m.common.Key(keymap.Command) + " then " + m.common.Key(keymap.Complete) + " brings back :" + s.Command
	}
	return tea.Batch(ex.Tree().Restore(s.Open, s.Cursor), m.setFlash(say, false))
}

// remember keeps the line of a command run, to offer it again (and
// after a restart): a place to go back to, never a change (`:save` again
// would write the view once more) nor a way out.
func (m *Model) remember(msg cmdline.RunMsg) {
	switch msg.Name {
	case "quit", "help", "save":
		return
	}
	m.lastCommand = strings.TrimSpace(msg.Name + " " + strings.Join(msg.Args, " "))
}
