package ui

import (
	"strings"
	"testing"
)

// The tags' last order is canopy's own, by version: every tag loads (with
// progress), then `latest` comes first and versions read as numbers.
func TestTagsSortByVersion(t *testing.T) {
	t.Parallel()
	h := start(t, 160, 40, true)
	h.waitText("platform")
	h.keys(":")
	h.typeText("tags")
	h.keys("enter")
	h.waitText("sort: name")
	h.keys("s", "s", "s", "s")
	h.waitText("sorted by version", "sort: version")
	h.keys("g")
	s := h.waitText("1 of ")
	body := tableBody(s)
	first := strings.Fields(strings.Split(body, "\n")[0])
	if len(first) == 0 || first[0] != "latest" {
		t.Errorf("the first tag is not latest:\n%s", s)
	}
}
