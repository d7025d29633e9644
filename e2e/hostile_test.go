package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"canopy/safe"
)

// assertInertScreen checks that the pane holds no raw control, format,
// bidi or other invisible character (every one must show as a marker) and
// that nothing reached tmux's clipboard buffers but what the copy keys put
// there, each of the shape of a uid, digest or pull reference.
func (tt *tmuxTerm) assertInertScreen(where string) {
	tt.t.Helper()
	for i, row := range lines(tt.screen()) {
		if safe.String(row) != row {
			tt.t.Errorf("%s: row %d holds raw unsafe characters: %q", where, i, row)
		}
	}
	for _, b := range tt.buffers() {
		if !inertClip.MatchString(b) {
			tt.t.Errorf("%s: the clipboard holds %q", where, b)
		}
	}
}

// inertClip is what canopy may put on the clipboard: a uid, a digest or a
// pull reference.
var inertClip = regexp.MustCompile(`^(?:[0-9a-f]+(?:/[0-9a-f]+)*|sha256:[0-9a-f]{64}|cgr\.dev/[a-z0-9._-]+/[a-z0-9._/-]+:[A-Za-z0-9_][A-Za-z0-9._-]*@sha256:[0-9a-f]{64})$`)

// buffers are the contents of tmux's paste buffers, newest first.
func (tt *tmuxTerm) buffers() []string {
	tt.t.Helper()
	names, err := tt.tmux("list-buffers", "-F", "#{buffer_name}")
	if err != nil {
		return nil // no buffer yet
	}
	var out []string
	for _, name := range strings.Fields(names) {
		b, err := tt.tmux("show-buffer", "-b", name)
		if err != nil {
			tt.t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// statusLineRE is the status bar: org · host · identity, on the last row.
var statusLineRE = regexp.MustCompile(`^ acme\.example · demo emulator \S+ · admin \(demo\)`)

// assertIntact checks what hostile text could break: canopy still runs,
// the window and pane titles are what they were, every row fits the width
// (-J joins rows the terminal wrapped), the header is on the first row and
// the status bar on the last, and the tree's pane rule is one straight
// column.
func (tt *tmuxTerm) assertIntact(where string, titles map[string]string) {
	tt.t.Helper()
	now := tt.paneFlags("pane_dead", "pane_title", "window_name")
	if now["pane_dead"] != "0" {
		tt.t.Fatalf("%s: canopy died; screen:\n%s", where, frame(tt.screen()))
	}
	for _, k := range []string{"pane_title", "window_name"} {
		if now[k] != titles[k] || strings.Contains(now[k], "pwned") {
			tt.t.Errorf("%s: #{%s} changed from %q to %q", where, k, titles[k], now[k])
		}
	}
	s := tt.screen("-J")
	rows := lines(s)
	if len(rows) != tt.height {
		tt.t.Errorf("%s: %d rows, want %d:\n%s", where, len(rows), tt.height, frame(s))
	}
	for i, r := range rows {
		if n := ansi.StringWidth(r); n > tt.width {
			tt.t.Errorf("%s: row %d is %d cells wide on a %d-cell screen: %q", where, i, n, tt.width, r)
		}
	}
	if !strings.HasPrefix(rows[0], "canopy  acme.example") {
		tt.t.Errorf("%s: the header is not on the first row:\n%s", where, frame(s))
	}
	if !statusLineRE.MatchString(rows[len(rows)-1]) {
		tt.t.Errorf("%s: the status bar is not on the last row:\n%s", where, frame(s))
	}
	tt.assertInertScreen(where)
	if onTree(s) {
		col := -1
		for i, r := range rows[1 : len(rows)-2] {
			at := ansi.StringWidth(r[:max(0, strings.Index(r, paneRule))])
			if !strings.Contains(r, paneRule) || col >= 0 && at != col {
				tt.t.Errorf("%s: the pane rule is broken on row %d:\n%s", where, i+1, frame(s))
				break
			}
			col = at
		}
	}
}

// TestDemoHostile browses `canopy demo --hostile`: names, descriptions,
// readmes and advisories full of escape sequences, controls, bidi and wide
// text are shown as inert markers, and the terminal is left as it was.
func TestDemoHostile(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 120, height: 36, args: []string{"demo", "--hostile"}})
	s := tt.waitTree()
	// canopy names the window itself; hostile text must not rename it.
	titles := tt.paneFlags("pane_title", "window_name")
	if titles["pane_title"] != "canopy" {
		t.Errorf("the pane title is %q, want canopy's own", titles["pane_title"])
	}
	if !strings.Contains(s, "␛]0;pwned␇") {
		t.Errorf("the organization's hostile description is not shown as markers:\n%s", frame(s))
	}
	tt.assertIntact("tree", titles)

	tt.selectInTree("j", "hostile", 20)
	tt.press(func(s string) bool { return treeHas(s, regexp.MustCompile(`^\s+v hostile$`)) }, "hostile expanded", "l")
	tt.assertIntact("hostile folder", titles)
	tt.selectInTree("j", "repos of hostile", 10)
	tt.press(func(s string) bool { return treeHas(s, regexp.MustCompile(`^\s+> escapes$`)) }, "the hostile repos", "l")
	tt.selectInTree("j", "escapes", 10)
	tt.waitFor(func(s string) bool { return strings.Contains(strings.Join(detailRows(s), "\n"), "␛[2J") },
		"the readme of escapes with its escape sequences shown")
	tt.assertIntact("readme", titles)
	tt.selectInTree("j", "wide-combining", 10)
	tt.waitText("漢字テスト")
	tt.assertIntact("wide readme", titles)

	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.assertIntact("repos table", titles)
	tt.send("Escape")
	tt.waitTree()

	tt.command("advisories")
	tt.waitFor(func(s string) bool {
		return strings.HasSuffix(header(s), "› advisories") && infoLineRE.MatchString(s)
	},
		"the advisories table")
	tt.assertIntact("advisories table", titles)
	tt.send("/")
	tt.typeText("pwned")
	// The unfiltered table shows the hostile rows too: wait for the
	// filter's own count before keeping it and opening the first match.
	filtered := regexp.MustCompile(`(?m)^/pwned\b.* \d[\d,]*/\d[\d,]*\b`)
	tt.waitFor(func(s string) bool {
		return strings.Contains(s, "hostile␛]0;pwned") && filtered.MatchString(s)
	}, "the hostile advisories, filtered")
	tt.send("Enter")
	tt.waitText("(/ edits, esc clears)")
	tt.send("Enter")
	tt.waitFor(func(s string) bool { return strings.Contains(s, "SEVERITIES") }, "an advisory's page")
	tt.assertIntact("advisory page", titles)

	tt.send("q")
	if code := tt.waitExit(); code != 0 {
		t.Errorf("canopy exited with status %d, want 0", code)
	}
	tt.assertRestored()
	if now := tt.paneFlags("pane_title", "window_name"); strings.Contains(now["pane_title"]+now["window_name"], "pwned") {
		t.Errorf("after exit the titles are %v", now)
	}
}

// TestDemoFlakyServer browses and pages `canopy demo --fail-rate 0.2
// --latency 200ms`: one request in five is refused (503 or 429 with
// Retry-After), and canopy retries reads until the tree, a table and its
// last page arrive, answering keys all along.
func TestDemoFlakyServer(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 120, height: 36, args: []string{"demo", "--fail-rate", "0.2", "--latency", "200ms"}})
	tt.waitFor(func(s string) bool { return onTree(s) && strings.Contains(s, "platform") }, "the tree, through failures")
	tt.selectInTree("j", "platform", 20)
	tt.press(func(s string) bool { return treeHas(s, regexp.MustCompile(`^\s+v platform$`)) }, "platform expanded", "l")
	tt.command("tags")
	tt.waitTable("tags of acme.example", tagsHeaderRE)
	// Page down through several pages: each step must move the cursor (the
	// screen answers) whatever the server does.
	for range 6 {
		before := infoLineRE.FindStringSubmatch(tt.screen())
		tt.press(func(s string) bool {
			m := infoLineRE.FindStringSubmatch(s)
			return m != nil && before != nil && m[1] != before[1]
		}, "the cursor to move a page down", "PageDown")
	}
	s := tt.press(func(s string) bool {
		m := infoLineRE.FindStringSubmatch(s)
		return m != nil && m[1] == m[2] || strings.Contains(s, "r to retry")
	}, "the last row, or a page that failed after retries", "G")
	if strings.Contains(s, "r to retry") {
		// A page failed every attempt: r asks again.
		tt.press(func(s string) bool { return !strings.Contains(s, "r to retry") }, "the failed page to be retried", "r")
	}
	if now := tt.paneFlags("pane_dead"); now["pane_dead"] != "0" {
		t.Fatalf("canopy died:\n%s", frame(tt.screen()))
	}
	tt.send("q")
	if code := tt.waitExit(); code != 0 {
		t.Errorf("canopy exited with status %d, want 0", code)
	}
	tt.assertRestored()
}
