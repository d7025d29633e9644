package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestDemoEditUndoAndRefusedDelete edits a repo's description in place,
// undoes it, then tries to delete a folder that still holds things and
// reads the refusal with its next step, which opens what is in the way.
func TestDemoEditUndoAndRefusedDelete(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 140, height: 36})
	tt.waitTree()

	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.typeText("e")
	tt.waitText("PATCH /registry/v2/repos/", "?update_mask=description", "unchanged")
	tt.typeText(" (pinned)")
	tt.waitText(`"Prometheus Alertmanager." → "Prometheus Alertmanager. (pinned)"`)
	tt.send("Enter")
	tt.waitText("description of alertmanager changed (u undoes)")
	edited := regexp.MustCompile(`(?m)^ alertmanager +platform +application +Prometheus Alertmanager\. \(pinned\)`)
	tt.waitFor(edited.MatchString, "the row with the new description")

	tt.typeText("u")
	s := tt.waitText("undid description of alertmanager")
	if strings.Contains(s, "(pinned)") {
		t.Errorf("the row still shows the undone edit:\n%s", frame(s))
	}

	// The platform folder has subgroups: the server refuses, and says what
	// to do first.
	tt.send("Escape")
	tt.waitTree()
	tt.selectInTree("j", "platform", 20)
	tt.typeText("d")
	tt.waitText("Delete folder platform?", "type platform to confirm")
	tt.typeText("platform")
	tt.send("Enter")
	s = tt.waitText("1 failed", "RESOURCE_NOT_EMPTY")
	if !strings.Contains(s, "group has 2 subgroups") || !strings.Contains(s, "enter opens its subfolders") {
		t.Errorf("the refusal is not explained:\n%s", frame(s))
	}
	// enter opens what is in the way: the folder's subfolders.
	tt.send("Enter")
	tt.waitText("subfolders of platform", "base-images")

	// Nothing was lost on the way: the change log has both PATCHes and the
	// refused DELETE.
	tt.command("changes")
	s = tt.waitText("changes made in this session", "DELETE")
	if n := strings.Count(s, "PATCH"); n < 2 {
		t.Errorf("the change log shows %d PATCHes, want the edit and its undo:\n%s", n, frame(s))
	}
}
