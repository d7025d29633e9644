package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"canopy/theme"
)

// filterCount is the "matches/loaded" of the filter line, -1 while none.
func filterCount(s, loaded string) int {
	m := regexp.MustCompile(`(\d+)/`+loaded+`\b`).FindAllStringSubmatch(s, -1)
	if len(m) == 0 {
		return -1
	}
	n, _ := strconv.Atoi(m[len(m)-1][1])
	return n
}

// matchPaint is the text of a raw frame line shown in the match style.
func matchPaint(line string) string {
	pre := theme.PaintOf(theme.New(theme.Options{Name: theme.Dark}).Match).Pre()
	var out string
	for _, p := range strings.Split(line, pre)[1:] {
		if end := strings.IndexByte(p, '\x1b'); end > 0 {
			out += p[:end]
		}
	}
	return out
}

// `/platform` on the repos of the organization finds the repos whose
// FOLDER is platform/… (no repo is named so), highlighting the letters in
// that column; `/!platform` drops them.
func TestFilterSearchesTheFolderColumn(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("platform")
	h.typeText(":repos")
	h.keys("enter")
	h.waitText("63/63 loaded", "platform/")
	h.typeText("/platform")
	s := h.waitFor("folder matches", func(s string) bool { return filterCount(s, "63") > 0 })
	found := filterCount(s, "63")
	if found == 63 {
		t.Fatalf("every repo matched:\n%s", s)
	}
	rows := 0
	for _, l := range strings.Split(h.m.View().Content, "\n") {
		plain := strings.Fields(ansi.Strip(l))
		if len(plain) < 2 || !strings.HasPrefix(plain[1], "platform") {
			continue
		}
		rows++
		if got := matchPaint(l); got != "platform" {
			t.Errorf("highlighted %q in %q", got, ansi.Strip(l))
		}
	}
	if rows == 0 {
		t.Fatalf("no row of a platform folder shown:\n%s", s)
	}
	h.keys("esc", "/", "!")
	h.typeText("platform")
	s = h.waitFor("the other repos", func(s string) bool { return filterCount(s, "63") == 63-found })
	for _, l := range strings.Split(s, "\n")[1:] {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(f[1], "platform") {
			t.Errorf("/!platform kept %q", l)
		}
	}
}

// `/<repo>` on the tags of the organization finds the tags of that repo by
// their REPO column (the seeded first page has no redis: the repo of its
// first row stands in), highlighting the letters there.
func TestFilterSearchesTheRepoColumn(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("platform")
	h.typeText(":tags")
	h.keys("enter")
	h.waitFor("repo names", func(s string) bool { return strings.Contains(s, "alertmanager") })
	repo := ""
	for _, l := range strings.Split(h.screen(), "\n")[2:] {
		if f := strings.Fields(l); len(f) > 1 && !subsequence(f[1], f[0]) {
			repo = f[1]
			break
		}
	}
	if repo == "" {
		t.Fatalf("no row to search by its repo:\n%s", h.screen())
	}
	h.typeText("/" + repo)
	h.waitFor("tags of "+repo, func(s string) bool { return filterCount(s, "200") > 0 })
	byRepo := 0
	for _, l := range strings.Split(h.m.View().Content, "\n") {
		f := strings.Fields(ansi.Strip(l))
		if len(f) < 2 || f[1] != repo || subsequence(repo, f[0]) {
			continue
		}
		byRepo++
		if got := matchPaint(l); got != repo {
			t.Errorf("highlighted %q in %q", got, ansi.Strip(l))
		}
	}
	if byRepo == 0 {
		t.Errorf("no tag found by its REPO %s:\n%s", repo, h.screen())
	}
}

// subsequence reports whether the letters of p appear in s in order (the
// fuzzy filter would match s by its name).
func subsequence(p, s string) bool {
	for _, r := range strings.ToLower(s) {
		if len(p) > 0 && rune(strings.ToLower(p)[0]) == r {
			p = p[1:]
		}
	}
	return p == ""
}
