package tree

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
	"canopy/views/paging"
	"canopy/views/search"
	"canopy/views/viewstest"
)

// driveAll runs commands, feeding pages and filter results back.
func driveAll(m *Model, cmd tea.Cmd) {
	viewstest.Drive(cmd, func(msg tea.Msg) bool {
		switch msg.(type) {
		case paging.PageMsg, search.ResultMsg:
			return true
		}
		return false
	}, m.Update)
}

func typeIn(m *Model, s string) {
	for _, r := range s {
		driveAll(m, m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}))
	}
}

func TestTreeFilterShowsMatchesWithTheirPath(t *testing.T) {
	m, _, _ := fixture(t, 450)
	press(m, "j", "l") // repos expanded, 200 loaded
	press(m, "/")
	typeIn(m, "0123")
	s := screen(m)
	if !strings.Contains(s, "repo-0123") {
		t.Fatalf("no match shown:\n%s", s)
	}
	if strings.Contains(s, "repo-0000") || strings.Contains(s, "CGA-0000") {
		t.Errorf("non-matching nodes shown:\n%s", s)
	}
	if !strings.Contains(s, "v acme") || !strings.Contains(s, "v repos") {
		t.Errorf("the path to the match is not shown:\n%s", s)
	}
	if n := m.Selected(); n.Label != "repo-0123" {
		t.Errorf("cursor on %s, want the best match", n.Label)
	}
	if !strings.Contains(s, "/0123") || !strings.Contains(s, "loaded nodes") {
		t.Errorf("filter line:\n%s", s)
	}
	// Keep the filter, then esc shows the match in place.
	press(m, "enter")
	msgs := press(m, "l")
	if len(msgs) != 1 || !strings.Contains(msgs[0].(views.FlashMsg).Text, "clear the filter") {
		t.Errorf("l while filtered: %v", msgs)
	}
	press(m, "esc")
	s = screen(m)
	if n := m.Selected(); n.Label != "repo-0123" || !strings.Contains(s, "repo-0122") {
		t.Errorf("after esc: on %v\n%s", m.Selected().Label, s)
	}
}

func TestTreeFilterFindsCollapsedLoadedNodes(t *testing.T) {
	m, _, _ := fixture(t, 30)
	// advisories are loaded for their count but collapsed.
	press(m, "/")
	typeIn(m, "CGA-0003")
	s := screen(m)
	if !strings.Contains(s, "CGA-0003") || !strings.Contains(s, "v advisories") {
		t.Errorf("a loaded but hidden node is not found:\n%s", s)
	}
	press(m, "esc")
	if strings.Contains(screen(m), "CGA-0003") {
		t.Errorf("cancelling while typing kept the filter:\n%s", screen(m))
	}
}

// TestGotoLoadsThePath walks to a node three levels down whose levels are
// not loaded yet.
func TestGotoLoadsThePath(t *testing.T) {
	ctx := context.Background()
	mk := func(parent *Node, id, label string) *Node {
		return &Node{ID: id, Kind: KindFolder, Label: safe.Text(label), Parent: parent, Depth: parent.Depth + 1}
	}
	org := &Node{ID: "o", Kind: KindOrg, Label: "org"}
	levels := map[string][]string{"o": {"o/a", "o/b"}, "o/b": {"o/b/c", "o/b/d"}, "o/b/d": {"o/b/d/e"}}
	var attach func(n *Node)
	attach = func(n *Node) {
		kids := levels[n.ID]
		n.Children = paging.New(ctx, func(_ context.Context, req paging.Request) (paging.Result[*Node], error) {
			var out []*Node
			for _, id := range kids {
				c := mk(n, id, id[strings.LastIndexByte(id, '/')+1:])
				attach(c)
				out = append(out, c)
			}
			return paging.Result[*Node]{Items: out, Total: int64(len(out))}, nil
		}, NodeKey)
	}
	attach(org)
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{Roots: []*Node{org}})
	m.SetSize(40, 12)
	driveAll(m, m.Init())
	driveAll(m, m.Goto("o/b/d/e"))
	if n := m.Selected(); n == nil || n.ID != "o/b/d/e" {
		t.Fatalf("Goto ended on %v:\n%s", n, screen(m))
	}
	if s := screen(m); !strings.Contains(s, "v b") || !strings.Contains(s, "v d") {
		t.Errorf("path not expanded:\n%s", s)
	}
}

func TestTreeOpenBeforeTheAnswerOpensTheBestMatch(t *testing.T) {
	m, _, opened := fixture(t, 450)
	press(m, "j", "l")
	press(m, "/")
	var answer []tea.Msg
	for _, r := range "0123" {
		answer = append(answer, drive(m, m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}))...)
	}
	press(m, "enter", "enter")
	if len(*opened) != 0 {
		t.Fatalf("enter opened %s before the filter answered", (*opened)[0].Label)
	}
	for _, msg := range answer {
		driveAll(m, func() tea.Msg { return msg })
	}
	if len(*opened) != 1 || (*opened)[0].Label != "repo-0123" {
		t.Errorf("opened %v when the answer came, want repo-0123", *opened)
	}
}

func TestTreePageArrivingWhileFilteredKeepsTheCursor(t *testing.T) {
	m, _, _ := fixture(t, 450)
	press(m, "j", "l") // 200 repos loaded
	press(m, "/")
	typeIn(m, "01")
	press(m, "enter", "j", "j")
	on := m.Selected()
	repos := m.cfg.Roots[0].Static[0]
	driveAll(m, repos.Children.Ensure(300, 10))
	if repos.Children.Loaded() <= 200 {
		t.Fatalf("no page arrived: %d loaded", repos.Children.Loaded())
	}
	if now := m.Selected(); now != on {
		t.Errorf("after a page the cursor is on %s, want %s\n%s", now.Label, on.Label, screen(m))
	}
}

// A page that arrives before the keystroke's answer overtakes it: its
// answer is the keystroke's, so the cursor goes to the best match, not
// back to the node it was on (which shows as an ancestor).
func TestTreeRefreshThatOvertakesAKeystrokeGoesToTheBestMatch(t *testing.T) {
	m, _, _ := fixture(t, 450)
	press(m, "j", "l") // on repos, 200 loaded
	press(m, "/")
	var answer []tea.Msg
	for _, r := range "0123" {
		answer = append(answer, drive(m, m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}))...)
	}
	repos := m.cfg.Roots[0].Static[0]
	driveAll(m, repos.Children.Ensure(300, 10))
	for _, msg := range answer {
		driveAll(m, func() tea.Msg { return msg }) // late: dropped
	}
	if n := m.Selected(); n == nil || n.Label != "repo-0123" {
		t.Errorf("cursor on %v, want the best match repo-0123\n%s", n, screen(m))
	}
}

// The filter line says how many children of opened lists it could not see,
// and where the server can search them.
func TestTreeFilterSaysWhatIsNotLoaded(t *testing.T) {
	m, _, _ := fixture(t, 450)
	m.SetSize(120, 10)
	press(m, "j", "l") // repos expanded, 200 of 450 loaded
	press(m, "/")
	typeIn(m, "0321")
	if s := screen(m); !strings.Contains(s, "250 not loaded (t: a table searches the server)") {
		t.Errorf("the filter line does not say what it cannot see:\n%s", s)
	}
}

// A closed list, started only for its count, is not counted as what the
// filter could not see: the user did not open it.
func TestTreeFilterCountsOpenedListsOnly(t *testing.T) {
	m, _, _ := fixture(t, 450) // repos started (its count shows), closed
	m.SetSize(120, 10)
	press(m, "/")
	typeIn(m, "0321")
	if s := screen(m); strings.Contains(s, "not loaded") {
		t.Errorf("a closed list's children are counted as not loaded:\n%s", s)
	}
}
