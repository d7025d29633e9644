package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shot is one picture of docs/shots: how to reach the screen in the demo,
// and what must be on it before it is taken.
type shot struct {
	file, title   string
	width, height int
	args          []string
	reach         func(tt *tmuxTerm) string // returns the screen once it is ready
}

// shots are the README's pictures, made from the demo.
func shots() []shot {
	return []shot{
		{file: "tree.svg", title: "canopy: the demo organization as a tree, a repo's tags open, the selected tag's details beside it",
			width: 120, height: 34, args: []string{"demo", "--resume=false"},
			reach: func(tt *tmuxTerm) string {
				tt.waitTree()
				tt.selectInTree("j", "platform", 10)
				tt.press(func(s string) bool { return strings.Contains(s, "v platform") }, "platform open", "l")
				tt.selectInTree("j", "repos of platform", 10)
				tt.press(func(s string) bool { return strings.Contains(s, "v repos") && strings.Contains(s, "istio-proxy") }, "the repos of platform", "l")
				tt.selectInTree("j", "istio-proxy", 20)
				tt.press(func(s string) bool { return strings.Contains(s, "1.24.0 [deprecated]") }, "the tags of istio-proxy", "l")
				tt.selectInTree("j", "1.24", 3)
				return tt.waitText("SAME DIGEST", "ADVISORIES FOR ISTIO-PROXY", "RESOLVED IN THE LAST 90 DAYS")
			}},
		{file: "deprecated.svg", title: "canopy: the deprecated tags of the whole organization, found by scanning every tag",
			width: 120, height: 30, args: []string{"demo", "--resume=false", "-c", "deprecated"},
			reach: func(tt *tmuxTerm) string {
				return tt.waitFor(func(s string) bool { return deprecatedInfoRE.MatchString(s) }, "every tag scanned")
			}},
		{file: "overview.svg", title: "canopy: the overview, where the risk is in the organization at a glance",
			width: 120, height: 40, args: []string{"demo", "--resume=false", "--start", "overview"},
			reach: func(tt *tmuxTerm) string {
				return tt.waitFor(func(s string) bool {
					m := countedRE.FindStringSubmatch(s)
					return m != nil && m[1] == m[2] && strings.Contains(s, "by repo")
				}, "every repo counted")
			}},
		{file: "access.svg", title: "canopy: the access review, who can do what at a folder and why it is flagged",
			width: 120, height: 24, args: []string{"demo", "--resume=false", "-c", "access"},
			reach: func(tt *tmuxTerm) string {
				flagged := regexp.MustCompile(`(?m)catalog-syncer .*(workload at org|1 !)`)
				return tt.waitFor(func(s string) bool { return strings.Contains(s, "access at acme.example") && flagged.MatchString(s) },
					"the access matrix of the organization")
			}},
	}
}

// TestScreenshots makes docs/shots/*.svg from the demo in tmux, with
// CANOPY_UPDATE_SHOTS=1 (scripts/screenshots); otherwise it checks that
// each picture the README shows is there.
func TestScreenshots(t *testing.T) {
	dir := filepath.Join("..", "docs", "shots")
	if os.Getenv("CANOPY_UPDATE_SHOTS") != "1" {
		for _, s := range shots() {
			if _, err := os.Stat(filepath.Join(dir, s.file)); err != nil {
				t.Errorf("docs/shots/%s: %v (scripts/screenshots makes it)", s.file, err)
			}
		}
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range shots() {
		t.Run(s.file, func(t *testing.T) {
			tt := startCanopy(t, termOptions{width: s.width, height: s.height, args: s.args})
			s.reach(tt)
			// The same screen again, with its colours (-e), once it is still.
			capture := tt.screen("-e")
			svg := screenSVG(capture, s.width, s.height, s.title)
			if err := os.WriteFile(filepath.Join(dir, s.file), []byte(svg), 0o644); err != nil {
				t.Fatal(err)
			}
			tt.send("C-c")
			tt.waitExit()
		})
	}
}
