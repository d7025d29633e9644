package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// countedRE is the overview's progress: "N of M repos counted".
var countedRE = regexp.MustCompile(`([\d,]+) of ([\d,]+) repos counted`)

// TestDemoStartsOnTheOverview: --start overview opens it once the
// organization is there; its first line opens the folder's deprecated
// tags on top of it, esc comes back to it, and esc again to the tree.
func TestDemoStartsOnTheOverview(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 130, height: 64, args: []string{"demo", "--start", "overview", "--resume=false"}})
	s := tt.waitFor(func(s string) bool {
		m := countedRE.FindStringSubmatch(s)
		return m != nil && m[1] == m[2] && strings.Contains(s, "by repo") && strings.Contains(s, "repos with any")
	}, "every repo counted")
	if !strings.Contains(header(s), "overview of acme.example") {
		t.Errorf("header %q", header(s))
	}
	tt.send("Enter")
	tt.waitFor(func(s string) bool { return strings.Contains(header(s), "tags under") }, "the worst folder's deprecated tags")
	tt.send("Escape")
	tt.waitFor(func(s string) bool { return strings.Contains(header(s), "overview of") }, "back on the overview")
	tt.send("Escape")
	tt.waitTree()
}

// TestOverviewScanStopsAtOnce: while the medium demo's scans run (about
// 10⁵ tags), keys move the cursor, and ctrl+c ends canopy at once.
func TestOverviewScanStopsAtOnce(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 120, height: 40, args: []string{"demo", "--size", "medium", "--start", "overview", "--resume=false"}})
	// The scans may be over in moments: a short poll, not to miss them.
	tt.waitPolling(longPatience, quickPoll, func(s string) bool {
		m := countedRE.FindStringSubmatch(s)
		return m != nil && m[1] != m[2] && strings.Contains(s, "scanning")
	}, "the scans under way")
	t0 := time.Now()
	tt.send("C-c")
	if code := tt.waitExit(); code != 0 && code != 130 {
		t.Errorf("exit code %d", code)
	}
	t.Logf("ctrl+c ended canopy during the scans after %v", time.Since(t0).Round(time.Millisecond))
}

// deprecatedRE is the overview's heading of deprecated tags.
var deprecatedRE = regexp.MustCompile(`Deprecated tags +([\d,]+) of ([\d,]+) tags`)

// TestOverviewCountsADeleteAtOnce: a deprecated tag deleted from the
// worst folder's table leaves the overview's heading one fewer of each,
// back on the overview, without r.
func TestOverviewCountsADeleteAtOnce(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 130, height: 64, args: []string{"demo", "--start", "overview", "--resume=false"}})
	s := tt.waitFor(func(s string) bool {
		m := countedRE.FindStringSubmatch(s)
		return m != nil && m[1] == m[2] && deprecatedRE.MatchString(s) && strings.Contains(s, "by repo")
	}, "every repo counted")
	before := deprecatedRE.FindStringSubmatch(s)
	tt.send("Enter")
	tt.waitFor(func(s string) bool {
		return strings.Contains(header(s), "tags under") && strings.Contains(s, " tags scanned")
	}, "the worst folder's deprecated tags")
	tt.send("d")
	tt.waitText("Delete tag ")
	tt.send("y")
	tt.waitText("deleted tag ")
	tt.send("Escape")
	want := regexp.MustCompile(`Deprecated tags +` + regexp.QuoteMeta(fewer(t, before[1])) + ` of ` + regexp.QuoteMeta(fewer(t, before[2])) + ` tags`)
	tt.waitFor(func(s string) bool { return strings.Contains(header(s), "overview of") && want.MatchString(s) },
		"the overview counting the delete ("+before[0]+" before)")
}

// fewer is a count as the screen writes it ("1,234"), one less.
func fewer(t *testing.T, count string) string {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(count, ",", ""))
	if err != nil {
		t.Fatal(err)
	}
	s := strconv.Itoa(n - 1)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
