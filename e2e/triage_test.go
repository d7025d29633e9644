package e2e

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"canopy/api"
)

var (
	// deprecatedInfoRE is the info line of a table showing deprecated tags only.
	deprecatedInfoRE = regexp.MustCompile(`(\d[\d,]*) of (\d[\d,]*) deprecated · all (\d[\d,]*) tags scanned`)
	// scanProgressRE is the same line while the scan goes on.
	scanProgressRE = regexp.MustCompile(`scanned (\d[\d,]*)/(\d[\d,]*) tags`)
)

// demoCount counts, through the API client, the tags and the deprecated
// tags of a repo of the demo organization (the same seed serves the same
// data).
func demoCount(t *testing.T, repo string) (tags, deprecated int) {
	t.Helper()
	srv, hs := serveEmulator(t, "count")
	c, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken("count", "test")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	repos, err := c.ListRepos(ctx, api.ListOptions{DescendantsOf: srv.OrgUID(), Name: repo})
	if err != nil || len(repos.Items) != 1 {
		t.Fatalf("repo %s: %v (%d found)", repo, err, len(repos.Items))
	}
	cur := api.NewCursor(c.ListTags, api.ListOptions{ChildrenOf: repos.Items[0].UID, PageSize: api.MaxPageSize}, api.TagKey)
	for tag, err := range cur.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		tags++
		if tag.Deprecated {
			deprecated++
		}
	}
	return tags, deprecated
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

// TestDemoDeprecatedOnly opens the tags of aws-cli (six pages), presses
// D, watches the scan's progress, and sees only deprecated tags, as many as
// the API says the repo has.
func TestDemoDeprecatedOnly(t *testing.T) {
	t.Parallel()
	wantTags, wantDeprecated := demoCount(t, "aws-cli")
	if wantTags <= 400 {
		t.Fatalf("aws-cli has %d tags: the test needs several pages", wantTags)
	}
	// Latency makes the scan slow enough to be seen.
	tt := startCanopy(t, termOptions{width: 120, height: 40, args: []string{"demo", "--latency", "150ms"}})
	tt.waitTree()
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.typeText("/aws-cli")
	tt.waitText("/aws-cli")
	tt.send("Enter", "Enter")
	tt.waitTable("tags of aws-cli", tagsHeaderRE)
	tt.send("D")
	s := tt.waitFor(func(s string) bool { return scanProgressRE.MatchString(s) || deprecatedInfoRE.MatchString(s) },
		"the scan's progress")
	if m := scanProgressRE.FindStringSubmatch(s); m != nil {
		if atoi(m[2]) != wantTags || atoi(m[1]) >= wantTags {
			t.Errorf("progress %q, want scanned n/%d with n < %d", m[0], wantTags, wantTags)
		}
	} else {
		t.Log("the scan ended before a screen showed its progress")
	}
	s = tt.waitFor(func(s string) bool { return deprecatedInfoRE.MatchString(s) }, "the deprecated-only info line")
	m := deprecatedInfoRE.FindStringSubmatch(s)
	if atoi(m[3]) != wantTags || atoi(m[2]) != wantDeprecated {
		t.Errorf("info %q: want %d deprecated of %d tags scanned (the API's count)", m[0], wantDeprecated, wantTags)
	}
	if !strings.Contains(header(s), "deprecated tags of aws-cli") {
		t.Errorf("the title does not say deprecated: %q", header(s))
	}
	rows := 0
	for _, l := range lines(s)[2:] {
		if strings.Contains(l, "sha256:") {
			rows++
			if !strings.Contains(l, "deprecated") {
				t.Errorf("a tag that is not deprecated is shown: %q", l)
			}
		}
	}
	if rows == 0 {
		t.Errorf("no deprecated row shown:\n%s", frame(s))
	}
	// esc shows every tag again, and the title follows.
	tt.send("Escape")
	tt.waitFor(func(s string) bool {
		return strings.HasSuffix(header(s), "› tags of aws-cli") && infoLineRE.MatchString(s)
	}, "every tag again, titled tags of aws-cli")
}

// TestDemoTypedAheadExpands types "j l j l" at once with 50 ms latency: the
// second l lands on apps' loading row and still expands its first folder.
func TestDemoTypedAheadExpands(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 120, height: 36, args: []string{"demo", "--latency", "50ms"}})
	tt.waitTree()
	tt.send("j", "l", "j", "l")
	tt.waitFor(func(s string) bool {
		return treeHas(s, regexp.MustCompile(`^\s+v apps$`)) && treeHas(s, regexp.MustCompile(`^\s+v payments$`))
	}, "apps and payments expanded")
}

// TestDemoNarrowTreeKeepsRepoNames: at 80x24 an expanded repo row keeps its
// name and mark; its count shortens.
func TestDemoNarrowTreeKeepsRepoNames(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 80, height: 24})
	tt.waitTree()
	tt.command("group")
	tt.waitText("Jump to which folder?")
	tt.typeText("base")
	tt.send("Enter")
	tt.waitFor(func(s string) bool { return detailsTitle(s) == "base-images" }, "base-images selected")
	tt.selectInTree("j", "repos of base-images", 10)
	tt.send("l")
	tt.selectInTree("j", "node", 30)
	tt.send("l")
	s := tt.waitFor(func(s string) bool { return treeHas(s, regexp.MustCompile(`^\s+v node !\s+\d+\+?! 200/`)) },
		`the node row: "v node !  N+! 200/total"`)
	_ = s
}
