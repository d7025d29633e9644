package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"canopy/saved"
	"canopy/views"
)

// entry is a screen on the stack and the cancel of its requests.
type entry struct {
	screen views.Screen
	ctx    context.Context
	cancel context.CancelFunc
	// command is set on a screen a `:` command opened: the next command's
	// screen replaces it; origin is its collection as a view (:save).
	command bool
	origin  *saved.View
}

// top is the screen on top of the stack, or nil.
func (m *Model) top() views.Screen {
	if len(m.stack) == 0 {
		return nil
	}
	return m.stack[len(m.stack)-1].screen
}

// push opens a screen under a fresh context.
func (m *Model) push(build func(ctx context.Context) views.Screen) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	s := build(ctx)
	m.stack = append(m.stack, entry{screen: s, ctx: ctx, cancel: cancel})
	m.layout()
	return s.Init()
}

// pop closes the top screen and cancels its requests.
func (m *Model) pop() {
	if len(m.stack) <= 1 {
		return
	}
	last := m.stack[len(m.stack)-1]
	last.cancel()
	m.stack = m.stack[:len(m.stack)-1]
	m.layout()
}

// open pushes a screen asked for (see env.open); a `:` command's screen
// replaces the last `:` command's screen and what was opened on it (its
// rows' pages, their tables), as a jump in k9s does: the breadcrumb holds
// one command's screens, however many commands were typed.
func (m *Model) open(a screenAsk) tea.Cmd {
	if a.command {
		for i := len(m.stack) - 1; i > 0; i-- {
			if m.stack[i].command {
				for len(m.stack) > i {
					m.pop()
				}
				break
			}
		}
	}
	cmd := m.push(a.build)
	m.stack[len(m.stack)-1].command = a.command
	m.stack[len(m.stack)-1].origin = a.origin
	return cmd
}

// reap takes off the stack, after each message, every screen that closed
// itself in it (views.Closer), and cancels its requests: esc on a table
// closes it in the Update of the esc, so the next key goes to the screen
// below. The first screen stays.
func (m *Model) reap() {
	kept := m.stack[:0]
	for i, e := range m.stack {
		if i > 0 && views.Closed(e.screen) {
			e.cancel()
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) == len(m.stack) {
		return
	}
	clear(m.stack[len(kept):])
	m.stack = kept
	m.layout()
}

// popAll closes every screen but the first.
func (m *Model) popAll() {
	for len(m.stack) > 1 {
		m.pop()
	}
}

// broadcast gives a message to every screen: answers to requests belong to
// whichever screen sent them, and each screen ignores what is not its own.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.stack))
	for _, e := range m.stack {
		cmds = append(cmds, e.screen.Update(msg))
	}
	return tea.Batch(cmds...)
}
