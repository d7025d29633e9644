package table

import (
	tea "charm.land/bubbletea/v2"

	"canopy/views"
)

// A local order is one the server does not have (tags by version): the
// entry of Orders marked Local, sorted by Config.Sort. It needs every row,
// so the table loads them all, a few pages at a time with progress (as D
// does), sorts them in a command, and then shows them in that order with
// the cursor on the row it was on. Rows shown in the meantime keep the
// list's order. A change to the list (a delete, a reload) sorts again.

// sortedMsg is a local order's permutation of the list's positions, for
// the list's generation gen of n rows.
type sortedMsg struct {
	owner any
	gen   int
	n     int
	perm  []int
}

// local reports whether the order chosen is a local one.
func (m *Model[T]) local() bool { return m.cfg.Orders[m.order].Local && m.cfg.Sort != nil }

// sortedNow reports whether the rows show in the local order: it is
// chosen and its permutation fits the list as it is now.
func (m *Model[T]) sortedNow() bool {
	l := m.cfg.List
	return m.local() && m.perm != nil && m.permGen == l.Gen() && len(m.perm) == l.Len() && l.Done()
}

// sortLocal goes on toward the local order: the pages still missing, then
// the sort, once at a time.
func (m *Model[T]) sortLocal() tea.Cmd {
	l := m.cfg.List
	if !m.local() || m.sortedNow() || m.sorting {
		return nil
	}
	if !l.Done() {
		return l.Scan(scanParallel)
	}
	m.sorting = true
	runs, sortRows, owner, gen, n := l.Runs(), m.cfg.Sort, any(m), l.Gen(), l.Len()
	return func() tea.Msg {
		// Every row is loaded: the runs are positions 0..n-1, in order.
		items := make([]*T, 0, n)
		for _, r := range runs {
			for i := range r.Items {
				items = append(items, &r.Items[i])
			}
		}
		return sortedMsg{owner: owner, gen: gen, n: n, perm: sortRows(items)}
	}
}

// sorted shows the rows in the local order once sorted, the cursor on the
// row it was on; a sort of a list since changed is done again.
func (m *Model[T]) sorted(msg sortedMsg) tea.Cmd {
	if msg.owner != any(m) {
		return nil
	}
	m.sorting = false
	l := m.cfg.List
	if !m.local() {
		return nil
	}
	if msg.gen != l.Gen() || msg.n != l.Len() || len(msg.perm) != msg.n {
		return m.sortLocal()
	}
	was := m.position(m.cursor)
	m.perm, m.permGen = msg.perm, msg.gen
	for i, p := range m.perm {
		if p == was {
			m.cursor = i
			break
		}
	}
	m.offset = max(0, m.cursor-m.bodyRows()/2)
	m.clamp()
	return tea.Batch(m.selectCmd(), views.Flash("sorted by "+m.cfg.Orders[m.order].Label))
}

// localProgress is what the info line says while a local order waits for
// its rows (the line's loaded/total counts them), or that they are being
// sorted.
func (m *Model[T]) localProgress() string {
	if !m.cfg.List.Done() {
		return "every row loads to sort by " + m.cfg.Orders[m.order].Label
	}
	return m.spinner() + " sorting by " + m.cfg.Orders[m.order].Label + "…"
}
