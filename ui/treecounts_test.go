package ui

import (
	"fmt"
	"regexp"
	"testing"

	"canopy/api"
)

// TestTreeTakesTheKeptCount: once the overview counted aws-cli's tags,
// the tree's row of it, with only its first page loaded, says the exact
// deprecated count the overview and the repo's page say, not "at least"
// what the page holds; a tag made here counts at once in both.
func TestTreeTakesTheKeptCount(t *testing.T) {
	t.Parallel()
	wt := overviewCounted(t)
	tr := readTruth(t, wt.client, wt.srv.OrgUID())
	var aws api.Repo
	for _, r := range tr.repos {
		if r.Name == "aws-cli" {
			aws = r
		}
	}
	dep, all := tr.dep[aws.UID], tr.tags[aws.UID]
	if all <= api.MaxPageSize {
		t.Fatalf("aws-cli has %d tags: one page", all)
	}
	wt.keys("esc")
	wt.waitText("details: ")
	for _, node := range []string{"platform", "repos of platform"} {
		wt.moveTo(node)
		wt.keys("l")
	}
	wt.moveTo("aws-cli")
	wt.keys("l")
	row := func(dep, loaded, all int) *regexp.Regexp {
		return regexp.MustCompile(fmt.Sprintf(`aws-cli .* %s deprecated · %s/%s +│`, commas(dep), commas(loaded), commas(all)))
	}
	wt.waitFor("the kept count on aws-cli's row", func(s string) bool { return row(dep, api.MaxPageSize, all).MatchString(s) })

	wt.keys("n")
	wt.waitText("New tag in aws-cli")
	wt.typeText("canopy-made")
	wt.keys("tab")
	wt.typeText("sha256:" + fmt.Sprintf("%064x", 7))
	wt.waitText("no tag canopy-made in aws-cli yet")
	wt.keys("enter")
	wt.waitText(`created tag "canopy-made" in aws-cli`)
	wt.waitFor("the new tag counted on the row", func(s string) bool {
		return regexp.MustCompile(fmt.Sprintf(`aws-cli .* %s deprecated · [\d,]+/%s +│`, commas(dep), commas(all+1))).MatchString(s)
	})
	typeCommand(wt.harness, "overview")
	s := wt.waitText("Deprecated tags", "by repo")
	if l := line(s[regexp.MustCompile(`by repo`).FindStringIndex(s)[0]:], " aws-cli "); !regexp.MustCompile(fmt.Sprintf(`%s of %s `, commas(dep), commas(all+1))).MatchString(l) {
		t.Errorf("the overview's aws-cli line %q, want %d of %d", l, dep, all+1)
	}
}
