package ui

import (
	"fmt"
	"strings"
	"testing"

	"canopy/census"
)

// TestAdvisoryCountsOfAServerIgnoringTheStatusFilter: a server that
// answers every advisory whatever latest_event_type asks once made the
// tree and a repo's page count each advisory under every status. Now
// they count what the emulator holds, and say the count is canopy's.
func TestAdvisoryCountsOfAServerIgnoringTheStatusFilter(t *testing.T) {
	t.Parallel()
	h := watchedShellIgnoring(t, 150, 50, "latest_event_type")
	h.waitText("apps")
	tr := readTruth(t, h.client, h.srv.OrgUID())
	repo := openWebRepos(h, tr)
	c := tr.advisories[repo.Name]
	c.Own = true
	h.waitFor("the repo's own count", noted(repo.Name, adviceNotes(c)))
	h.moveTo(repo.Name)
	s := h.waitText("ADVISORIES", "canopy's count, of")
	for st := range census.Statuses {
		if n := c.N[st]; n > 0 && !strings.Contains(s, fmt.Sprintf("%d %s", n, st)) {
			t.Errorf("the page does not count %d %s:\n%s", n, st, s)
		}
	}
}

// TestTableOfAServerIgnoringTheNameFilter: `a` on a repo lists its
// image's advisories; a server that ignores artifact_names answers the
// whole feed. The table keeps the repo's alone and says canopy filtered
// them.
func TestTableOfAServerIgnoringTheNameFilter(t *testing.T) {
	t.Parallel()
	h := watchedShellIgnoring(t, 150, 50, "artifact_names")
	h.waitText("apps")
	tr := readTruth(t, h.client, h.srv.OrgUID())
	for _, node := range []string{"apps", "web", "repos of web"} {
		h.moveTo(node)
		h.keys("l")
	}
	h.moveTo("nginx")
	h.keys("a")
	want := tr.named["nginx"]
	s := h.waitText("advisories of nginx", "filtered by canopy: the server ignored artifact_names", fmt.Sprintf("%d/%d loaded", want, want))
	rows := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, " CGA-") && strings.Contains(l, " nginx ") {
			rows++
		}
	}
	if rows != want || strings.Contains(s, " haproxy ") {
		t.Errorf("%d rows of nginx, the emulator holds %d:\n%s", rows, want, s)
	}
}
