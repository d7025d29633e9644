package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"canopy/resource"
)

// readDoc reads a page of the documentation, by its path in the repository.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docPages are README.md and every page under docs/.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in docs/: %v", err)
	}
	return append([]string{"README.md"}, pages...)
}

// TestDocsNameEveryKind: the guide's table of commands names every kind's
// `:` command, and canopy list's usage line every collection: a kind added
// without a word there fails here.
func TestDocsNameEveryKind(t *testing.T) {
	guide, cli := readDoc(t, "docs/guide.md"), readDoc(t, "docs/cli.md")
	usage := regexp.MustCompile("(?m)^canopy list (\\S+)").FindStringSubmatch(cli)
	if usage == nil {
		t.Fatal("docs/cli.md has no canopy list usage line")
	}
	listed := strings.Split(usage[1], "|")
	commands := regexp.MustCompile("(?m)^\\| (`:[^|]*)\\|").FindAllStringSubmatch(guide, -1)
	var table strings.Builder
	for _, c := range commands {
		table.WriteString(c[1])
	}
	for _, k := range resource.Kinds() {
		if k.Command != "" && !strings.Contains(table.String(), "`:"+k.Command+"`") {
			t.Errorf("%s: :%s is not in docs/guide.md's table of commands", k.Nouns, k.Command)
		}
		if k.Collection != "" && !slices.Contains(listed, k.Collection) {
			t.Errorf("%s: %s is not in docs/cli.md's canopy list line (%v)", k.Nouns, k.Collection, listed)
		}
	}
}

// TestReadmeFirstScreen: a new reader finds the two commands (run the demo,
// run every test) and a picture of the screen in the README's first
// screenful, .ci/run runs that same test command, and the README stays
// short: the rest is in docs/.
func TestReadmeFirstScreen(t *testing.T) {
	readme := readDoc(t, "README.md")
	lines := strings.Split(readme, "\n")
	first := strings.Join(lines[:min(len(lines), 40)], "\n")
	const demo, tests = "go run . demo", "go test -race -trimpath -timeout 60m ./..."
	for _, want := range []string{demo, tests, "![", ".svg)"} {
		if !strings.Contains(first, want) {
			t.Errorf("the README's first 40 lines have no %q", want)
		}
	}
	if ci := readDoc(t, ".ci/run"); !strings.Contains(ci, "\n"+tests+"\n") {
		t.Errorf(".ci/run does not run the README's test command %q", tests)
	}
	if len(lines) > 150 {
		t.Errorf("the README has %d lines; keep it under 150 and move the rest into docs/", len(lines))
	}
}

// linkRE is a Markdown link or image: [text](target) or ![alt](target).
var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinksResolve: every link in the README and docs/ is to a file of
// the repository (and, with #anchor, to one of its headings) or to the web;
// none points outside the repository (a clone has nothing there), and no
// page names the folders around it.
func TestDocsLinksResolve(t *testing.T) {
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range docPages(t) {
		body := readDoc(t, page)
		if strings.Contains(body, "../shared") {
			t.Errorf("%s points into ../shared, which is not in the repository", page)
		}
		for _, m := range linkRE.FindAllStringSubmatch(stripCode(body), -1) {
			target := m[1]
			if strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			abs, err := filepath.Abs(path)
			if err != nil || (abs != root && !strings.HasPrefix(abs, root+string(filepath.Separator))) {
				t.Errorf("%s: %s is outside the repository", page, target)
				continue
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: %s does not exist", page, target)
				continue
			}
			if anchor != "" && !slices.Contains(anchors(readDoc(t, filepath.ToSlash(path))), anchor) {
				t.Errorf("%s: %s: no heading %q in %s", page, target, anchor, path)
			}
		}
	}
}

// stripFences drops fenced code blocks, whose lines are neither headings
// nor links.
func stripFences(md string) []string {
	var out []string
	fenced := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, l)
		}
	}
	return out
}

// codeSpanRE is a code span, whose brackets are not a link.
var codeSpanRE = regexp.MustCompile("`[^`]*`")

// stripCode drops fenced code blocks and code spans.
func stripCode(md string) string {
	return codeSpanRE.ReplaceAllString(strings.Join(stripFences(md), "\n"), "``")
}

// anchors are the fragments a page's headings get on GitHub: lower case,
// spaces as hyphens, punctuation dropped.
func anchors(md string) []string {
	var out []string
	for _, l := range stripFences(md) {
		h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " ")
		if !ok || !strings.HasPrefix(l, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r > 127:
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}
