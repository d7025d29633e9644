package ui

import (
	"fmt"
	"strings"
	"testing"

	"canopy/api"
)

// TestOverviewCountsItsOwnDeletes: a deprecated tag deleted from the
// overview's table of a repo's deprecated tags leaves the overview's
// counts at once, without r: the heading's and the repo's line.
func TestOverviewCountsItsOwnDeletes(t *testing.T) {
	t.Parallel()
	wt := watchedShell(t, 150, 70)
	wt.waitText("platform")
	tr := readTruth(t, wt.client, wt.srv.OrgUID())
	typeCommand(wt.harness, "overview")
	n := len(tr.repos)
	wt.waitText(fmt.Sprintf("%d of %d repos counted, the oldest", n, n))
	wt.waitFor("every count", func(s string) bool { return !strings.Contains(s, "counting") && !wt.m.busy() })
	total, dep, worst := 0, 0, api.Repo{}
	for _, r := range tr.repos {
		total += tr.tags[r.UID]
		dep += tr.dep[r.UID]
		if tr.dep[r.UID] > tr.dep[worst.UID] || (tr.dep[r.UID] == tr.dep[worst.UID] && r.Name < worst.Name) {
			worst = r
		}
	}
	wt.down(" " + worst.Name + " ")
	wt.keys("enter")
	wt.waitFor("the repo's deprecated tags", func(s string) bool { return strings.Contains(line(s, "canopy  "), "tags of "+worst.Name) })
	wt.waitFor("the repo's tags listed", func(string) bool { return !wt.m.busy() })
	wt.keys("d")
	wt.waitText("Delete tag ")
	wt.keys("y")
	wt.waitText("deleted tag ")
	wt.keys("esc")
	heading := fmt.Sprintf("%s of %s tags", commas(dep-1), commas(total-1))
	s := wt.waitFor("the heading to count the delete", func(s string) bool {
		return strings.Contains(s, "by repo") && strings.Contains(line(s, "Deprecated tags"), heading)
	})
	byRepo := s[strings.Index(s, "by repo"):]
	if l := line(byRepo, " "+worst.Name+" "); !strings.Contains(l, fmt.Sprintf("%s of %s", commas(tr.dep[worst.UID]-1), commas(tr.tags[worst.UID]-1))) {
		t.Errorf("%s's line %q, want %d of %d", worst.Name, l, tr.dep[worst.UID]-1, tr.tags[worst.UID]-1)
	}
}
