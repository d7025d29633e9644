package table

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/dialog"
	"canopy/views/form"
)

// A row that cannot do what the table offers (RowOff) shows that key off
// with its reason while the cursor is on it, and says it when pressed;
// the next row has the table's own again. Once rows are marked, delete
// acts on them and follows them, not the row under the cursor.
func TestRowOffStandsInForTheTablesStateOnItsRow(t *testing.T) {
	src := &source{n: 10}
	m := buildTable(src, nil, nil)
	edited := ""
	m.cfg.Edit = func(r *row) *form.Config { edited = r.name; return nil }
	m.cfg.Delete = &Delete[row]{Noun: "row", Nouns: "rows", Ask: func([]*row, func(dialog.Settled) tea.Msg) tea.Cmd { return nil }}
	m.cfg.RowOff = func(r *row) []keymap.State {
		if r.old {
			return []keymap.State{keymap.Off(keymap.Edit, r.name+" is old: not changed"), keymap.Off(keymap.Delete, r.name+" is old: kept")}
		}
		return nil
	}
	drive(m, m.Init())
	if st, _ := keymap.Find(m.Actions(), keymap.Edit); st.Enabled || st.Reason != "name-00000 is old: not changed" {
		t.Fatalf("edit on the old row: %+v", st)
	}
	if msgs := press(m, "e"); len(msgs) != 1 || msgs[0] != (views.FlashMsg{Text: "name-00000 is old: not changed", Error: true}) || edited != "" {
		t.Fatalf("e on the old row: %v (edited %q)", msgs, edited)
	}
	press(m, "j")
	for _, a := range []keymap.Action{keymap.Edit, keymap.Delete} {
		if st, _ := keymap.Find(m.Actions(), a); !st.Enabled {
			t.Errorf("%s on a row that can: %+v", a, st)
		}
	}
	press(m, "space", "g")
	if st, _ := keymap.Find(m.Actions(), keymap.Delete); !st.Enabled {
		t.Errorf("delete with a row marked follows the marks, not the old row: %+v", st)
	}
	if st, _ := keymap.Find(m.Actions(), keymap.Edit); st.Enabled {
		t.Errorf("edit on the old row with a row marked: %+v", st)
	}
}
