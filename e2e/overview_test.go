package e2e

import (
	"regexp"
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
