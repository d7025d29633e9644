package table

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
)

// A local order is one the server does not have (tags by version): the
// entry of Orders marked Local, sorted by Config.Sort. It needs every row,
// so the table loads them all, a few pages at a time with progress (as D
// does), sorts them in a command, and then shows them in that order with
// the cursor on the row it was on. Rows shown in the meantime keep the
// list's order. A change to the list (a delete, a reload) sorts again. In a
// view of flagged rows (D) it sorts those, once the scan has read every
// row: the others are not held.

// sortedMsg is a local order's permutation of the list positions of the
// rows shown (the flagged ones when only), for the list's generation gen
// with n of them.
type sortedMsg struct {
	owner any
	gen   int
	only  bool
	n     int
	perm  []int
}

// local reports whether the order chosen is a local one.
func (m *Model[T]) local() bool { return m.cfg.Orders[m.order].Local && m.cfg.Sort != nil }

// sortedNow reports whether the rows show in the local order: it is
// chosen and its permutation fits the rows as they are now.
func (m *Model[T]) sortedNow() bool {
	l := m.cfg.List
	return m.local() && m.perm != nil && m.permGen == l.Gen() && m.permOnly == m.only && len(m.perm) == m.toSort() && l.Done()
}

// toSort is how many rows the local order sorts: the flagged ones in a
// view of those, else every row.
func (m *Model[T]) toSort() int {
	if m.only {
		return len(m.onlyRows)
	}
	return m.cfg.List.Len()
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
	sortRows, owner, gen, only, n := m.cfg.Sort, any(m), l.Gen(), m.only, m.toSort()
	if only {
		// The flagged rows, each at its position; read now, as the
		// rows held change in Update.
		at := slices.Clone(m.onlyRows)
		items := make([]*T, len(at))
		for i, p := range at {
			items[i], _ = l.At(p)
		}
		return func() tea.Msg {
			perm := sortRows(items)
			for i, k := range perm {
				perm[i] = at[k]
			}
			return sortedMsg{owner: owner, gen: gen, only: true, n: n, perm: perm}
		}
	}
	runs := l.Runs()
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
// row it was on; a sort of rows since changed is done again.
func (m *Model[T]) sorted(msg sortedMsg) tea.Cmd {
	if msg.owner != any(m) {
		return nil
	}
	m.sorting = false
	l := m.cfg.List
	if !m.local() {
		return nil
	}
	if msg.gen != l.Gen() || msg.only != m.only || msg.n != m.toSort() || len(msg.perm) != msg.n {
		return m.sortLocal()
	}
	was := m.position(m.cursor)
	m.perm, m.permGen, m.permOnly = msg.perm, msg.gen, msg.only
	if i := m.rowOf(was); i >= 0 {
		m.cursor = i
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
