package tree

import (
	"strings"
	"testing"

	"canopy/safe"
	"canopy/views"
)

// A closed repo's row keeps the shell's note (its advisories) when its
// tags' count comes: the count takes a shorter form, or none, for the
// note to fit in one of its forms; only a row too narrow for any form of
// the note keeps the count alone.
func TestCountGivesWayToTheShellsNote(t *testing.T) {
	m, _, _ := fixture(t, 3)
	m.SetSize(70, 10)
	repo := awsCLIOf300Tags(m)
	m.cfg.Note = func(n *Node) []safe.Text {
		if n != repo {
			return nil
		}
		return []safe.Text{"advisories: 2 detected, 1 fixed", "adv: 2 detected"}
	}
	m.Update(views.CountedMsg{ID: repo.ID, Count: 17, Total: 300})
	// "    > aws-cli !" takes 15 columns.
	for _, tc := range []struct {
		width       int
		note, count string
	}{
		{70, "advisories: 2 detected, 1 fixed", "17 deprecated · 300"},
		{50, "adv: 2 detected", "17! 300"},
		{34, "adv: 2 detected", ""},
		{30, "", "17! 300"},
	} {
		m.SetSize(tc.width, 10)
		l := strings.TrimRight(lineWith(screen(m), "aws-cli"), " ")
		want := "aws-cli !"
		if tc.note != "" {
			want += "  " + tc.note
		}
		if !strings.Contains(l, want) || tc.note == "" && strings.Contains(l, "adv") {
			t.Errorf("%d wide: %q, want the note %q", tc.width, l, tc.note)
		}
		if tc.count != "" && !strings.HasSuffix(l, "  "+tc.count) || tc.count == "" && !strings.HasSuffix(l, tc.note) {
			t.Errorf("%d wide: %q, want the count %q", tc.width, l, tc.count)
		}
	}
}
