package e2e

// End-to-end tests: the real binary (`canopy demo`) in tmux, driven by keys
// and checked on the captured screen, as a user would see it. The driver is
// in tmux_test.go.

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var (
	tableHeaderRE = regexp.MustCompile(`(?m)^ NAME\b.*\bUPDATED\b`)
	tagsHeaderRE  = regexp.MustCompile(`(?m)^ TAG\b.*\bDIGEST\b`)
	infoLineRE    = regexp.MustCompile(`(?m)^ (\d[\d,]*) of (\d[\d,]*) · (\d[\d,]*)/(\d[\d,]*) loaded`)
	digestRE      = regexp.MustCompile(`sha256:[0-9a-f]{12}`)
	reposRowRE    = regexp.MustCompile(`^\s+v repos\s+\d`)
	cmdlineRE     = regexp.MustCompile(`(?m)^:`)
)

// header is the first screen row: "canopy  org › screen › ...".
func header(s string) string { return lines(s)[0] }

// treeHas reports whether a row of the tree pane matches re.
func treeHas(s string, re *regexp.Regexp) bool {
	for _, r := range treeRows(s) {
		if re.MatchString(r) {
			return true
		}
	}
	return false
}

// indent is the number of leading spaces of a tree row.
func indent(row string) int { return len(row) - len(strings.TrimLeft(row, " ")) }

// reposRow is the expanded "repos" collection row of the tree.
func reposRow(rows []string) string {
	for _, r := range rows {
		if reposRowRE.MatchString(r) {
			return r
		}
	}
	return ""
}

// onTree reports whether the tree screen (no table, no overlay) is shown.
func onTree(s string) bool {
	return header(s) == "canopy  acme.example" && detailsTitle(s) != ""
}

// waitTree waits for the tree of the demo organization with its folders.
func (tt *tmuxTerm) waitTree() string {
	tt.t.Helper()
	org := regexp.MustCompile(`^v acme\.example$`)
	platform := regexp.MustCompile(`^\s+> platform$`)
	return tt.waitFor(func(s string) bool { return onTree(s) && treeHas(s, org) && treeHas(s, platform) },
		`the tree with "acme.example" and a "platform" folder`)
}

// command runs a `:` command line, e.g. command("repos").
func (tt *tmuxTerm) command(name string) {
	tt.t.Helper()
	tt.press(cmdlineRE.MatchString, "the command line", ":")
	typed := regexp.MustCompile(`(?m)^:` + regexp.QuoteMeta(name) + `\s*$`)
	tt.typeText(name)
	tt.waitFor(typed.MatchString, "the command line to read :"+name)
	tt.send("Enter")
}

// waitTable waits for a full-screen table titled title, with rows loaded.
func (tt *tmuxTerm) waitTable(title string, head *regexp.Regexp) string {
	tt.t.Helper()
	return tt.waitFor(func(s string) bool {
		return strings.HasSuffix(header(s), "› "+title) && head.MatchString(s) && infoLineRE.MatchString(s)
	}, "the table "+strconv.Quote(title)+" with its column header and a loaded info line")
}

// firstTableRow is the first word of the row under the column header.
func firstTableRow(t *testing.T, s string, head *regexp.Regexp) string {
	t.Helper()
	row, err := rowAfter(lines(s), head)
	if err != nil || len(strings.Fields(row)) == 0 {
		t.Fatalf("no row under the table header; screen:\n%s", frame(s))
	}
	return strings.Fields(row)[0]
}

func TestDemoBrowse(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 120, height: 36})
	tt.waitTree()

	// Down to the platform folder, found by the detail pane's title.
	tt.selectInTree("j", "platform", 20)
	tt.press(func(s string) bool { return treeHas(s, regexp.MustCompile(`^\s+v platform$`)) },
		"platform expanded", "l")

	// Its repos collection, expanded in place.
	tt.selectInTree("j", "repos of platform", 10)
	s := tt.press(func(s string) bool {
		rows := treeRows(s)
		row, err := rowAfter(rows, reposRowRE)
		return err == nil && strings.HasPrefix(strings.TrimSpace(row), "> ") && indent(row) > indent(reposRow(rows))
	}, "the repos of platform listed under the expanded collection", "l")
	row, _ := rowAfter(treeRows(s), reposRowRE)
	// The name, without the note after it (its advisories).
	repo := strings.Fields(strings.TrimPrefix(strings.TrimSpace(row), "> "))[0]

	// The first repo: its tags with digests, and its README in the details.
	tt.selectInTree("j", repo, 1)
	s = tt.press(func(s string) bool {
		return len(digestRE.FindAllString(strings.Join(treeRows(s), "\n"), -1)) >= 3 &&
			strings.Contains(strings.Join(detailRows(s), "\n"), "README")
	}, "tags with sha256 digests under "+repo+" and its README in the detail pane", "l")
	if !treeHas(s, regexp.MustCompile(`^\s+v `+regexp.QuoteMeta(repo)+`( !)?\s+(\d+\+? deprecated · )?\d`)) {
		t.Errorf("repo %s is not shown expanded with its tag count:\n%s", repo, frame(s))
	}

	// The repos collection as a full-screen table, then a repo's tags.
	tt.selectInTree("k", "repos of platform", 5)
	tt.send("Enter")
	s = tt.waitTable("repos of platform", tableHeaderRE)
	first := firstTableRow(t, s, tableHeaderRE)
	tt.send("Enter")
	s = tt.waitTable("tags of "+first, tagsHeaderRE)
	if !digestRE.MatchString(s) {
		t.Errorf("the tags table of %s shows no digests:\n%s", first, frame(s))
	}

	// esc twice: back to the repos table, then to the tree.
	tt.send("Escape")
	tt.waitTable("repos of platform", tableHeaderRE)
	tt.press(func(s string) bool { return onTree(s) && detailsTitle(s) == "repos of platform" },
		"the tree again, on the repos of platform", "Escape")

	// Help, and back.
	tt.press(func(s string) bool { return strings.Contains(s, "Navigation") && strings.Contains(s, "Keys in") },
		"the help overlay", "?")
	tt.press(func(s string) bool { return onTree(s) && !strings.Contains(s, "Navigation") },
		"the help to close", "Escape")

	// Every repo of the organization, then its last row.
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	s = tt.press(func(s string) bool {
		m := infoLineRE.FindStringSubmatch(s)
		return m != nil && m[1] == m[2] && m[1] != "1"
	}, `the last row, "N of N", in the info line`, "G")
	m := infoLineRE.FindStringSubmatch(s)
	t.Logf("info line at the end: %q", m[0])

	tt.send("q")
	if code := tt.waitExit(); code != 0 {
		t.Errorf("canopy exited with status %d, want 0", code)
	}
	tt.assertRestored()
}

func TestDemoSmallTerminal(t *testing.T) {
	t.Parallel()
	const w, h = 80, 24
	tt := startCanopy(t, termOptions{width: w, height: h})
	first := detailsTitle(tt.waitTree())

	steps := []struct {
		name   string
		do     func()
		footer bool // the footer shows the global quit hint here
	}{
		{"tree", func() {}, true},
		{"moved down", func() {
			tt.press(func(s string) bool { d := detailsTitle(s); return d != "" && d != first },
				"the selection to move down", "j")
		}, true},
		{"help", func() {
			tt.press(func(s string) bool { return strings.Contains(s, "Navigation") }, "the help", "?")
		}, false},
		{"tags table", func() {
			tt.press(onTree, "the help to close", "Escape")
			tt.command("tags")
			tt.waitTable("tags of acme.example", tagsHeaderRE)
		}, true},
	}
	for _, st := range steps {
		st.do()
		// -J joins rows the terminal wrapped: a line drawn too wide shows.
		s := tt.screen("-J")
		rows := lines(s)
		if len(rows) != h {
			t.Errorf("%s: %d rows captured, want %d:\n%s", st.name, len(rows), h, frame(s))
		}
		for i, r := range rows {
			if n := ansi.StringWidth(r); n > w {
				t.Errorf("%s: row %d is %d cells wide, more than %d: %q", st.name, i, n, w, r)
			}
		}
		if !strings.HasPrefix(rows[0], "canopy  acme.example") {
			t.Errorf("%s: header row is %q", st.name, rows[0])
		}
		if status := rows[h-1]; !strings.Contains(status, "acme.example") {
			t.Errorf("%s: status row %q does not name acme.example", st.name, status)
		}
		if !st.footer {
			continue
		}
		t.Run(st.name+"/footer", func(t *testing.T) {
			footer := rows[h-2]
			if !regexp.MustCompile(`q/ctrl\+c quit\b`).MatchString(footer) {
				t.Errorf("footer %q lacks \"q/ctrl+c quit\"", footer)
			}
		})
	}
}

// sgrRE matches one SGR escape sequence in `capture-pane -e` output.
var sgrRE = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// sgrUse reports which SGR sequences in s set a color and whether any sets
// reverse video.
func sgrUse(s string) (colors []string, reverse bool) {
	for _, m := range sgrRE.FindAllStringSubmatch(s, -1) {
		ps := strings.Split(m[1], ";")
		for i := 0; i < len(ps); i++ {
			p, _, _ := strings.Cut(ps[i], ":")
			n, _ := strconv.Atoi(p) // "" is 0, a reset
			switch {
			case n == 7:
				reverse = true
			case n == 38 || n == 48 || n == 58:
				colors = append(colors, m[0])
				if i+1 < len(ps) && ps[i+1] == "5" {
					i += 2
				} else if i+1 < len(ps) && ps[i+1] == "2" {
					i += 4
				}
			case n >= 30 && n <= 37, n >= 40 && n <= 47, n >= 90 && n <= 97, n >= 100 && n <= 107:
				colors = append(colors, m[0])
			}
		}
	}
	return colors, reverse
}

func TestDemoNoColor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		env       []string
		wantColor bool
	}{
		{"NO_COLOR=1", []string{"NO_COLOR=1"}, false},
		{"NO_COLOR=true", []string{"NO_COLOR=true"}, false},
		// Bubble Tea takes TERM=dumb for no terminal and would strip every
		// attribute, the selection's reverse video included.
		{"TERM=dumb", []string{"TERM=dumb"}, false},
		{"colors (control)", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tt := startCanopy(t, termOptions{width: 100, height: 30, env: tc.env})
			tt.waitTree()
			check := func(where string) {
				t.Helper()
				s := tt.screen("-e")
				colors, reverse := sgrUse(s)
				switch {
				case tc.wantColor && len(colors) == 0:
					t.Errorf("%s: no color SGR at all; the check would prove nothing:\n%q", where, s)
				case !tc.wantColor && len(colors) > 0:
					t.Errorf("%s: %d color SGR sequences with %s, e.g. %q:\n%q", where, len(colors), tc.name, colors[0], s)
				}
				if !tc.wantColor && !reverse {
					t.Errorf("%s: the selection is not visible: no reverse video (SGR 7):\n%q", where, s)
				}
			}
			check("tree")
			tt.selectInTree("j", "platform", 20)
			check("tree, moved down")
			tt.command("repos")
			tt.waitTable("repos of acme.example", tableHeaderRE)
			check("repos table")
			if tc.wantColor {
				return
			}
			// Deprecated tags are told apart by text and strikethrough.
			tt.send("Escape")
			tt.waitTree()
			tt.command("tags")
			tt.waitTable("tags of acme.example", tagsHeaderRE)
			tt.send("D")
			s := tt.waitText("deprecated")
			check("deprecated tags")
			if e := tt.screen("-e"); !regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?9[;m]`).MatchString(e) {
				t.Errorf("deprecated tags are not struck through:\n%s", frame(s))
			}
		})
	}
}

func TestDemoQuitFromTable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"q", []string{"q"}},
		{"ctrl+c", []string{"C-c"}},
		{"ctrl+c from the command line", []string{":", "C-c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tt := startCanopy(t, termOptions{width: 120, height: 36})
			tt.waitTree()
			tt.command("tags")
			s := tt.waitTable("tags of acme.example", tagsHeaderRE)
			if m := infoLineRE.FindStringSubmatch(s); m[4] == "0" {
				t.Errorf("the tags table has no tags: %q", m[0])
			}
			tt.send(tc.keys...)
			if code := tt.waitExit(); code != 0 {
				t.Errorf("canopy exited with status %d, want 0", code)
			}
			tt.assertRestored()
		})
	}
}

// Esc and the next keys in one write reach the terminal in one read
// (ESC then ':' parses as alt+:): the esc closes the table and the keys
// that follow open another, in order, none lost.
func TestDemoEscapeThenKeysAtOnce(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 120, height: 36})
	tt.waitTree()
	tt.command("tags")
	tt.waitTable("tags of acme.example", tagsHeaderRE)
	tt.send("Escape", ":", "g", "r", "o", "u", "p", "s", "Enter")
	s := tt.waitText("folders of acme.example")
	if strings.Contains(header(s), "tags of") {
		t.Errorf("the escape was lost: %q", header(s))
	}
}
