package ui

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"canopy/api"
)

// toAWSCLI puts the tree's cursor on the aws-cli repo (six pages of tags),
// its first page of tags expanded.
func (h *harness) toAWSCLI() {
	h.t.Helper()
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("l")
	h.moveTo("aws-cli")
	h.keys("l")
	h.waitFor("aws-cli's first tags", func(s string) bool { return regexp.MustCompile(`aws-cli !? +\d+\+ deprecated · 200/`).MatchString(s) })
}

// After D scanned every tag of a repo, the tree knows the exact count.
func TestTreeCountIsExactAfterAScan(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.toAWSCLI()
	h.keys("D")
	s := h.waitFor("the scan done", func(s string) bool { return regexp.MustCompile(`all [\d,]+ tags scanned`).MatchString(s) })
	if !strings.Contains(line(s, "canopy  "), "deprecated tags of aws-cli") {
		t.Errorf("title: %q", line(s, "canopy  "))
	}
	n := regexp.MustCompile(`of ([\d,]+) deprecated`).FindStringSubmatch(s)[1]
	h.keys("esc") // opened deprecated-only: esc goes back to the tree at once
	h.waitFor("the exact count in the tree", func(s string) bool {
		return regexp.MustCompile(`aws-cli ! +` + n + ` deprecated · 200/`).MatchString(s)
	})
}

// A tag's detail lists the other tags on its digest once per repo: the next
// tag of the same repo asks for no tag list, and the advisories are those
// of the repo's name and of its name with a version.
func TestTagDetailReusesTheRepoTags(t *testing.T) {
	t.Parallel()
	hk := hookedShell(t, 140, 40, Options{})
	hk.waitText("platform")
	hk.keys(":", "r", "e", "p", "o", "s", "enter")
	hk.waitText("repos of acme.example", "63/63 loaded")
	hk.keys("/", "p", "y", "t", "h", "o", "n", "enter")
	hk.waitText("/python")
	hk.keys("enter")
	hk.waitFor("python's tags", func(s string) bool { return regexp.MustCompile(`[\d,]+/[\d,]+ loaded`).MatchString(s) })
	hk.keys("enter")
	s := hk.waitFor("the first tag's relations", func(s string) bool {
		return strings.Contains(s, "SAME DIGEST") && strings.Contains(s, "ADVISORIES FOR PYTHON, PYTHON-<VERSION>")
	})
	want := 0
	cur := api.NewCursor(hk.client.ListAdvisories, api.ListOptions{PageSize: api.MaxPageSize}, api.AdvisoryKey)
	for a, err := range cur.All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if a.ArtifactName == "python" || regexp.MustCompile(`^python-\d`).MatchString(a.ArtifactName) {
			want++
		}
	}
	got := regexp.MustCompile(`ADVISORIES FOR PYTHON, PYTHON-<VERSION> \((\d+)\)`).FindStringSubmatch(s)[1]
	if want == 0 || got != strconv.Itoa(want) {
		t.Errorf("%s advisories shown, %d in the feed for python and python-<version>", got, want)
	}
	before := hk.count("/registry/v2/tags")
	hk.keys("esc", "j", "enter")
	hk.waitFor("the second tag's relations", func(s string) bool {
		return strings.Contains(s, "SAME DIGEST") && strings.Contains(s, "ADVISORIES FOR PYTHON") && !strings.Contains(s, "searched")
	})
	if after := hk.count("/registry/v2/tags"); after != before {
		t.Errorf("the second tag of the repo listed its tags again: %d requests", after-before)
	}
}

// Tables spanning folders say where each row lives.
func TestFolderColumns(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 30, true)
	h.waitText("platform")
	h.keys(":", "s", "u", "b", "s", "enter")
	s := h.waitText("subscriptions of acme.example", "FOLDER", "apps/payments")
	if strings.Contains(s, " UID ") {
		t.Errorf("the uid column stayed:\n%s", s)
	}
	h.keys(":", "b", "i", "n", "d", "i", "n", "g", "s", "enter")
	h.waitText("role bindings of acme.example", "FOLDER", "platform/ci", "apps/payments")
	h.keys(":", "i", "d", "s", "enter")
	h.waitText("identities of acme.example", "FOLDER", "apps/web")
}
