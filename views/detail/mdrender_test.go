package detail

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// renderedLines renders src at width in the dark look and returns what the
// pane shows, line by line without styles and without the readme's margin
// of two columns; it fails on a note or a line wider than width.
func renderedLines(t *testing.T, src string, width int) []string {
	t.Helper()
	r := RenderMarkdown(t.Context(), src, mdLook("dark"), width, patience)
	if r.Note != "" {
		t.Fatalf("%q: %s", src, r.Note)
	}
	assertInert(t, src, r.Text)
	var out []string
	for _, l := range strings.Split(r.Text, "\n") {
		if w := ansi.StringWidth(l); w > width {
			t.Fatalf("%q: a line %d wide at %d: %q", src, w, width, ansi.Strip(l))
		}
		out = append(out, strings.TrimPrefix(ansi.Strip(l), "  "))
	}
	return out
}

// styledLine is the rendered line of src that shows want, with its styles.
func styledLine(t *testing.T, src, want string) string {
	t.Helper()
	r := RenderMarkdown(t.Context(), src, mdLook("dark"), 80, patience)
	for _, l := range strings.Split(r.Text, "\n") {
		if strings.Contains(ansi.Strip(l), want) {
			return l
		}
	}
	t.Fatalf("%q: no line shows %q:\n%s", src, want, ansi.Strip(r.Text))
	return ""
}

func assertLines(t *testing.T, src string, width int, want ...string) {
	t.Helper()
	if got := strings.Join(renderedLines(t, src, width), "\n"); got != strings.Join(want, "\n") {
		t.Errorf("%q at %d shows:\n%s\nwant:\n%s", src, width, got, strings.Join(want, "\n"))
	}
}

func TestHeadingsAreToldApartByStyle(t *testing.T) {
	src := "# One\n\n## Two\n\n### Three\n\n#### Four\n\n###### Six\n"
	assertLines(t, src, 60, "One", "", "Two", "", "Three", "", "Four", "", "Six")
	md := mdLook("dark")
	for want, paint := range map[string]string{"One": md.Heading1.Pre(), "Two": md.Heading2.Pre(), "Three": md.Heading3.Pre(), "Four": md.Heading4.Pre()} {
		if l := styledLine(t, src, want); !strings.Contains(l, paint+want) {
			t.Errorf("%s is not in its heading's style: %q", want, l)
		}
	}
}

func TestParagraphsWrapToTheWidth(t *testing.T) {
	src := "The quick brown fox jumps over the lazy dog, again and again,\nacross a line break, until the pane ends.\n\nA second paragraph.\n"
	assertLines(t, src, 30,
		"The quick brown fox jumps",
		"over the lazy dog, again and",
		"again, across a line break,",
		"until the pane ends.",
		"",
		"A second paragraph.")
	// A word longer than a line is cut where the line ends; a hard break
	// ends the line.
	assertLines(t, strings.Repeat("x", 30)+"\n", 22, strings.Repeat("x", 20), strings.Repeat("x", 10))
	assertLines(t, "one  \ntwo\\\nthree\n", 40, "one", "two", "three")
}

func TestInlineStylesAreShown(t *testing.T) {
	md := mdLook("dark")
	src := "plain **strong** *emph* ~~struck~~ `code` \\*not emph\\* &amp; &copy;\n"
	assertLines(t, src, 80, "plain strong emph struck code *not emph* & ©")
	l := styledLine(t, src, "plain")
	for word, paint := range map[string]string{"strong": md.Strong.Pre(), "emph": md.Emph.Pre(), "struck": md.Strike.Pre(), "code": md.Code.Pre()} {
		if !strings.Contains(l, paint+word) {
			t.Errorf("%s is not styled %q: %q", word, paint, l)
		}
	}
	// Nested, both styles hold.
	if l := styledLine(t, "***both***\n", "both"); !strings.Contains(l, md.Emph.Pre()+md.Strong.Pre()+"both") && !strings.Contains(l, md.Strong.Pre()+md.Emph.Pre()+"both") {
		t.Errorf("bold italic: %q", l)
	}
}

func TestLinksShowTheirAddressOnce(t *testing.T) {
	assertLines(t, "see [the docs](https://example.com/docs) now\n", 80, "see the docs (https://example.com/docs) now")
	assertLines(t, "[https://example.com](https://example.com)\n", 80, "https://example.com")
	assertLines(t, "<https://example.com/a> and https://example.org/b\n", 80, "https://example.com/a and https://example.org/b")
	assertLines(t, "<me@example.com>\n", 80, "me@example.com")
	assertLines(t, "![the logo](https://example.com/logo.png)\n", 80, "the logo → https://example.com/logo.png")
	assertLines(t, "![](x.png)\n", 80, "image → x.png")
	// Link reference definitions show nothing, and leave no blank lines.
	assertLines(t, "Para one [x][r1].\n\n[r1]: https://r.example/\n[r2]: https://s.example/\n\nPara two.\n", 80,
		"Para one x (https://r.example/).", "", "Para two.")
	assertLines(t, "- [r]: https://r.example/\n- b\n", 80, "•", "• b")
	r := RenderMarkdown(t.Context(), "[a](https://example.com)\n", mdLook("dark"), 80, patience)
	if strings.Contains(r.Text, "\x1b]8") {
		t.Errorf("a link is a terminal hyperlink: %q", r.Text)
	}
}

func TestListsHangTheirText(t *testing.T) {
	assertLines(t, "- one\n- two words that wrap here\n  - nested\n    - deeper\n- [x] done\n- [ ] todo\n", 24,
		"• one",
		"• two words that wrap",
		"  here",
		"  ◦ nested",
		"    ▪ deeper",
		"• ☑ done",
		"• ☐ todo")
	lines := renderedLines(t, "8. first\n"+strings.Repeat("1. item\n", 9), 40)
	if lines[0] != " 8. first" || lines[2] != "10. item" {
		t.Errorf("numbers do not align on their right:\n%s", strings.Join(lines, "\n"))
	}
	// A loose list keeps a blank line between its items.
	assertLines(t, "- a\n\n- b\n", 40, "• a", "", "• b")
}

func TestQuotesHaveABar(t *testing.T) {
	assertLines(t, "> quoted text that wraps\n>\n> > nested\n", 24,
		"│ quoted text that",
		"│ wraps",
		"│",
		"│ │ nested")
}

func TestCodeBlocksLoseNothing(t *testing.T) {
	long := `docker run --rm -it -v "$PWD:/work" registry.example.com/org/tool:1.2.3 --flag`
	src := "```sh\n" + long + "\n  indented\n```\n"
	lines := renderedLines(t, src, 42)
	want := []string{
		`  docker run --rm -it -v "$PWD:/work"`,
		`  ↪ registry.example.com/org/tool:1.2.3`,
		`  ↪ --flag`,
		`    indented`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("code block:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// A token longer than a line is cut where the line ends, and goes on.
	token := strings.Repeat("abcdefghij", 6)
	got := renderedLines(t, "    "+token+"\n", 30)
	if joined := strings.ReplaceAll(strings.ReplaceAll(strings.Join(got, ""), "↪", ""), " ", ""); joined != token {
		t.Errorf("an indented code block lost characters: %q", got)
	}
}

func TestTablesFitThePane(t *testing.T) {
	src := "| Name | Size | Note |\n|:--|--:|:-:|\n| alpine | 5 MB | small |\n| ubuntu | 29 MB | big |\n"
	assertLines(t, src, 60,
		"Name   │  Size │ Note",
		"───────┼───────┼──────",
		"alpine │  5 MB │ small",
		"ubuntu │ 29 MB │  big")
	if l := styledLine(t, src, "Name"); !strings.Contains(l, mdLook("dark").TableHeader.Pre()+"Name") {
		t.Errorf("the header is not styled: %q", l)
	}
	// A long cell wraps in its column; the narrow ones keep their width.
	assertLines(t, "| a | b |\n|---|---|\n| x | one two three four five six |\n", 22,
		"a │ b",
		"──┼─────────────────",
		"x │ one two three",
		"  │ four five six")
	// A table too wide keeps its values whole: fewer columns, each at
	// least as wide as its longest word (up to keptWord), the rest cut.
	var many strings.Builder
	for row := range 3 {
		many.WriteString("|")
		for c := 1; c <= 20; c++ {
			cell := fmt.Sprintf(" value%d |", c)
			switch row {
			case 0:
				cell = fmt.Sprintf(" c%d |", c)
			case 1:
				cell = "---|"
			}
			many.WriteString(cell)
		}
		many.WriteString("\n")
	}
	for _, width := range []int{60, 120, 200} {
		lines := renderedLines(t, many.String(), width)
		for _, l := range lines[2:] {
			for cell := range strings.SplitSeq(strings.TrimSuffix(l, " …"), "│") {
				if c := strings.TrimSpace(cell); !strings.HasPrefix(c, "value") {
					t.Errorf("at %d a value is broken: %q in %q", width, c, l)
				}
			}
		}
	}
	// Columns that cannot fit are cut, and each row says so; wide runes
	// count two columns.
	var wide strings.Builder
	wide.WriteString("|" + strings.Repeat(" 漢字 |", 12) + "\n|" + strings.Repeat("---|", 12) + "\n")
	wide.WriteString("|" + strings.Repeat(" 表 |", 12) + "\n")
	for _, l := range renderedLines(t, wide.String(), 30) {
		if !strings.HasSuffix(l, "…") {
			t.Errorf("a cut row does not say so: %q", l)
		}
	}
}

func TestOtherBlocks(t *testing.T) {
	assertLines(t, "a\n\n---\n\nb\n", 24, "a", "", strings.Repeat("─", 22), "", "b")
	assertLines(t, "Term\n: its meaning\n\nOther\n: another\n", 40, "Term", "  its meaning", "", "Other", "  another")
	// Raw HTML is shown as the text it is; comments, as a browser does,
	// not at all.
	assertLines(t, "<div align=\"center\">\n<b>x</b>\n</div>\n\n<!-- note -->\n\ntext <br> and <!-- hidden --> more\n", 60,
		`<div align="center">`, "<b>x</b>", "</div>", "", "text <br> and  more")
}

// TestEscapesInEveryConstructAreInert puts an escape sequence, raw and as
// a character reference, in every construct: it is shown as markers.
func TestEscapesInEveryConstructAreInert(t *testing.T) {
	for _, esc := range []string{"\x1b]0;PWN\x07", "&#x1b;]0;PWN&#7;", "\x1b[2J", "&#x9b;2J", "\u202e"} {
		for _, src := range []string{
			"# h " + esc, "p " + esc, "*e " + esc + "*", "`c " + esc + "`", "[l " + esc + "](https://x/" + esc + ")",
			"![i " + esc + "](https://x/" + esc + ")", "- " + esc, "1. " + esc, "> " + esc, "```sh\n" + esc + "\n```",
			"    " + esc, "| " + esc + " |\n|---|\n| " + esc + " |", "T " + esc + "\n: d " + esc, "<div>" + esc + "</div>",
			"a <b title=\"" + esc + "\">", "~~" + esc + "~~", "- [x] " + esc,
		} {
			for _, look := range []string{"dark", "notty"} {
				r := RenderMarkdown(t.Context(), src+"\n", mdLook(look), 40, patience)
				assertInert(t, src, r.Text)
				if r.Note != "" {
					t.Errorf("%q: %s", src, r.Note)
				}
			}
		}
	}
}

// TestEveryLineFitsAtEveryWidth renders the sample readme at widths from
// the narrowest the readme is wrapped to (20 columns and its margin) to
// wide: no line is wider than the pane.
func TestEveryLineFitsAtEveryWidth(t *testing.T) {
	src := sampleReadme() + "| " + strings.Repeat("long words in a cell ", 10) + " | 漢字漢字漢字 |\n|---|---|\n| x | y |\n"
	for width := 22; width <= 120; width += 7 {
		renderedLines(t, src, width)
	}
}

// A definition of several paragraphs keeps a blank line between them.
func TestADefinitionOfParagraphs(t *testing.T) {
	assertLines(t, "Term\n: first\n\n  second\n", 40, "Term", "  first", "", "  second")
}
