package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// deprecatedInfoRE is the info line of a table showing deprecated tags only.
var deprecatedInfoRE = regexp.MustCompile(`(\d[\d,]*) of (\d[\d,]*) deprecated · all (\d[\d,]*) tags scanned`)

// TestDemoDeprecatedOnly opens a repo's tags, presses D, and sees only
// deprecated tags, as many as the repo has.
func TestDemoDeprecatedOnly(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 120, height: 62})
	tt.waitTree()
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.typeText("/alertmanager")
	tt.waitText("/alertmanager", "/63")
	tt.send("Enter", "Enter")
	tt.waitTable("tags of alertmanager", tagsHeaderRE)
	// 62 lines show all 52 tags: count the deprecated ones as the user would.
	want := 0
	for _, l := range lines(tt.waitText("52/52 loaded")) {
		if strings.Contains(l, "sha256:") && strings.Contains(l, " deprecated ") {
			want++
		}
	}
	tt.send("D")
	s := tt.waitFor(func(s string) bool { return deprecatedInfoRE.MatchString(s) }, "the deprecated-only info line")
	m := deprecatedInfoRE.FindStringSubmatch(s)
	if m[3] != "52" {
		t.Errorf("scanned %s tags, want 52", m[3])
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
	if m[2] != strconv.Itoa(rows) || rows != want || rows == 0 {
		t.Errorf("count %s, %d rows shown, %d deprecated in the full list", m[2], rows, want)
	}
}
