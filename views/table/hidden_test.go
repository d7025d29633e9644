package table

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/paging"
	"canopy/views/viewstest"
)

// driveAll runs commands and gives the table its pages and its hidden
// counts; other messages come back.
func driveAll(m *Model[row], cmd tea.Cmd) []tea.Msg {
	return viewstest.Drive(cmd, func(msg tea.Msg) bool {
		switch msg.(type) {
		case paging.PageMsg, hiddenMsg:
			return true
		}
		return false
	}, m.Update)
}

// hiddenTable is a table of 450 visible rows (every tenth flagged), 150
// more when the hidden ones are asked for.
func hiddenTable(t *testing.T, flaggedFirst bool) (*Model[row], *[]views.CountedMsg) {
	t.Helper()
	m, _ := newTable(t, 10, nil)
	m.cfg.Title = "tags of python"
	visible, all := &source{n: 450}, &source{n: 600}
	key := func(r *row) string { return r.uid }
	m.cfg.List = paging.New(context.Background(), visible.list, key)
	var counted []views.CountedMsg
	m.cfg.Flag = &Flag[row]{Name: "deprecated", Noun: "tags", Is: func(r *row) bool { return r.old },
		Counted: func(n, total int) tea.Cmd {
			counted = append(counted, views.CountedMsg{ID: "repo", Count: n, Total: total})
			return nil
		}}
	m.cfg.FlaggedFirst = flaggedFirst
	m.cfg.Hidden = &Hidden[row]{Noun: "hidden tags",
		List: func(on bool) *paging.List[row] {
			if on {
				return paging.New(context.Background(), all.list, key)
			}
			return paging.New(context.Background(), visible.list, key)
		},
		Count: func() (int, error) { return 600, nil }}
	if flaggedFirst {
		m.only, m.onlyGen = true, -1
	}
	driveAll(m, m.Init())
	return m, &counted
}

func screenOf(m *Model[row]) string { return ansi.Strip(m.View()) }

// D says how many hidden tags were not scanned, and H reloads with them,
// keeping the deprecated-only mode; the exact count goes to whoever asked.
func TestHiddenTagsAreCountedAndShownWithH(t *testing.T) {
	m, counted := hiddenTable(t, false)
	m.SetSize(120, 12)
	driveAll(m, m.Update(viewstest.Key("D")))
	s := screenOf(m)
	if !strings.Contains(s, "45 deprecated · all 450 tags scanned") && !strings.Contains(s, "of 45 deprecated") {
		t.Fatalf("deprecated only:\n%s", s)
	}
	if !strings.Contains(s, "all 450 tags scanned · 150 hidden tags not scanned: H adds them") {
		t.Errorf("no word of the hidden tags:\n%s", s)
	}
	if len(*counted) != 1 || (*counted)[0].Count != 45 || (*counted)[0].Total != 450 {
		t.Errorf("counted %v", *counted)
	}
	if got := m.Title(); got != "deprecated tags of python" {
		t.Errorf("title %q", got)
	}
	if st, _ := keymap.Find(m.Actions(), keymap.Back); st.Short != "show all" {
		t.Errorf("the footer names esc %q here", st.Short)
	}
	driveAll(m, m.Update(viewstest.Key("H")))
	s = screenOf(m)
	if !strings.Contains(s, "of 60 deprecated") || strings.Contains(s, "not scanned: H adds them") {
		t.Errorf("with the hidden tags:\n%s", s)
	}
	if got := m.Title(); got != "deprecated tags of python (+hidden tags)" {
		t.Errorf("title %q", got)
	}
	// esc leaves deprecated-only (it was not opened so) and the title follows.
	m.Update(viewstest.Key("esc"))
	if got := m.Title(); got != "tags of python (+hidden tags)" {
		t.Errorf("title after esc %q", got)
	}
}

// A table opened to show deprecated tags closes on esc, in one step.
func TestEscClosesATableOpenedDeprecatedOnly(t *testing.T) {
	m, _ := hiddenTable(t, true)
	if got := m.Title(); got != "deprecated tags of python" {
		t.Errorf("title %q", got)
	}
	if m.Update(viewstest.Key("esc")); !m.Closed() {
		t.Error("esc does not close it")
	}
	// D still shows every row.
	m.Update(viewstest.Key("D"))
	if got := m.Title(); got != "tags of python" {
		t.Errorf("title after D %q", got)
	}
}

// Sorting says where the cursor's item went when the first page of the
// new order lacks it, also in deprecated-only mode.
func TestSortFlashesWhenTheItemIsGone(t *testing.T) {
	m, _ := hiddenTable(t, false)
	driveAll(m, m.Update(viewstest.Key("j")))
	msgs := driveAll(m, m.Update(viewstest.Key("s")))
	found := false
	for _, msg := range msgs {
		if f, ok := msg.(views.FlashMsg); ok && f.Text == "name-00001 is not in the first page of name ↓: cursor at top" {
			found = true
		}
	}
	if !found || m.Cursor() != 0 {
		t.Errorf("after s: cursor %d, messages %v", m.Cursor(), msgs)
	}
	// In deprecated-only mode the item is found wherever the scan puts it.
	driveAll(m, m.Update(viewstest.Key("D")))
	driveAll(m, m.Update(viewstest.Key("j")))
	it, _ := m.Selected()
	driveAll(m, m.Update(viewstest.Key("s")))
	if got, _ := m.Selected(); got == nil || got.uid != it.uid {
		t.Errorf("deprecated-only sort lost the cursor's item: %v, want %v", got, it)
	}
}

// The info line is cut with an ellipsis, never mid-word.
func TestInfoLineEllipsis(t *testing.T) {
	m, _ := hiddenTable(t, false)
	m.SetSize(40, 8)
	lines := strings.Split(screenOf(m), "\n")
	info := strings.TrimRight(lines[len(lines)-1], " ")
	if !strings.HasSuffix(info, "…") {
		t.Errorf("info line %q", info)
	}
}

// Deleting scanned rows leaves the count of hidden ones as it was: the
// deleted rows were among the scanned, not among the hidden.
func TestDeletesDoNotAddHiddenTags(t *testing.T) {
	m, _ := hiddenTable(t, false)
	m.SetSize(120, 12)
	driveAll(m, m.Update(viewstest.Key("D")))
	if s := screenOf(m); !strings.Contains(s, "all 450 tags scanned · 150 hidden tags not scanned") {
		t.Fatalf("deprecated only:\n%s", s)
	}
	m.Update(views.DeletedMsg{UIDs: []string{"u0", "u10"}})
	if s := screenOf(m); !strings.Contains(s, "all 448 tags scanned · 150 hidden tags not scanned") {
		t.Errorf("after deleting two rows:\n%s", s)
	}
}
