package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// maybeTick starts the spinner clock while a screen waits.
func (m *Model) maybeTick() tea.Cmd {
	if m.ticking || !m.busy() {
		return nil
	}
	m.ticking = true
	return tea.Tick(120*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *Model) busy() bool {
	if m.starting && m.startErr == nil {
		return true
	}
	for _, e := range m.stack {
		if e.screen.Busy() {
			return true
		}
	}
	return false
}

func (m *Model) setFlash(text string, isErr bool) tea.Cmd {
	m.flash, m.flashErr, m.flashRead = text, isErr, false
	m.flashSeq++
	seq := m.flashSeq
	d := m.opts.Waits.Flash
	if isErr {
		// A failure stays until the next key (see keyClearsFailure), or
		// for FlashError at least: one that came while nobody looked is
		// not gone before it is read.
		d = m.opts.Waits.FlashError
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return clearFlashMsg{seq: seq, failure: isErr} })
}

// ending is a message that ends what a flash said was under way (the
// editor a readme was read for returned): the text goes as the message is
// handled, not when its clock runs out.
type ending interface{ ends() string }

// flashOver takes text off the status line, unless another message has
// taken its place.
func (m *Model) flashOver(text string) {
	if text != "" && m.flash == text && !m.flashErr {
		m.flash = ""
	}
}

// keyClearsFailure takes a failure off the status line at the next key,
// once it has been there long enough to be read (its clock ran out).
func (m *Model) keyClearsFailure() {
	if m.flashErr && m.flashRead {
		m.flash, m.flashErr, m.flashRead = "", false, false
	}
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
