package table

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
)

// addReversedOrder gives m a local order, "reversed": by name, descending,
// sorted in the table.
func addReversedOrder(m *Model[row]) {
	m.cfg.Orders = append(m.cfg.Orders, Order{Label: "reversed", OrderBy: "name", Local: true})
	m.cfg.Sort = func(items []*row) []int {
		perm := make([]int, len(items))
		for i := range perm {
			perm[i] = i
		}
		slices.SortFunc(perm, func(a, b int) int { return strings.Compare(items[b].name, items[a].name) })
		return perm
	}
}

// localTable is a table of n rows whose sort cycle ends with a local
// order: the rows by name, last first.
func localTable(t *testing.T, n int) (*Model[row], *source) {
	t.Helper()
	m, src := newTable(t, n, nil)
	m.SetSize(120, 12) // room for the progress on the info line
	addReversedOrder(m)
	return m, src
}

// deliverSorted feeds the messages a key led to back to the table (a sort's
// answer), and what they lead to, until none is left.
func deliverSorted(m *Model[row], msgs []tea.Msg) {
	for len(msgs) > 0 {
		var next []tea.Msg
		for _, msg := range msgs {
			if _, ok := msg.(sortedMsg); ok {
				next = append(next, drive(m, m.Update(msg))...)
			}
		}
		msgs = next
	}
}

// TestLocalOrderLoadsEveryRowThenSorts: choosing an order the server does
// not have loads every row with progress, then shows them in that order,
// the cursor on the row it was on; a delete sorts again.
func TestLocalOrderLoadsEveryRowThenSorts(t *testing.T) {
	m, _ := localTable(t, 1000)
	press(m, "j", "j") // on name-00002
	press(m, "s")      // name ↓ (a reload)
	press(m, "G", "g", "j", "j")
	cmd := m.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
	if s := screen(m); !strings.Contains(s, "400/1,000 loaded · sort: reversed · every row loads to sort by reversed") {
		t.Errorf("no progress while the rows load:\n%s", s)
	}
	on, _ := m.Selected()
	deliverSorted(m, drive(m, cmd))
	s := screen(m)
	if !strings.Contains(s, "sort: reversed") || strings.Contains(s, "every row loads") {
		t.Fatalf("not sorted once every row loaded:\n%s", s)
	}
	if now, _ := m.Selected(); now == nil || now.name != on.name {
		t.Errorf("the cursor moved from %s to %v", on.name, now)
	}
	press(m, "g")
	if first := strings.Fields(strings.Split(screen(m), "\n")[1])[0]; first != "name-00999" {
		t.Errorf("first row %q, want name-00999:\n%s", first, screen(m))
	}
	deliverSorted(m, drive(m, m.Update(views.DeletedMsg{UIDs: []string{"u999"}})))
	if first := strings.Fields(strings.Split(screen(m), "\n")[1])[0]; first != "name-00998" {
		t.Errorf("after a delete, first row %q, want name-00998:\n%s", first, screen(m))
	}
}

// Leaving the local order for the server's keeps the cursor on the row it
// was on in the local order, not on the row at that place in load order.
func TestLeavingTheLocalOrderKeepsTheRow(t *testing.T) {
	m, _ := localTable(t, 50)
	// A local order that differs from the load order (name ↓): name ↑.
	m.cfg.Sort = func(items []*row) []int {
		perm := make([]int, len(items))
		for i := range perm {
			perm[i] = i
		}
		slices.SortFunc(perm, func(a, b int) int { return strings.Compare(items[a].name, items[b].name) })
		return perm
	}
	press(m, "s") // name ↓
	cmd := m.Update(tea.KeyPressMsg{Code: 's', Text: "s"})
	deliverSorted(m, drive(m, cmd))
	press(m, "j", "j", "j")
	on, _ := m.Selected()
	press(m, "s") // back to the server's first order
	if now, _ := m.Selected(); now == nil || now.name != on.name {
		t.Errorf("the cursor moved from %s to %v", on.name, now)
	}
}
