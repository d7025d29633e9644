package table

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
)

// Actions lists what applies to a table.
func (m *Model[T]) Actions() []keymap.State {
	if m.editing() {
		return m.editor.Actions()
	}
	if m.TakesText() {
		states := m.search.Actions()
		if chip := m.serverChip(); chip != "" {
			states = append(states, keymap.On(keymap.ServerFilter))
		}
		return states
	}
	open := keymap.On(keymap.Open)
	if m.cfg.Open == nil {
		open = keymap.Off(keymap.Open, m.cfg.OpenReason)
	}
	sortState := keymap.On(keymap.Sort)
	if len(m.cfg.Orders) < 2 {
		sortState = keymap.Off(keymap.Sort, "this collection has one order")
	}
	copyState := keymap.On(keymap.Copy)
	if m.cfg.Copy == nil {
		copyState = keymap.Off(keymap.Copy, "nothing to copy here")
	}
	states := []keymap.State{open, m.backState(), keymap.On(keymap.Filter), sortState, keymap.On(keymap.Refresh), copyState}
	if m.cfg.CopyRef != nil {
		states = append(states, keymap.On(keymap.CopyRef))
	}
	if m.cfg.Flag != nil {
		states = append(states, keymap.On(keymap.OnlyFlagged), keymap.On(keymap.MarkFlagged))
	}
	if m.cfg.Hidden != nil {
		states = append(states, m.hiddenState())
	}
	if m.cfg.Bind != nil {
		states = append(states, m.common.Change(keymap.Bind))
	}
	if m.cfg.Advisories != nil {
		states = append(states, keymap.On(keymap.Advisories))
	}
	if m.cfg.Page != nil {
		states = append(states, keymap.On(keymap.Page))
	}
	if m.cfg.Flag != nil || m.cfg.Delete != nil || m.cfg.CopyMany != nil || m.cfg.Bind != nil {
		states = append(states, keymap.On(keymap.Mark))
	}
	if m.cfg.Edit != nil {
		states = append(states, m.common.Change(keymap.Edit))
	}
	if m.cfg.New != nil {
		states = append(states, m.common.Change(keymap.New))
	}
	if m.cfg.Delete != nil {
		states = append(states, m.common.Change(keymap.Delete))
	}
	if m.serverChip() != "" && m.chip == "" {
		states = append(states, keymap.On(keymap.ServerFilter))
	}
	states = append(states, m.cfg.Off...)
	return append(states,
		withAction(open, keymap.Expand), keymap.Quiet(keymap.Collapse),
		keymap.Quiet(keymap.Up), keymap.Quiet(keymap.Down), keymap.Quiet(keymap.Top), keymap.Quiet(keymap.Bottom),
		keymap.Quiet(keymap.HalfUp), keymap.Quiet(keymap.HalfDown), keymap.Quiet(keymap.PageUp), keymap.Quiet(keymap.PageDown),
	)
}

// do runs an enabled action.
func (m *Model[T]) do(a keymap.Action) tea.Cmd {
	m.toEnd = false
	if to, ok := views.Step(a, m.cursor, m.rows(), m.bodyRows()); ok {
		// Without a total the end is not known: G follows the pages to it.
		m.toEnd = a == keymap.Bottom && !m.filtering() && !m.only && !m.cfg.List.Exact()
		return m.moveTo(to)
	}
	switch a {
	case keymap.Open, keymap.Expand:
		if it, ok := m.Selected(); ok {
			return m.cfg.Open(it)
		}
		if m.rows() == 0 && m.filtering() {
			return views.Flash("nothing matches the filter")
		}
		return views.Flash("row not loaded yet")
	case keymap.Back, keymap.Collapse:
		switch {
		case m.search != nil && m.search.Active():
			was := m.position(m.cursor)
			m.search.Clear()
			m.cursor = max(was, 0)
			m.offset = max(0, m.cursor-m.bodyRows()/2)
			m.clamp()
			return m.ensure()
		case len(m.marks) > 0:
			// Marks go first: they are work about to be done (a bulk
			// delete), and leaving the screen would lose them.
			n := len(m.marks)
			clear(m.marks)
			return views.Flash(fmt.Sprintf("unmarked %d rows", n))
		case m.only && m.cfg.FlaggedFirst:
			// Opened to show flagged rows (D in the tree, :deprecated):
			// esc goes back where it came from.
			m.closed = true
			return nil
		case m.only:
			return m.toggleOnly()
		case m.chip != "":
			return m.removeChip()
		}
		m.closed = true
		return nil
	case keymap.Mark:
		return m.toggleMark()
	case keymap.MarkFlagged:
		return m.markFlagged()
	case keymap.OnlyFlagged:
		return m.toggleOnly()
	case keymap.ShowHidden:
		return m.toggleHidden()
	case keymap.Delete:
		return m.deleteDialog()
	case keymap.Edit:
		return m.startEdit()
	case keymap.New:
		return m.cfg.New()
	case keymap.Bind:
		if ts := m.targets(); len(ts) > 0 {
			return m.cfg.Bind(ts)
		}
		return nil
	case keymap.Advisories:
		if it, ok := m.Selected(); ok && it != nil {
			return m.cfg.Advisories(it)
		}
		return nil
	case keymap.Filter:
		return m.openFilter()
	case keymap.ServerFilter:
		return m.applyServerFilter()
	case keymap.Sort:
		return m.cycleSort()
	case keymap.Refresh:
		if err, _ := m.cfg.List.Err(); err != nil {
			return m.cfg.List.Retry(m.cursor, m.bodyRows())
		}
		m.keepFocus()
		// The rows stay until the new first page comes (stale if it fails).
		return m.cfg.List.Refresh()
	case keymap.Copy:
		return m.copyTargets()
	case keymap.CopyRef:
		if it, ok := m.Selected(); ok {
			return views.Copy(m.cfg.CopyRef(it))
		}
		return views.Flash("row not loaded yet")
	case keymap.Page:
		if it, ok := m.Selected(); ok {
			return m.cfg.Page(it)
		}
		return views.Flash("row not loaded yet")
	}
	return nil
}

// backState is esc, named for what it does here: the innermost thing it
// undoes (see do), or going back.
func (m *Model[T]) backState() keymap.State {
	back := keymap.On(keymap.Back)
	switch {
	case m.search != nil && m.search.Active():
		return back.Saying("clear filter")
	case len(m.marks) > 0:
		return back.Saying("unmark")
	case m.only && !m.cfg.FlaggedFirst:
		return back.Saying("show all")
	case m.only:
	case m.chip != "":
		return back.Saying("remove server filter")
	}
	return back
}

// withAction is s for another action (same enabled state and reason),
// hidden from the footer: for keys that mean the same here.
func withAction(s keymap.State, a keymap.Action) keymap.State {
	s.Action, s.Hide = a, true
	return s
}
