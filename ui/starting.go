package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
)

// Preparing is work the shell waits for before it asks the server
// anything: the demo seeds its emulator in the background, a part of a
// second at the large size (more on a busy machine), so that the first
// frame comes at once rather than after a blank terminal. Meanwhile the
// status line says how far the work is.
type Preparing interface {
	Ready() <-chan struct{} // closed once the work is done
	Progress() string       // how far it is, in a few words; once Ready, what it did
	// Opened is called once the start is over: the organization's first
	// screen has its first rows, or the start failed. What was held back
	// meanwhile (the demo's garbage collection) may go on.
	Opened()
}

// progressEvery is how often the status line's progress is read again;
// sayAgain how often it is said again unchanged, so that the flash, which
// clears after a few seconds, stays while a step (indexing) takes long.
const (
	progressEvery = 100 * time.Millisecond
	sayAgain      = 2 * time.Second
)

// afterPreparing runs next once p is done (at once when p is nil),
// saying its progress on the status line until then. Each step is a
// command that returns the progress said, then the next step, in a
// sequence (which the program runs without an Update), so the wait keeps
// no state of the shell's, and q and ctrl+c end it as they end any wait.
// A sequence, not a batch: a batch runs its commands at once, and on a
// busy machine a progress said late landed after the organization had
// opened, the status line saying the demo was still being built.
func afterPreparing(ctx context.Context, p Preparing, next tea.Cmd) tea.Cmd {
	if p == nil {
		return next
	}
	return prepareStep(ctx, p, next, "", time.Time{})
}

// prepareStep waits a while first (unless nothing was said yet), then
// returns next's message once p is done, or says the progress when it is
// no longer what was said at saidAt, or was said a while ago.
func prepareStep(ctx context.Context, p Preparing, next tea.Cmd, said string, saidAt time.Time) tea.Cmd {
	return func() tea.Msg {
		wait := !saidAt.IsZero()
		for {
			if wait {
				select {
				case <-p.Ready():
				case <-ctx.Done():
					return nil
				case <-time.After(progressEvery):
				}
			}
			wait = true
			select {
			case <-p.Ready():
				// What the work did, then the organization: in that order.
				return tea.Sequence(views.Flash(p.Progress()), next)()
			default:
			}
			if text := p.Progress(); text != said || time.Since(saidAt) >= sayAgain {
				return tea.Sequence(views.Flash(text), prepareStep(ctx, p, next, text, time.Now()))()
			}
		}
	}
}

// preparing reports whether the shell still waits for Options.Preparing.
func (m *Model) preparing() bool {
	if m.opts.Preparing == nil {
		return false
	}
	select {
	case <-m.opts.Preparing.Ready():
		return false
	default:
		return true
	}
}

// opening is a screen whose first rows may not be in yet (the explorer,
// until its organization's first page).
type opening interface{ HasFirstRows() bool }

// endStart tells Options.Preparing, once, that the start is over: the top
// screen has its first rows, or the start failed.
func (m *Model) endStart() tea.Cmd {
	p := m.opts.Preparing
	if p == nil || m.startOver || m.startErr == nil && (m.starting || !m.topOpened()) {
		return nil
	}
	m.startOver = true
	return func() tea.Msg {
		p.Opened()
		return nil
	}
}

// topOpened reports whether the top screen has its first rows.
func (m *Model) topOpened() bool {
	switch s := m.top().(type) {
	case nil:
		return false
	case opening:
		return s.HasFirstRows()
	case readiness:
		return s.Ready()
	}
	return true
}
