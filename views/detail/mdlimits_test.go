package detail

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"canopy/api"
)

// blowUps are readmes of a hundred bytes to a few KB that cost glamour,
// which rendered readmes before, exponential or quadratic time and memory
// (`>` × 100 grew past 3 GB in a minute), each with the note that says
// which limit it passes: nesting and columns still cost every line written. They are
// also the seeds of FuzzRenderMarkdown (testdata/fuzz).
var blowUps = []struct{ name, readme, note string }{
	{"quotes", strings.Repeat(">", 100) + " x", "nested 100 deep"},
	{"quotes spaced", strings.Repeat("> ", 100) + "x", "nested 100 deep"},
	{"list markers", strings.Repeat("- ", 2000) + "x", "nested 2,000 deep"},
	{"ordered markers", strings.Repeat("1. ", 1300) + "x", "nested 1,300 deep"},
	{"quotes in lists", strings.Repeat("> - ", 1000) + "x", "nested 2,000 deep"},
	{"indented list", indentedList(40), "nested 40 deep"},
	{"quotes 20 deep", strings.Repeat(">", 20) + " x\n", "nested 20 deep"},
	{"emphasis", strings.Repeat("*", 2000) + "x" + strings.Repeat("*", 2000), "emphasis and links nested over 16 deep"},
	{"emphasis words", strings.Repeat("*a ", 600) + "x" + strings.Repeat(" b*", 600), "emphasis and links nested over 16 deep"},
	{"table columns", "|" + strings.Repeat(" a |", 500) + "\n|" + strings.Repeat("-|", 500) + "\n", "a table 500 columns wide"},
}

// indentedList is a list nested depth deep by indentation.
func indentedList(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return b.String()
}

func TestBlowUpsAreShownAsPlainText(t *testing.T) {
	t.Parallel()
	for _, c := range blowUps {
		t.Run(c.name, func(t *testing.T) {
			// The note is a limit's, checked before anything is
			// rendered: the time it took is only logged.
			start := time.Now()
			r := RenderMarkdown(t.Context(), c.readme, mdLook("dark"), 80, patience)
			t.Logf("took %s", time.Since(start))
			want := "shown as plain text: " + c.note + ", more than canopy renders"
			if r.Note != want {
				t.Errorf("note %q, want %q", r.Note, want)
			}
			assertInert(t, c.readme, r.Text)
			// The text is all there, wrapped to the width, not styled.
			plain := strings.Join(strings.Fields(r.Text), "")
			if plain != strings.Join(strings.Fields(c.readme), "") {
				t.Errorf("the plain text is not the readme:\n%.300s", r.Text)
			}
			for _, l := range strings.Split(r.Text, "\n") {
				if w := ansi.StringWidth(l); w > 80 {
					t.Fatalf("a line %d wide: %q", w, l)
				}
			}
		})
	}
}

func TestNestingAllowedShrinksWithTheWidth(t *testing.T) {
	quotes := strings.Repeat(">", 6) + " deep\n"
	if r := RenderMarkdown(t.Context(), quotes, mdLook("dark"), 80, patience); r.Note != "" || !strings.Contains(ansi.Strip(r.Text), "│ │ │ │ │ │ deep") {
		t.Errorf("6 deep at 80 columns is not rendered: %q\n%s", r.Note, ansi.Strip(r.Text))
	}
	r := RenderMarkdown(t.Context(), quotes, mdLook("dark"), 22, patience)
	if r.Note != "shown as plain text: nested 6 deep, more than canopy renders at this width" {
		t.Errorf("6 deep at 22 columns: %q", r.Note)
	}
	if !strings.Contains(r.Text, ">>>>>> deep") {
		t.Errorf("the plain text: %q", r.Text)
	}
}

func TestLargeReadmesAreShownAsPlainText(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("word ", maxRenderBytes/5+1)
	r := RenderMarkdown(t.Context(), big, mdLook("dark"), 60, patience)
	if r.Note != "shown as plain text: 128.0 KiB, more than canopy renders" {
		t.Errorf("note %q", r.Note)
	}
	// Markers take more bytes than what they replace.
	controls := strings.Repeat("\x1b", maxRenderBytes/2)
	if r := RenderMarkdown(t.Context(), controls, mdLook("dark"), 60, patience); !strings.Contains(r.Note, "made safe, more than canopy renders") {
		t.Errorf("note %q", r.Note)
	}
	// A readme that renders as more than maxOutput: 42,000 lines, each
	// after eight quote bars.
	deep := "> > > > > > > > x\\\n" + strings.Repeat("x\\\n", 42_000)
	if r := RenderMarkdown(t.Context(), deep, mdLook("dark"), 60, patience); r.Note != "shown as plain text: over 8.0 MiB rendered, more than canopy renders" {
		t.Errorf("note %q", r.Note)
	}
}

func TestScanDepthNeverCountsTooFew(t *testing.T) {
	// The nesting goldmark finds, and the most scanDepth may say.
	for _, c := range []struct {
		src           string
		depth, atMost int
	}{
		{"plain text\n", 0, 0},
		{"> quote\n", 1, 1},
		{"> > > x\n", 3, 3},
		{">>> x\n", 3, 3},
		{"- a\n  - b\n    - c\n", 3, 3},
		{"1. a\n   1. b\n", 2, 2},
		{"- a\n    - b\n", 2, 3}, // four columns a level
		{"> - a\n>   - b\n", 3, 3},
		{"\t- a\n", 0, 3}, // indented code
		{"-not a marker\n", 0, 0},
		{"2024. a year\n", 1, 1},
		{"12345678901. too long\n", 0, 0},
		{"- - - x\n", 3, 3},
		{"* * *\n", 0, 3}, // a thematic break
	} {
		if got := scanDepth(c.src); got < c.depth || got > c.atMost {
			t.Errorf("scanDepth(%q) = %d, want %d to %d", c.src, got, c.depth, c.atMost)
		}
	}
}

// sampleReadme is a readme of every kind of block, a hundred and more.
func sampleReadme() string {
	var b strings.Builder
	b.WriteString("# Sample\n\nIntro with **bold**, *italic*, `code` and a [link](https://example.com).\n\n")
	for i := range 24 {
		fmt.Fprintf(&b, "## Section %d\n\nA paragraph of text that is long enough to wrap at least once in a pane of eighty columns, %d.\n\n", i, i)
		fmt.Fprintf(&b, "- item one\n- item two\n  - nested\n\n> a quote %d\n\n```go\nfunc f%d() {}\n```\n\n| a | b |\n|---|---|\n| %d | x |\n\n", i, i, i)
	}
	return b.String()
}

// countingCtx is a context whose Err turns Canceled after it was asked n
// times: the render checks it before each chunk.
type countingCtx struct {
	context.Context
	asked, n int
}

func (c *countingCtx) Err() error {
	if c.asked++; c.asked > c.n {
		return context.Canceled
	}
	return nil
}

func TestACancelledRenderStopsAtTheNextBlock(t *testing.T) {
	t.Parallel()
	src := sampleReadme()
	whole := RenderMarkdown(t.Context(), src, mdLook("dark"), 80, patience)
	if !strings.Contains(ansi.Strip(whole.Text), "Section 23") {
		t.Fatalf("the sample is not rendered whole:\n%s", whole.Text)
	}
	// Asked before each block, once it is cancelled the render stops.
	ctx := &countingCtx{Context: t.Context(), n: 5}
	out, err := renderChecked(ctx, src, mdLook("dark"), 78)
	if !errors.Is(err, context.Canceled) || out != "" {
		t.Errorf("a cancelled render returned %q, %v", out, err)
	}
	if ctx.asked != 6 {
		t.Errorf("the context was asked %d times, want 6: the render did not stop at the next block", ctx.asked)
	}
	// Cancelled before it starts, nothing is done: the context is asked
	// once, first, and never again.
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if r := RenderMarkdown(cancelled, src, mdLook("dark"), 80, patience); r != (Readme{}) {
		t.Errorf("a render cancelled beforehand returned %q", r.Note)
	}
	before := &countingCtx{Context: t.Context(), n: 0}
	if r := RenderMarkdown(before, src, mdLook("dark"), 80, patience); r != (Readme{}) || before.asked != 1 {
		t.Errorf("a render cancelled beforehand returned %q, asking its context %d times, want once", r.Note, before.asked)
	}
}

// TestARenderOverItsBudgetIsShownAsPlainText gives a render a budget of
// 1 ns, which every render outlives (by the clock, whether or not the
// deadline's timer has fired): the readme is shown as plain text with a
// note naming the budget. A pane's renders get its repo page's ReadmeBudget,
// and no budget is DefaultRenderBudget.
func TestARenderOverItsBudgetIsShownAsPlainText(t *testing.T) {
	for _, src := range []string{"# x\n", sampleReadme()} {
		r := RenderMarkdown(t.Context(), src, mdLook("dark"), 80, time.Nanosecond)
		if r.Note != "shown as plain text: rendering took over 1ns" {
			t.Errorf("a render over its budget: note %q", r.Note)
		}
		if got, want := strings.Join(strings.Fields(r.Text), ""), strings.Join(strings.Fields(src), ""); got != want {
			t.Errorf("the plain text is not the readme:\n%.300s", r.Text)
		}
	}
	m := readmePaneWithin(t, time.Nanosecond, map[string]string{"r": "# x\n"}, nil, 80, 30)
	show(t, m, &api.Repo{UID: "r", Name: "r"})
	if s := joined(m); !strings.Contains(s, "shown as plain text: rendering took over 1ns") {
		t.Errorf("the pane's budget is not the render's:\n%s", screen(m))
	}
	if budgetOr(0) != DefaultRenderBudget || budgetOr(time.Second) != time.Second {
		t.Errorf("budgetOr(0) = %s, budgetOr(1s) = %s", budgetOr(0), budgetOr(time.Second))
	}
}

// Lists numbered in the billions, nested as deep as the width allows
// otherwise, leave no room for their text: shown as plain text, and no
// line is wider than the pane.
func TestLongListNumbersNestedAreShownAsPlainText(t *testing.T) {
	var src strings.Builder
	for i := range 6 {
		src.WriteString(strings.Repeat(" ", 11*i) + "123456789. x\n\n")
	}
	r := RenderMarkdown(t.Context(), src.String(), mdLook("dark"), 60, patience)
	if r.Note != "shown as plain text: nested 6 deep, more than canopy renders at this width" {
		t.Errorf("note %q", r.Note)
	}
	for _, l := range strings.Split(r.Text, "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Fatalf("a line %d wide: %q", w, l)
		}
	}
}
