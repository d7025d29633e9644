package keymap

import "testing"

// TestManualCoversEveryAction: every action is explained by one row of
// docs/keys.md's account of the keys, and by one only.
func TestManualCoversEveryAction(t *testing.T) {
	rows := map[Action]int{}
	for _, r := range Manual() {
		for _, a := range r.Actions {
			rows[a]++
		}
	}
	for _, d := range defaults() {
		if rows[d.Action] != 1 {
			t.Errorf("%s is in %d rows of the manual, want 1", d.Action, rows[d.Action])
		}
		delete(rows, d.Action)
	}
	for a := range rows {
		t.Errorf("the manual explains %q, which is no action", a)
	}
}
