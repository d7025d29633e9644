package ui

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

func TestOpensOnTheOrganizationTree(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 30, true)
	s := h.waitText("acme.example", "platform", "identities", "advisories", "libraries")
	if !strings.Contains(s, "details: acme.example") {
		t.Errorf("the detail pane does not show the organization:\n%s", s)
	}
	h.waitFor("the identities total", func(s string) bool { return regexp.MustCompile(`> identities +10 `).MatchString(s) })
	// The feeds show their totals without being expanded.
	h.waitFor("advisory total", func(s string) bool { return regexp.MustCompile(`advisories +\d`).MatchString(s) })
	if st := line(s, "admin (test)"); !strings.Contains(st, "acme.example") || !strings.Contains(st, "test") {
		t.Errorf("status line %q lacks org, host or identity", st)
	}
}

func TestBrowseFolderRepoTagsAndReadme(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.waitText("base-images")
	h.moveTo("repos of platform")
	h.keys("l")
	s := h.waitFor("platform's repos", func(s string) bool { return strings.Contains(s, "alertmanager") })
	_ = s
	h.moveTo("alertmanager")
	// The readme is fetched once the selection rests, rendered as Markdown.
	h.waitText("README", "Prometheus Alertmanager")
	h.keys("l")
	s = h.waitFor("tags with digests", func(s string) bool { return strings.Contains(s, "sha256:") })
	if !regexp.MustCompile(`alertmanager( !)? +(\d+\+? deprecated · )?[\d,/]+ +│`).MatchString(s) {
		t.Errorf("the repo row shows no tag count:\n%s", line(s, "alertmanager"))
	}
	h.keys("j")
	s = h.waitText("IMAGE", "amd64")
	if !regexp.MustCompile(`amd64 +\d+(\.\d)? [KMG]iB`).MatchString(s) {
		t.Errorf("tag detail shows no size per architecture:\n%s", s)
	}
	// h goes to the parent repo, h again collapses it.
	h.keys("h")
	h.waitText("details: alertmanager")
	h.keys("h")
	h.waitFor("tags hidden", func(s string) bool { return !strings.Contains(s, "sha256:") })
}

func TestCollectionOpensAsTableAndJumpsToTheEnd(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 30, true)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("enter")
	s := h.waitText("repos of platform", "NAME", "UPDATED", "loaded")
	if !strings.Contains(s, "canopy  acme.example › repos of platform") {
		t.Errorf("breadcrumb missing:\n%s", line(s, "canopy"))
	}
	h.keys("G")
	h.waitFor("the last row", func(s string) bool { return regexp.MustCompile(`(\d+) of (\d+) ·`).MatchString(s) && lastRow(s) })
	// enter on a repo opens its tags; esc comes back, twice to the tree.
	h.keys("g", "enter")
	h.waitText("tags of ", "TAG", "DIGEST")
	h.keys("esc")
	h.waitText("repos of platform")
	h.keys("esc")
	h.waitText("tree", "details:")
}

// lastRow reports whether the info line says "N of N".
func lastRow(s string) bool {
	m := regexp.MustCompile(`(\d[\d,]*) of (\d[\d,]*) ·`).FindStringSubmatch(s)
	return m != nil && m[1] == m[2]
}

func TestCommandLineOpensOrgWideTables(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 30, true)
	h.waitText("platform")
	h.keys(":")
	h.waitText(":repos", "every repo of the organization")
	h.keys("r", "e", "p", "enter")
	h.waitText("repos of acme.example", "63 loaded")
	h.keys("G")
	h.waitFor("63 of 63", func(s string) bool { return strings.Contains(s, "63 of 63") })
	h.keys(":", "t", "a", "g", "s", "enter")
	h.waitText("tags of acme.example", "REPO")
	h.waitFor("a first page of 200", func(s string) bool { return regexp.MustCompile(`200/[\d,]+ loaded`).MatchString(s) })
	// Repo names arrive in the background and fill the REPO column.
	h.waitFor("repo names", func(s string) bool { return strings.Contains(s, "alertmanager") || strings.Contains(s, "ollama") })
	h.keys(":", "n", "o", "p", "e", "enter")
	h.waitText("unknown command :nope")
}

func TestSortCyclesServerOrder(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 30, true)
	h.waitText("platform")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	s := h.waitText("sort: name ↑", "63/63 loaded")
	first := firstRow(s)
	h.keys("s")
	s = h.waitText("sort: name ↓")
	h.waitFor("descending rows", func(s string) bool { return firstRow(s) != first && firstRow(s) > first })
}

// firstRow is the first cell of the first table row.
func firstRow(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.Contains(l, "NAME") && i+1 < len(lines) {
			return strings.Fields(lines[i+1])[0]
		}
	}
	return ""
}

func TestIdentityDetailShowsBindings(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.waitText("alice")
	h.keys("j")
	h.waitText("details: alice", "ROLE BINDINGS", "issuer", "subject")
	h.waitFor("alice's bindings", func(s string) bool {
		return regexp.MustCompile(`(owner|editor|viewer|registry\.\S+) +on `).MatchString(s)
	})
}

func TestAsksWhichOrganization(t *testing.T) {
	t.Parallel()
	h := start(t, 100, 30, false)
	h.waitText("Which organization?", "acme.example", "globex.example")
	h.keys("g", "l", "o", "b")
	h.waitFor("narrowed", func(s string) bool { return !strings.Contains(s, "acme.example  ") })
	h.keys("enter")
	h.waitText("details: globex.example")
	// :org asks again, and esc keeps the current one.
	h.keys(":", "o", "r", "g", "enter")
	h.waitText("Which organization?")
	h.keys("esc")
	h.waitText("details: globex.example")
}

func TestUnreachableServerSaysSoAndRetries(t *testing.T) {
	t.Parallel()
	client, err := api.New(api.Options{BaseURL: "http://127.0.0.1:1", Retry: api.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, nil, Options{Client: client, Org: "x", Theme: theme.Options{Name: theme.Dark}}, 100, 24)
	s := h.waitText("could not open the organization", "r retries")
	if !strings.Contains(s, "connection refused") {
		t.Errorf("the reason is not shown:\n%s", s)
	}
	h.keys("r")
	h.waitText("connecting to")
	h.waitText("could not open the organization")
}

func TestFitsEightyByTwentyFour(t *testing.T) {
	t.Parallel()
	h := start(t, 80, 24, true)
	h.waitText("platform")
	for _, keys := range [][]string{nil, {"j", "j", "l"}, {":", "t", "a", "g", "s", "enter"}, {"?"}} {
		h.keys(keys...)
		h.settle()
		s := h.m.View().Content
		lines := strings.Split(s, "\n")
		if len(lines) != 24 {
			t.Errorf("after %v: %d lines, want 24", keys, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("after %v: line %d is %d cells wide: %q", keys, i, w, ansi.Strip(l))
			}
		}
	}
}

func TestHelpFollowsTheKeymap(t *testing.T) {
	t.Parallel()
	// Tall enough for the help's first screen to reach its Global keys.
	h := start(t, 120, 70, true)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("base-images")
	h.keys("j")
	h.moveTo("repos of platform")
	h.keys("l")
	h.waitText("alertmanager")
	h.moveTo("alertmanager")
	h.keys("l")
	h.waitText("sha256:")
	h.keys("j")
	// On a tag, expand is listed but disabled, with its reason in the help.
	h.keys("?")
	s := h.waitText("Keys in acme.example", "Navigation", "Global")
	if !strings.Contains(s, "a tag has no children") {
		t.Errorf("help does not explain the disabled key:\n%s", s)
	}
	h.keys("esc")
	h.waitText("details:")
	// Pressing the disabled key says why in the status line.
	h.keys("l")
	h.waitText("a tag has no children")
}

func TestQuitKeys(t *testing.T) {
	t.Parallel()
	h := start(t, 100, 30, true)
	h.waitText("platform")
	_, cmd := h.m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q returned no command")
	}
	if _, ok := runAll(cmd).(tea.QuitMsg); !ok {
		t.Error("q does not quit")
	}
	// In the command line, q is a letter; ctrl+c still quits.
	h.keys(":")
	h.keys("q")
	if !strings.Contains(h.screen(), ":q") {
		t.Errorf("q was not typed into the command line:\n%s", h.screen())
	}
	_, cmd = h.m.Update(keyMsg("ctrl+c"))
	if _, ok := runAll(cmd).(tea.QuitMsg); !ok {
		t.Error("ctrl+c does not quit from the command line")
	}
}

// runAll runs a command, and every command of a batch, at once, and
// returns the first QuitMsg any of them gives; nil once all have ended
// without one. A timer among them (a flash) is waited for: no clock decides
// that a command that has not answered yet never will.
func runAll(cmd tea.Cmd) tea.Msg {
	msgs := make(chan tea.Msg)
	var running sync.WaitGroup
	var start func(tea.Cmd)
	start = func(c tea.Cmd) {
		if c == nil {
			return
		}
		running.Add(1)
		go func() {
			defer running.Done()
			msg := c()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					start(c)
				}
				return
			}
			msgs <- msg
		}()
	}
	start(cmd)
	go func() { running.Wait(); close(msgs) }()
	var quit tea.Msg
	for msg := range msgs {
		if _, ok := msg.(tea.QuitMsg); ok && quit == nil {
			quit = msg
			go func() { // the rest end in their own time
				for range msgs {
				}
			}()
			break
		}
	}
	return quit
}

func TestLeavingAScreenCancelsItsRequests(t *testing.T) {
	t.Parallel()
	h := start(t, 100, 30, true)
	h.waitText("platform")
	h.keys(":", "t", "a", "g", "s", "enter")
	h.waitText("tags of acme.example")
	top := h.m.stack[len(h.m.stack)-1]
	if top.ctx.Err() != nil {
		t.Fatal("an open table's context is already done")
	}
	h.keys("esc")
	h.waitFor("the tree again", func(string) bool { return len(h.m.stack) == 1 })
	if top.ctx.Err() == nil {
		t.Fatal("closing the table did not cancel its requests")
	}
	if root := h.m.stack[0]; root.ctx.Err() != nil {
		t.Fatal("closing the table cancelled the explorer's requests")
	}
}

func TestCopyPullReference(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 30, true)
	h.waitText("platform")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	h.waitText("63/63 loaded")
	h.keys("enter")
	h.waitText("tags of alertmanager", "loaded")
	h.keys("Y")
	h.waitFor("the clipboard", func(string) bool { return h.clipboard != "" })
	if !regexp.MustCompile(`^cgr\.dev/acme\.example/alertmanager:[\w.-]+@sha256:[0-9a-f]{64}$`).MatchString(h.clipboard) {
		t.Errorf("clipboard %q, want cgr.dev/<org>/<repo>:<tag>@<digest>", h.clipboard)
	}
	h.waitText("copied pull reference cgr.dev/acme.example/alertmanager:")
	// A tag's page names its repo and its pull reference; Y copies it there too.
	ref := h.clipboard
	h.clipboard = ""
	h.keys("enter")
	s := h.waitText("repo          alertmanager", "pull          cgr.dev/acme.example/alertmanager:", "IMAGE")
	if !strings.Contains(s, "Y copy ref") && !strings.Contains(s, "copy ref") {
		t.Errorf("the page's keys do not offer Y:\n%s", s)
	}
	h.keys("Y")
	h.waitFor("the clipboard", func(string) bool { return h.clipboard != "" })
	if h.clipboard != ref {
		t.Errorf("Y on the tag's page copied %q, want %q", h.clipboard, ref)
	}
	// a lists every advisory the page counts, its versioned packages' too.
	h.waitText("ADVISORIES FOR")
	m := regexp.MustCompile(`ADVISORIES FOR [A-Z<>, -]+ \((\d+)\)`).FindStringSubmatch(h.screen())
	if m == nil {
		t.Fatalf("no advisories heading:\n%s", h.screen())
	}
	h.keys("a")
	h.waitText("advisories of alertmanager", m[1]+"/"+m[1]+" loaded")
}

func TestOrgByName(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	h := startWith(t, srv, Options{Client: client, Org: "globex.example", Theme: theme.Options{Name: theme.Dark}}, 100, 30)
	h.waitText("details: globex.example")
	h = startWith(t, srv, Options{Client: client, Org: "initech", Theme: theme.Options{Name: theme.Dark}}, 100, 30)
	h.waitText(`no organization or folder named "initech"`)
}

// TestEscThenANewTableClosesTheOldOne: the close of the first table may
// arrive after the second opened; it closes the first, never the second.
func TestEscThenANewTableClosesTheOldOne(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 30, true)
	h.waitText("platform")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("esc", ":", "t", "a", "g", "s", "enter")
	h.waitFor("the tree and the tags table, nothing else", func(s string) bool {
		return strings.Contains(s, "tags of acme.example") && len(h.m.stack) == 2
	})
	h.keys("esc")
	h.waitFor("the tree", func(s string) bool { return strings.Contains(s, "details: ") })
}

// A readme rendered for the pane's width is rendered again when the
// terminal grows, its paragraphs as wide as the new pane.
func TestReadmeFollowsAResize(t *testing.T) {
	t.Parallel()
	h := start(t, 100, 40, true)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("l")
	h.waitText("alertmanager")
	h.moveTo("alertmanager")
	// One line of a paragraph at 200 columns, wrapped at 100.
	const wide = "rebuilt nightly from source, with a signed SBOM and provenance for every image"
	if narrow := h.waitText("README", "Prometheus Alertmanager", "Minimal and"); strings.Contains(narrow, wide) {
		t.Fatalf("the paragraph is not wrapped at 100 columns:\n%s", narrow)
	}
	h.send(tea.WindowSizeMsg{Width: 200, Height: 40})
	h.waitText(wide)
}
