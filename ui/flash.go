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
	m.flash, m.flashErr = text, isErr
	m.flashSeq++
	seq := m.flashSeq
	d := m.opts.Waits.Flash
	if isErr {
		d = m.opts.Waits.FlashError
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return clearFlashMsg{seq: seq} })
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
