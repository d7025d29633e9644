package tree

import (
	"strings"
	"testing"

	"canopy/views"
)

// A change to a list (a repo created in the organization reloads its
// folders) keeps what was opened below it and the cursor's node.
func TestReloadKeepsExpandedNodesAndTheCursor(t *testing.T) {
	m := nested(t)
	press(m, "j", "l", "j", "j") // apps expanded, cursor on leaf-1
	if n := m.Selected(); n == nil || n.Label != "leaf-1" {
		t.Fatalf("cursor on %v, want leaf-1\n%s", m.Selected(), screen(m))
	}
	before := screen(m)
	drive(m, m.Update(views.ChangedMsg{Changes: []views.Change{views.Changed("org")}}))
	if n := m.Selected(); n == nil || n.Label != "leaf-1" {
		t.Errorf("after the reload the cursor is on %v, want leaf-1\n%s", m.Selected(), screen(m))
	}
	if after := screen(m); after != before {
		t.Errorf("the tree changed:\nbefore\n%s\nafter\n%s", before, after)
	}
	if !strings.Contains(screen(m), "v apps") {
		t.Errorf("apps is collapsed:\n%s", screen(m))
	}
	// r on the folders does the same.
	press(m, "k", "k", "k") // the organization
	press(m, "r")
	if n := m.Selected(); n == nil || n.Label != "acme" || !strings.Contains(screen(m), "leaf-2") {
		t.Errorf("after r: on %v\n%s", m.Selected(), screen(m))
	}
}

func TestFindWalksTheLoadedNodes(t *testing.T) {
	m := nested(t)
	press(m, "j", "l") // apps expanded
	if n := m.Find("org/apps/leaf-1"); n == nil || n.Label != "leaf-1" {
		t.Errorf("Find(org/apps/leaf-1) = %v", n)
	}
	if n := m.Find("org/data/leaf-1"); n != nil {
		t.Errorf("Find found a node not loaded: %v", n)
	}
	if n := m.Find("org/data"); n == nil || n.Label != "data" {
		t.Errorf("Find(org/data) = %v", n)
	}
}

// Several lists reloaded at once (a create reloads the collection and its
// folder): the cursor keeps its node, even one inside a reloaded list.
func TestReloadOfSeveralListsKeepsTheCursor(t *testing.T) {
	m := nested(t)
	press(m, "j", "l", "j", "j") // apps expanded, cursor on leaf-1
	before := screen(m)
	drive(m, m.Update(views.ChangedMsg{Changes: []views.Change{views.Changed("org"), views.Changed("org/apps")}}))
	if n := m.Selected(); n == nil || n.Label != "leaf-1" {
		t.Errorf("after the reload the cursor is on %v, want leaf-1\n%s", m.Selected(), screen(m))
	}
	if after := screen(m); after != before {
		t.Errorf("the tree changed:\nbefore\n%s\nafter\n%s", before, after)
	}
}
