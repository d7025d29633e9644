package ui

import (
	"strings"
	"testing"
)

// `:<row>` and `:<percent>%` move the cursor of the screen on top: a
// table's row, or the tree's line.
func TestJumpToRowFromTheCommandLine(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("platform")
	h.keys(":")
	h.typeText("3")
	h.keys("enter")
	h.waitText("details: data") // the organization, apps, data: the third line
	h.keys(":")
	h.typeText("tags")
	h.keys("enter")
	s := h.waitText("1 of ")
	total := strings.Fields(s[strings.Index(s, "1 of ")+len("1 of "):])[0]
	h.keys(":")
	h.typeText("12")
	h.keys("enter")
	h.waitText("12 of " + total)
	h.keys(":")
	h.typeText("100%")
	h.keys("enter")
	h.waitText(total + " of " + total)
}
