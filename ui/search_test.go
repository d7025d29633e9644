package ui

import (
	"strings"
	"testing"
)

func TestTreeFilterTypesLettersAndFindsLoadedNodes(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 30, true)
	h.waitFor("advisories loaded", func(s string) bool { return strings.Contains(s, "324") })
	h.keys("/", "q", "?")
	s := h.waitText("/q?")
	if h.quit || strings.Contains(s, "Keys in") {
		t.Fatal("q or ? acted as a global key while typing a filter")
	}
	h.keys("esc", "/")
	for _, k := range []string{"C", "G", "A"} {
		h.keys(k)
	}
	s = h.waitFor("advisory matches", func(s string) bool { return strings.Contains(s, "/CGA") && strings.Contains(s, "loaded nodes") })
	if !strings.Contains(s, "CGA-") {
		t.Errorf("no advisory shown:\n%s", s)
	}
	// The detail pane follows the cursor on the best match.
	h.waitText("details: CGA-")
}

func TestGroupPickerJumpsToAFolder(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 30, true)
	h.waitText("platform")
	h.keys(":", "g", "r", "o", "u", "p", "enter")
	h.waitText("Jump to which folder?", "platform/base-images")
	h.keys("b", "a", "s", "e", "enter")
	s := h.waitText("details: platform")
	if !strings.Contains(s, "v platform") {
		t.Errorf("the path to the folder is not expanded:\n%s", s)
	}
}

// A tree filter that matches nothing leaves nothing to open or copy: enter
// and y say so instead of acting on no node.
func TestEmptyTreeFilterOpensAndCopiesNothing(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("platform")
	h.keys("/")
	h.typeText("platf")
	h.waitText("details: platform")
	h.typeText("qqqzzz")
	h.keys("enter")
	// The detail pane follows the cursor: on nothing, not on the last match.
	s := h.waitText("no loaded node matches", "nothing selected")
	if strings.Contains(s, "details: platform") {
		t.Errorf("the pane still shows the last match:\n%s", s)
	}
	h.keys("enter")
	h.waitText("nothing matches the filter")
	h.keys("y")
	h.waitText("nothing matches the filter")
	if h.quit {
		t.Fatal("the shell quit")
	}
}
