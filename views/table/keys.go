package table

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/filter"
)

// Actions lists what applies to a table, each with what it does.
func (m *Model[T]) Actions() []keymap.State {
	if m.editing() {
		return m.editor.Actions()
	}
	if m.TakesText() {
		states := m.search.Actions()
		if st, ok := m.serverState(); ok {
			states = append(states, m.stops(st))
		}
		return states
	}
	open := keymap.On(keymap.Open).Does(m.open)
	if m.cfg.Open == nil {
		open = keymap.Off(keymap.Open, m.cfg.OpenReason)
	}
	sortState := keymap.On(keymap.Sort).Does(m.cycleSort)
	if len(m.cfg.Orders) < 2 {
		sortState = keymap.Off(keymap.Sort, "this collection has one order")
	}
	copyState := keymap.On(keymap.Copy).Does(m.copyTargets)
	if m.cfg.Copy == nil {
		copyState = keymap.Off(keymap.Copy, "nothing to copy here")
	}
	states := []keymap.State{open, m.backState().Does(m.back), keymap.On(keymap.Filter).Does(m.openFilter), sortState,
		keymap.On(keymap.Refresh).Does(m.refresh), copyState}
	if m.cfg.CopyRef != nil {
		states = append(states, keymap.On(keymap.CopyRef).Does(m.copyRef))
	}
	if m.cfg.Flag != nil {
		// Said with the table's own word for its flag ("deprecated",
		// "flagged").
		name := m.cfg.Flag.Name
		states = append(states, keymap.On(keymap.OnlyFlagged).Saying(name+" only").Does(m.toggleOnly),
			keymap.On(keymap.MarkFlagged).Saying("mark "+name).Does(m.markFlagged))
	}
	if m.cfg.Hidden != nil {
		states = append(states, m.hiddenState().Does(m.toggleHidden))
	}
	if m.cfg.Bind != nil {
		states = append(states, m.common.Change(keymap.Bind).Does(m.bind))
	}
	if m.cfg.Advisories != nil {
		states = append(states, keymap.On(keymap.Advisories).Does(m.advisories))
	}
	if m.cfg.Page != nil {
		states = append(states, keymap.On(keymap.Page).Does(m.page))
	}
	if m.cfg.Flag != nil || m.cfg.Delete != nil || m.cfg.CopyMany != nil || m.cfg.Bind != nil {
		states = append(states, keymap.On(keymap.Mark).Does(m.toggleMark))
	}
	if m.cfg.Edit != nil {
		states = append(states, m.common.Change(keymap.Edit).Does(m.startEdit))
	}
	if m.cfg.New != nil {
		states = append(states, m.common.Change(keymap.New).Does(m.cfg.New))
	}
	if m.cfg.Delete != nil {
		states = append(states, m.common.Change(keymap.Delete).Does(m.deleteDialog))
	}
	if st, ok := m.serverState(); ok {
		states = append(states, st)
	}
	states = m.rowOff(append(states, m.cfg.Off...))
	if m.cfg.Cells != nil {
		// The cell cursor's: enter opens the cell, → ← move it.
		states = append(m.cellStates(), slices.DeleteFunc(states, func(s keymap.State) bool { return s.Action == keymap.Open })...)
	} else {
		states = append(states, withAction(open, keymap.Expand), keymap.Quiet(keymap.Collapse).Does(m.back))
	}
	moves := views.Moves(m.cursor, m.rows(), m.bodyRows(), m.moveTo)
	for i, s := range moves {
		if s.Action == keymap.Bottom {
			// Without a total the end is not known: G follows the pages
			// to it.
			to := s.Run
			moves[i].Run = func() tea.Cmd {
				m.toEnd = !m.filtering() && !m.only && !m.cfg.List.Exact()
				return to()
			}
		}
	}
	states = append(states, moves...)
	for i := range states {
		states[i] = m.stops(states[i])
	}
	return states
}

// serverState is ctrl+s on a table with a server filter (ok false on one
// without): it asks the server for the pattern typed, or says why not, so
// the key never does nothing. Off, it is kept out of the footer: the
// filter line offers it when it applies.
func (m *Model[T]) serverState() (keymap.State, bool) {
	if m.cfg.Server == nil {
		return keymap.State{}, false
	}
	var reason string
	switch q := m.query(); {
	case q == nil || q.IsEmpty():
		reason = "type a pattern first: " + m.common.Key(keymap.Filter) + " then " + m.common.Key(keymap.ServerFilter) + " asks the server for it"
	case q.Kind != filter.Fuzzy:
		reason = "the server matches the pattern as typed, not inverted or as an expression"
	case m.cfg.Server.Chip(q.Pattern) == "":
		reason = "the server has no filter for this pattern"
	case m.cfg.List.Loaded() >= m.cfg.List.Total():
		reason = "every row is loaded: the filter already searches them all"
	default:
		return keymap.On(keymap.ServerFilter).Does(m.applyServerFilter), true
	}
	st := keymap.Off(keymap.ServerFilter, reason)
	st.Hide = true
	return st, true
}

// query is the filter's query, nil without a filter.
func (m *Model[T]) query() *filter.Query {
	if m.search == nil {
		return nil
	}
	q := m.search.Query()
	return &q
}

// stops is s stopping G's walk to the end first: any key stops it (G
// starts it again).
func (m *Model[T]) stops(s keymap.State) keymap.State {
	if run := s.Run; run != nil {
		s.Run = func() tea.Cmd {
			m.toEnd = false
			return run()
		}
	}
	return s
}

// run does what the key of a does here: the Run of its state among
// Actions, or its reason when it is off; nil when a does not apply. Code
// that acts as a key would (a held open) goes through it, so that only
// Actions says what a key does.
func (m *Model[T]) run(a keymap.Action) tea.Cmd {
	st, ok := keymap.Find(m.Actions(), a)
	switch {
	case !ok:
		return nil
	case !st.Enabled:
		return views.Disabled(st)
	case st.Run == nil:
		return nil
	}
	return st.Run()
}

// open is enter on a row: what Config.Open does with it.
func (m *Model[T]) open() tea.Cmd {
	if it, ok := m.Selected(); ok {
		return m.cfg.Open(it)
	}
	if m.rows() == 0 && m.filtering() {
		return views.Flash("nothing matches the filter")
	}
	return views.Flash("row not loaded yet")
}

// back is esc: it undoes the innermost thing (see backState), or goes
// back.
func (m *Model[T]) back() tea.Cmd {
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
}

// refresh loads the list again, or retries the page that failed.
func (m *Model[T]) refresh() tea.Cmd {
	if err, _ := m.cfg.List.Err(); err != nil {
		return m.cfg.List.Retry(m.cursor, m.bodyRows())
	}
	m.keepFocus()
	// The rows stay until the new first page comes (stale if it fails).
	return m.cfg.List.Refresh()
}

// bind binds a role with the marked rows, or the one under the cursor.
func (m *Model[T]) bind() tea.Cmd {
	if ts := m.targets(); len(ts) > 0 {
		return m.cfg.Bind(ts)
	}
	return nil
}

// advisories opens the advisories of the row's image.
func (m *Model[T]) advisories() tea.Cmd {
	if it, ok := m.Selected(); ok && it != nil {
		return m.cfg.Advisories(it)
	}
	return nil
}

// copyRef copies the row's reference (Y).
func (m *Model[T]) copyRef() tea.Cmd {
	if it, ok := m.Selected(); ok {
		return views.Copy(m.cfg.CopyRef(it))
	}
	return views.Flash("row not loaded yet")
}

// page opens the row's own page (p).
func (m *Model[T]) page() tea.Cmd {
	if it, ok := m.Selected(); ok {
		return m.cfg.Page(it)
	}
	return views.Flash("row not loaded yet")
}

// backState is esc, named for what it does here: the innermost thing it
// undoes (see back), or going back.
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

// withAction is s for another action (same enabled state, reason and
// Run), hidden from the footer: for keys that mean the same here.
func withAction(s keymap.State, a keymap.Action) keymap.State {
	s.Action, s.Hide = a, true
	return s
}

// rowOff puts the row's own reasons (Config.RowOff) in place of the
// table's states of the same actions.
func (m *Model[T]) rowOff(states []keymap.State) []keymap.State {
	if m.cfg.RowOff == nil {
		return states
	}
	it, ok := m.Selected()
	if !ok {
		return states
	}
	for _, off := range m.cfg.RowOff(it) {
		if off.Action == keymap.Delete && len(m.marks) > 0 {
			continue
		}
		if i := slices.IndexFunc(states, func(s keymap.State) bool { return s.Action == off.Action }); i >= 0 {
			states[i] = off
		} else {
			states = append(states, off)
		}
	}
	return states
}
