package table

import (
	"strings"
	"testing"

	"canopy/views"
)

// TestJumpToRow: `:2500` puts the cursor on the 2,500th row with one
// request for the rows there; `:50%` half way down; a row past the end
// goes to the last and says how many there are.
func TestJumpToRow(t *testing.T) {
	m, src := newTable(t, 10_000, nil)
	before := src.calls.Load()
	drive(m, m.Update(views.JumpMsg{Row: 2500}))
	if got := src.calls.Load() - before; got != 1 {
		t.Errorf("the jump made %d requests, want 1", got)
	}
	if it, _ := m.Selected(); it == nil || it.name != "name-02499" || !strings.Contains(screen(m), "2,500 of 10,000") {
		t.Errorf("not on the 2,500th row:\n%s", screen(m))
	}
	drive(m, m.Update(views.JumpMsg{Row: 50, Percent: true}))
	if it, _ := m.Selected(); it == nil || it.name != "name-04999" {
		t.Errorf("50%% is not half way down:\n%s", screen(m))
	}
	msgs := drive(m, m.Update(views.JumpMsg{Row: 20_000}))
	if it, _ := m.Selected(); it == nil || it.name != "name-09999" {
		t.Errorf("past the end is not the last row:\n%s", screen(m))
	}
	said := false
	for _, msg := range msgs {
		if f, ok := msg.(views.FlashMsg); ok && f.Text == "there are 10,000 rows: on the last" {
			said = true
		}
	}
	if !said {
		t.Errorf("past the end says nothing: %v", msgs)
	}
}
