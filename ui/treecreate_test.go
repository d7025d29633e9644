package ui

import (
	"strings"
	"testing"
)

// A folder made in the tree shows once, in its place among the others
// (before those it sorts before), and gets the cursor.
func TestNewFolderInTheTreeShowsOnceAndGetsTheCursor(t *testing.T) {
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
