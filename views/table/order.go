package table

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
	"canopy/views/filter"
	"canopy/views/paging"
)

// The sort cycle (s) and what happens when the server refuses an order:
// the list falls back to the server's default order, the table shows that
// order ("server order"), says so once through the shell, and `s` skips the
// refused order from then on.

// serverOrder is the label of the server's default order.
const serverOrder = "server order"

// startOrder marks the orders the shell knows the server refuses; when the
// first one is among them, the table starts in the server's own order (as
// it fell back to before), not in one the user did not choose.
func (m *Model[T]) startOrder() {
	if m.cfg.Refused == nil {
		return
	}
	for _, o := range m.cfg.Orders {
		if o.OrderBy != "" && m.cfg.Refused(o.OrderBy) {
			m.refused[o.OrderBy] = true
		}
	}
	if !m.allowed(m.order) {
		m.order = m.defaultOrder()
	}
}

// allowed reports whether the order at i may be asked for.
func (m *Model[T]) allowed(i int) bool { return !m.refused[m.cfg.Orders[i].OrderBy] }

// defaultOrder is the index of the server's default order in the cycle,
// added to it right after the current order when the cycle had none, so
// that s goes on from where it was.
func (m *Model[T]) defaultOrder() int {
	for i, o := range m.cfg.Orders {
		if o.OrderBy == "" {
			return i
		}
	}
	at := m.order + 1
	m.cfg.Orders = slices.Insert(slices.Clone(m.cfg.Orders), at, Order{Label: serverOrder})
	return at
}

// fellBack takes a refusal the list fell back from: the table now shows
// the server's order, and the shell is told (it says so once and
// remembers it for the collection).
func (m *Model[T]) fellBack(r *paging.OrderRefused) tea.Cmd {
	m.refused[r.Order] = true
	m.order = m.defaultOrder()
	return views.RefusedOrder(r.Collection, r.Order)
}

// cycleSort switches to the next server order the server takes, keeping
// the cursor on the same item once it is loaded again.
func (m *Model[T]) cycleSort() tea.Cmd {
	next := m.order
	for range m.cfg.Orders {
		next = (next + 1) % len(m.cfg.Orders)
		if m.allowed(next) {
			break
		}
	}
	if next == m.order {
		return views.Flash("the server sorts this collection one way only")
	}
	// The row under the cursor is taken while the rows still show in the
	// order being left (a local one's permutation included).
	m.keepFocus()
	m.order = next
	if m.local() {
		// The rows loaded stay: every other one loads, then they are sorted.
		m.perm = nil
		return tea.Batch(m.sortLocal(), views.Flash("sorting by "+m.cfg.Orders[m.order].Label+": every row loads first"))
	}
	m.focusWhy = m.cfg.Orders[m.order].Label
	return tea.Batch(m.cfg.List.Reset(m.cfg.Orders[m.order].OrderBy),
		views.Flash(fmt.Sprintf("sorted by %s", m.cfg.Orders[m.order].Label)))
}

// ranked: a fuzzy filter shows its matches best first, not in the
// table's order (which comes back when it is cleared).
func (m *Model[T]) ranked() bool {
	return m.filtering() && m.search.Query().Kind == filter.Fuzzy
}

// sortedBy is the server order the rows show in, for the header's mark:
// none for a local order (what the rows load in is not what they show)
// or while a fuzzy filter ranks the rows.
func (m *Model[T]) sortedBy() string {
	if m.local() || m.ranked() {
		return ""
	}
	return m.cfg.Orders[m.order].OrderBy
}
