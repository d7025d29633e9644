package table

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
)

// Keeping the cursor on its item across a reload (a sort, a change to the
// list): the item is remembered, and found again when a page brings it.

// keepFocus remembers the item under the cursor so that refocus can find
// it after a reload.
func (m *Model[T]) keepFocus() {
	m.focusUID, m.focusName, m.focusWhy = "", "", ""
	m.focusLooked = -1
	if it, ok := m.Selected(); ok {
		m.focusUID = m.cfg.Key(it)
		m.focusName = string(m.cfg.Columns[0].Cell(it))
	}
}

// refocus moves the cursor to the remembered item when a page brings it
// (in deprecated-only mode, to its row among the flagged ones). When the
// reload is done and the item is not among the rows loaded, the cursor
// goes to the top and, after a sort, a flash says why.
func (m *Model[T]) refocus() tea.Cmd {
	if m.focusUID == "" {
		return nil
	}
	found := m.findFocus()
	if found >= 0 && !m.filtering() {
		found = m.rowOf(found) // -1: loaded, but no longer flagged
	}
	switch {
	case found >= 0 && !m.filtering():
		m.cursor = found
		m.offset = max(0, found-m.bodyRows()/2)
		m.focusUID = ""
	case m.cfg.List.Total() >= 0 && !m.cfg.List.Busy():
		name, why := m.focusName, m.focusWhy
		m.cursor, m.offset = 0, 0
		m.focusUID, m.focusName, m.focusWhy = "", "", ""
		if why != "" && found < 0 {
			where := "the first page of " + why
			if m.only {
				where = "the " + m.cfg.Flag.Name + " rows"
			}
			return views.Flash(fmt.Sprintf("%s is not in %s: cursor at top", name, where))
		}
	}
	return nil
}

// findFocus is the list position of the remembered item, or -1. The rows
// loaded are looked through once per list generation; after that only the
// rows of the page just added: a reload of 10⁶ rows would otherwise look
// through everything loaded for every page that comes.
func (m *Model[T]) findFocus() int {
	l := m.cfg.List
	found := -1
	look := func(pos int, it *T) bool {
		if m.cfg.Key(it) == m.focusUID {
			found = pos
			return false
		}
		return true
	}
	if m.focusLooked != l.Gen() {
		m.focusLooked = l.Gen()
		l.Each(look)
		return found
	}
	start, end := l.Added()
	for p := start; p < end && found < 0; p++ {
		if it, ok := l.At(p); ok {
			look(p, it)
		}
	}
	return found
}
