package table

import (
	"fmt"
	"sort"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
)

// Keeping the cursor on its item across a reload (a sort, a change to the
// list): the item is remembered, and found again when a page brings it.

// keepFocus remembers the item under the cursor so that refocus can find
// it after a reload.
func (m *Model[T]) keepFocus() {
	m.focusUID, m.focusName, m.focusWhy = "", "", ""
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
	found := -1
	m.cfg.List.Each(func(pos int, it *T) bool {
		if m.cfg.Key(it) == m.focusUID {
			found = pos
			return false
		}
		return true
	})
	if found >= 0 && m.only {
		i := sort.SearchInts(m.onlyRows, found)
		if i < len(m.onlyRows) && m.onlyRows[i] == found {
			found = i
		} else {
			found = -1 // loaded, but no longer flagged
		}
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
