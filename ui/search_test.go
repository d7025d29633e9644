package ui

import (
	"strings"
	"testing"
)

func TestTreeFilterTypesLettersAndFindsLoadedNodes(t *testing.T) {
	h := start(t, 120, 30, true)
	h.waitFor("advisories loaded", func(s string) bool { return strings.Contains(s, "320") })
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
	h := start(t, 120, 30, true)
	h.waitText("platform")
	h.keys(":", "g", "r", "o", "u", "p", "enter")
	h.waitText("Jump to which folder?", "platform/base-images")
	h.keys("b", "a", "s", "e", "enter")
	s := h.waitText("details: base-images")
	if !strings.Contains(s, "v platform") {
		t.Errorf("the path to the folder is not expanded:\n%s", s)
	}
}
