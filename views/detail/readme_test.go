package detail

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
)

// readmePane is a pane whose repos have the given readmes (or fail with
// err), sized w×h.
func readmePane(t *testing.T, readmes map[string]string, err error, w, h int) *Model {
	t.Helper()
	return readmePaneWithin(t, patience, readmes, err, w, h)
}

// readmePaneWithin is readmePane whose renders have budget.
func readmePaneWithin(t *testing.T, budget time.Duration, readmes map[string]string, err error, w, h int) *Model {
	t.Helper()
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default(), Now: func() time.Time { return now }}
	m := New(t.Context(), common, Fetch{Kind: kindsWith(pageSources{repo: RepoSources{ReadmeBudget: budget,
		Readme: func(_ context.Context, uid string) (string, error) { return readmes[uid], err }}})})
	m.SetSize(w, h)
	return m
}

// lines is what the pane shows, line by line, without styling.
func lines(m *Model) []string { return strings.Split(screen(m), "\n") }

// joined is what the pane shows as one line of words: text wrapped over
// several lines reads as it was.
func joined(m *Model) string { return strings.Join(strings.Fields(screen(m)), " ") }

func TestANestedReadmeIsShownAsPlainText(t *testing.T) {
	readme := strings.Repeat(">", 100) + " x"
	m := readmePane(t, map[string]string{"r": readme}, nil, 70, 30)
	// The note is a limit's, checked before the readme is parsed: it is
	// not rendered, however long that would have taken.
	start := time.Now()
	show(t, m, &api.Repo{UID: "r", Name: "nest"})
	t.Logf("the readme took %s", time.Since(start))
	s := joined(m)
	if !strings.Contains(s, "shown as plain text: nested 100 deep, more than canopy renders") {
		t.Errorf("no note:\n%s", screen(m))
	}
	if !strings.Contains(strings.ReplaceAll(s, " ", ""), readme[:60]) {
		t.Errorf("the readme is not shown:\n%s", screen(m))
	}
}

// TestLeavingARepoStopsItsRender moves across 20 repos whose readmes are
// rendered in several chunks, as fast as the fetches come: each render is stopped
// when the cursor leaves its repo, so only the last one runs. Stopped
// means its context is cancelled before its command runs: nothing else
// cancels it here, so a render that returns nothing was stopped before
// it began, and a render stopped before it begins does no work
// (TestACancelledRenderStopsAtTheNextChunk).
func TestLeavingARepoStopsItsRender(t *testing.T) {
	t.Parallel()
	readmes := map[string]string{}
	for i := range 20 {
		readmes[fmt.Sprintf("r%d", i)] = sampleReadme()
	}
	m := readmePane(t, readmes, nil, 80, 30)
	var renders []tea.Cmd
	for i := range 20 {
		m.Show(&api.Repo{UID: fmt.Sprintf("r%d", i), Name: fmt.Sprintf("repo-%d", i)})
		fetch := m.Update(dueMsg{owner: m, seq: m.seq})
		render := m.Update(run(t, fetch))
		if render == nil {
			t.Fatalf("r%d: no render started", i)
		}
		renders = append(renders, render)
	}
	// Bubble Tea runs each command as it comes; run late, a render the
	// cursor left returns nothing, having done nothing, and is dropped.
	for i, render := range renders[:19] {
		start := time.Now()
		msg := render()
		t.Logf("r%d: the render the cursor left returned in %s", i, time.Since(start))
		if r := msg.(renderedMsg).readme; r != (Readme{}) {
			t.Errorf("r%d: a render the cursor left returned %d bytes", i, len(r.Text))
		}
		if cmd := m.Update(msg); cmd != nil {
			t.Errorf("r%d: a dropped render started another", i)
		}
	}
	if !strings.Contains(screen(m), "rendering") {
		t.Errorf("the last repo's readme is not rendering:\n%s", screen(m))
	}
	settle(t, m, renders[19])
	if s := screen(m); !strings.Contains(s, "Sample") || strings.Contains(s, "rendering") {
		t.Errorf("the last repo's readme is not shown:\n%s", s)
	}
	// Back on a repo whose render was stopped: it renders again.
	render := m.Show(&api.Repo{UID: "r3", Name: "repo-3"})
	if render == nil {
		t.Fatal("a stopped render is not started again")
	}
	settle(t, m, render)
	if s := screen(m); !strings.Contains(s, "Sample") {
		t.Errorf("r3's readme is not shown:\n%s", s)
	}
}

// run runs cmd and returns the one message it (or its batch) gives.
func run(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			if c != nil {
				return c()
			}
		}
	}
	return msg
}

func TestNoRenderStartsForARepoTheCursorLeft(t *testing.T) {
	m := readmePane(t, map[string]string{"a": "# a\n", "b": "# b\n"}, nil, 80, 30)
	m.Show(&api.Repo{UID: "a", Name: "a"})
	fetch := m.Update(dueMsg{owner: m, seq: m.seq})
	m.Show(&api.Repo{UID: "b", Name: "b"})
	if cmd := m.Update(run(t, fetch)); cmd != nil {
		t.Error("the readme of a repo the cursor left is rendered")
	}
}

// A readme that fails to load says why in full, however narrow the pane.
func TestAReadmeErrorWrapsInANarrowPane(t *testing.T) {
	for _, err := range []error{
		errors.New("GET /registry/v2/repos/org/0123456789abcdef/readme: 503 Service Unavailable: the server is overloaded"),
		errors.New("GET readme: " + strings.Repeat("- ", 30) + strings.Repeat("x", 70) + " the end"),
	} {
		m := readmePane(t, nil, err, 30, 40)
		show(t, m, &api.Repo{UID: "r", Name: "nginx"})
		for _, l := range lines(m) {
			if w := ansi.StringWidth(l); w > 30 {
				t.Fatalf("a line %d wide: %q", w, l)
			}
		}
		want := strings.Join(strings.Fields(err.Error()+" (r to retry)"), " ")
		if s := strings.ReplaceAll(joined(m), " ", ""); !strings.Contains(s, strings.ReplaceAll(want, " ", "")) {
			t.Errorf("the error is cut:\n%s", screen(m))
		}
	}
	// So does a note on a readme shown as plain text.
	m := readmePane(t, map[string]string{"r": strings.Repeat("> ", 100) + "x"}, nil, 30, 40)
	show(t, m, &api.Repo{UID: "r", Name: "nginx"})
	if s := joined(m); !strings.Contains(s, "shown as plain text: nested 100 deep, more than canopy renders") {
		t.Errorf("the note is cut:\n%s", screen(m))
	}
}

func TestAHugeReadmeIsCutAndSaysSo(t *testing.T) {
	huge := strings.Repeat("a line of the readme\n", 30_000) // 600 KB
	m := readmePane(t, map[string]string{"r": huge}, nil, 80, 30)
	show(t, m, &api.Repo{UID: "r", Name: "big"})
	s := joined(m)
	for _, want := range []string{"shown as plain text: 512.0 KiB, more than canopy renders",
		"showing the first 512.0 KiB of 615.2 KiB", "a line of the readme"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, screen(m))
		}
	}
	if e := m.cache["r"]; len(e.readme) > MaxReadme {
		t.Errorf("the pane keeps %d bytes of the readme", len(e.readme))
	}
}

// A readme that renders as nothing (an HTML comment) says so, and is not
// rendered again and again.
func TestAReadmeOfNothingIsRenderedOnce(t *testing.T) {
	m := readmePane(t, map[string]string{"r": "<!-- nothing -->\n"}, nil, 80, 30)
	show(t, m, &api.Repo{UID: "r", Name: "r"})
	if s := screen(m); !strings.Contains(s, "(nothing to show)") {
		t.Errorf("an empty rendering:\n%s", s)
	}
	if cmd := m.renderCmd(); cmd != nil {
		t.Error("an empty rendering is rendered again")
	}
}
