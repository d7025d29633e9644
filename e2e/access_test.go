package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestDemoAccessMatrix opens who can do what in a folder, follows carol's
// row to the grants behind it, binds her a role there, and sees her row
// change at once in the matrix opened again.
func TestDemoAccessMatrix(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 100, height: 40})
	tt.waitTree()
	tt.command("access platform/ci")
	tt.waitText("access at platform/ci", "IDENTITY", "PULL", "PUSH", "ci-runner")
	carol := regexp.MustCompile(`(?m)^ carol +all +· +·`)
	tt.waitFor(func(s string) bool { return carol.MatchString(s) }, "carol pulling, not pushing, in platform/ci")
	tt.typeText("/carol")
	tt.waitText("/carol")
	tt.send("Enter")
	tt.send("Enter")
	tt.waitText("pull of carol at platform/ci", "repo.blobs.get (CAP_REPO_BLOBS_GET): viewer on acme.example (inherited)", "tag.create (CAP_TAG_CREATE): not held")
	tt.send("Escape")
	tt.send("Escape")
	tt.command("identities")
	tt.waitText("identities of acme.example", "NAME")
	tt.typeText("/carol")
	tt.waitText("/carol", "/20")
	tt.send("Enter")
	tt.typeText("b")
	tt.waitText("Which role for carol?")
	tt.typeText("editor")
	tt.send("Enter")
	tt.waitText("Bind editor to carol on which folder?")
	tt.typeText("platform/ci")
	tt.waitText("filter: platform/ci")
	tt.send("Enter")
	tt.waitText("Bind editor to carol on platform/ci?")
	tt.send("Enter")
	tt.waitText("bound editor → carol on platform/ci")
	tt.command("access platform/ci")
	pushing := regexp.MustCompile(`(?m)^ carol +all +all +all`)
	tt.waitFor(func(s string) bool { return strings.Contains(s, "access at platform/ci") && pushing.MatchString(s) },
		"carol pushing in platform/ci after the bind")
}
