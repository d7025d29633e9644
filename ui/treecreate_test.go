package ui

import (
	"strings"
	"testing"
)

// A folder made in the tree shows once, in its place among the others
// (before those it sorts before), and gets the cursor.
func TestNewFolderInTheTreeShowsOnceAndGetsTheCursor(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.waitText("base-images")
	h.keys("n")
	h.waitText("New folder in platform")
	h.typeText("acc-folder")
	h.keys("enter")
	h.waitText(`created folder "acc-folder"`)
	s := h.waitText("details: acc-folder")
	if strings.Count(s, "> ci ") != 1 || strings.Count(s, "> base-images ") != 1 ||
		strings.Index(s, "acc-folder ") > strings.Index(s, "base-images ") {
		t.Fatalf("the folders are not each shown once, in order:\n%s", s)
	}
}

// :groups says where each folder is: a subfolder's FOLDER is its parent's
// path.
func TestGroupsTableShowsEachFoldersParent(t *testing.T) {
	t.Parallel()
	h := start(t, 160, 40, true)
	h.waitText("platform")
	h.typeText(":groups")
	h.keys("enter")
	s := h.waitFor("base-images in platform", func(s string) bool { return strings.Contains(line(s, "base-images"), "platform") })
	if row := line(s, "base-images"); !strings.Contains(row, "platform") {
		t.Errorf("base-images does not say it is in platform: %q\n%s", row, s)
	}
}

// Deleting from a filtered table keeps the filter: the row goes, the
// other matches stay, the whole list does not come back.
func TestDeleteFromAFilteredTableKeepsTheFilter(t *testing.T) {
	t.Parallel()
	h := start(t, 160, 40, true)
	h.waitText("platform")
	h.typeText(":identities")
	h.keys("enter")
	h.waitText("identities of acme.example", "alice")
	h.keys("/")
	h.typeText("github")
	h.keys("enter")
	s := h.waitFor("only github identities", func(s string) bool {
		return !strings.Contains(s, "alice") && strings.Contains(s, "github-actions-main")
	})
	before := strings.Count(s, "github-actions")
	h.keys("d")
	h.waitText("Delete identity")
	h.keys("y")
	s = h.waitFor("the row gone, the filter kept", func(s string) bool {
		said := line(s, "deleted identity github-actions") // the status line names it
		return said != "" && strings.Count(strings.Replace(s, said, "", 1), "github-actions") == before-1
	})
	if strings.Contains(s, "alice") {
		t.Errorf("the filter went with the delete:\n%s", s)
	}
}
