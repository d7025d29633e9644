package cli

import (
	"strings"
	"testing"
)

// --filter searches the REPO column as `/` does in the UI's table of tags:
// the tags of redis are found by their repo, and !redis drops them.
func TestListFilterSearchesTheRepoColumn(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "tags", "--filter", "redis")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	byRepo := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "redis" {
			byRepo++
		}
	}
	if byRepo == 0 {
		t.Errorf("no redis tag found by its repo:\n%.600s", out)
	}
	out, _, _ = list(t, getenv, "tags", "--filter", "!redis")
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "redis" {
			t.Fatalf("!redis kept %q", l)
		}
	}
}
