package ui

import (
	"strconv"
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

// A library's versions sort both ways by version: the server's newest
// first, and s for canopy's own, oldest first (every version loads).
func TestVersionsSortBothWays(t *testing.T) {
	t.Parallel()
	h := start(t, 160, 40, true)
	h.waitText("platform")
	h.moveTo("libraries")
	h.keys("l")
	h.moveTo("python")
	h.keys("l")
	h.moveTo("requests")
	h.keys("t")
	h.waitText("versions of requests", "sort: newest version first")
	first := func(s string) string { f := strings.Fields(strings.Split(tableBody(s), "\n")[0]); return f[0] }
	newest := first(h.waitText("loaded"))
	h.keys("s")
	s := h.waitText("sort: oldest version first")
	s = h.waitFor("the oldest first", func(s string) bool { return first(s) != newest && !strings.Contains(s, "loads first") })
	less := func(a, b string) bool { // by numbers, as a version reads
		pa, pb := strings.Split(a, "."), strings.Split(b, ".")
		for i := 0; i < len(pa) && i < len(pb); i++ {
			x, _ := strconv.Atoi(pa[i])
			y, _ := strconv.Atoi(pb[i])
			if x != y {
				return x < y
			}
		}
		return len(pa) < len(pb)
	}
	if !less(first(s), newest) {
		t.Errorf("%s first, before %s:\n%s", first(s), newest, s)
	}
}
