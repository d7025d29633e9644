package table

import (
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/text"
	"canopy/views"
	"canopy/views/paging"
)

// Hidden is a collection whose API hides some rows unless asked (tags that
// are epochs, dates or signatures): H reloads the table with them, and
// while they are hidden the deprecated-only mode says how many there are,
// since triage would miss them.
type Hidden[T any] struct {
	// Noun names the hidden rows: "hidden tags".
	Noun string
	// List makes the collection's list with (on) or without them.
	List func(on bool) *paging.List[T]
	// Count is the number of rows the collection has with them (one small
	// request); it runs in a command.
	Count func() (int, error)
}

// hiddenState is the H toggle and what is known of the hidden rows.
type hiddenState struct {
	on       bool
	counting bool
	all      int // rows with the hidden ones, -1 unknown
	allGen   int // the list generation all was counted for
}

// hiddenMsg carries the count of rows with the hidden ones.
type hiddenMsg struct {
	owner any
	gen   int
	all   int
	err   error
}

// hiddenState is H's state: it reloads, so a server filter goes first.
func (m *Model[T]) hiddenState() keymap.State {
	if m.chip != "" {
		return keymap.Off(keymap.ShowHidden, "remove the server filter ("+m.common.Key(keymap.Back)+") first")
	}
	if m.hidden.on {
		return keymap.On(keymap.ShowHidden).Saying("hide " + m.cfg.Hidden.Noun)
	}
	return keymap.On(keymap.ShowHidden)
}

// toggleHidden reloads the table with the hidden rows, or without them,
// keeping the cursor's item and the deprecated-only mode.
func (m *Model[T]) toggleHidden() tea.Cmd {
	h := m.cfg.Hidden
	m.hidden.on = !m.hidden.on
	m.keepFocus()
	if m.search != nil {
		m.search.Clear()
	}
	m.cfg.List = h.List(m.hidden.on)
	m.thinList()
	m.onlyGen = -1 // the next page starts a new scan
	m.counted = false
	flash := "showing " + h.Noun + " too"
	if !m.hidden.on {
		flash = "hiding " + h.Noun + " again"
	}
	return tea.Batch(m.cfg.List.Reset(m.cfg.Orders[m.order].OrderBy), views.Flash(flash))
}

// countHidden asks, once per list generation, how many rows there are with
// the hidden ones, while only flagged rows show and the hidden ones are
// not among them.
func (m *Model[T]) countHidden() tea.Cmd {
	h := m.cfg.Hidden
	gen := m.cfg.List.Gen()
	if h == nil || h.Count == nil || m.hidden.on || !m.only || m.hidden.counting || m.hidden.allGen == gen && m.hidden.all >= 0 {
		return nil
	}
	m.hidden.counting, m.hidden.all = true, -1
	owner := m
	return func() tea.Msg {
		n, err := h.Count()
		return hiddenMsg{owner: owner, gen: gen, all: n, err: err}
	}
}

func (m *Model[T]) gotHidden(msg hiddenMsg) {
	if msg.owner != m {
		return
	}
	m.hidden.counting = false
	if msg.err != nil || msg.gen != m.cfg.List.Gen() {
		return
	}
	m.hidden.all, m.hidden.allGen = msg.all, msg.gen
}

// removeRow takes a deleted row out of the list and the marks. The count
// of rows with the hidden ones loses it too: it was one of them, and the
// hidden rows not scanned are that count less the list's total.
func (m *Model[T]) removeRow(key string) {
	if m.cfg.List.Remove(key) && m.hidden.all > 0 && !m.hidden.on {
		m.hidden.all--
	}
	delete(m.marks, key)
}

// hiddenNote is "356 hidden tags not scanned: H adds them" while rows the
// API hides by default are left out of a flagged-only view, "" otherwise.
// (They are not among the rows the count before it says were scanned.)
func (m *Model[T]) hiddenNote() string {
	h := m.cfg.Hidden
	if h == nil || m.hidden.on || !m.only || m.hidden.allGen != m.cfg.List.Gen() {
		return ""
	}
	n := m.hidden.all - m.cfg.List.Total()
	if m.hidden.all < 0 || m.cfg.List.Total() < 0 || !m.cfg.List.Exact() || n <= 0 {
		return ""
	}
	key := "H"
	if d, ok := m.common.Keys.Def(keymap.ShowHidden); ok {
		key = d.KeyLabel()
	}
	return text.Count(n) + " " + h.Noun + " not scanned: " + key + " adds them"
}

// countFlagged tells Flag.Counted the exact count once every row is
// scanned (and again after deletes), so that places which counted only
// what they loaded can show it.
func (m *Model[T]) countFlagged() tea.Cmd {
	f := m.cfg.Flag
	if f == nil || f.Counted == nil || m.counted || !m.cfg.List.Done() || m.hidden.on {
		return nil
	}
	m.counted = true
	return f.Counted(len(m.onlyRows), m.cfg.List.Total())
}
