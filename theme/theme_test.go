package theme

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// colorSGR matches SGR parameters that set a color.
var colorSGR = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])[;m]`)

func TestMonoSetsNoColorButKeepsSelectionVisible(t *testing.T) {
	for _, o := range []Options{{Name: Mono}, {Name: Dark, NoColor: true}, {Name: HighContrast, NoColor: true}} {
		th := New(o)
		for name, s := range map[string]string{
			"selected": th.Selected.Render("row"), "error": th.Bad.Render("x"), "deprecated": th.Deprecated.Render("t"),
			"accent": th.Accent.Render("a"), "hint": th.HintKey.Render("q"),
		} {
			if colorSGR.MatchString(s) {
				t.Errorf("%+v: %s style sets a color: %q", o, name, s)
			}
		}
		if th.Selected.Render("row") == "row" {
			t.Errorf("%+v: selection has no attribute", o)
		}
		if th.Deprecated.Render("t") == th.Row.Render("t") {
			t.Errorf("%+v: deprecated looks like a plain row", o)
		}
		for _, p := range markdownPaints(th.Markdown) {
			if colorSGR.MatchString(p.Pre()) {
				t.Errorf("%+v: a readme paint sets a color: %q", o, p.Pre())
			}
		}
		if md := th.Markdown; md.Heading1 == md.Heading2 || md.Heading2 == md.Heading3 || md.Heading3 == md.Heading4 || md.Link == md.Text {
			t.Errorf("%+v: readme headings or links look alike: %+v", o, md)
		}
	}
}

func TestPalettes(t *testing.T) {
	for _, name := range Names() {
		th := New(Options{Name: name, Dark: true})
		if th.Selected.Render("x") == "x" {
			t.Errorf("%s: no selection style", name)
		}
	}
	if New(Options{Name: Light}).Dark || !New(Options{Name: Dark}).Dark {
		t.Error("light/dark names ignored")
	}
	if New(Options{Name: Auto, Dark: false}).Markdown.Text != New(Options{Name: Light}).Markdown.Text {
		t.Error("auto on a light background is not light")
	}
	if m := New(Options{ASCII: true}).Markdown; m.QuoteBar != "|" || m.Bullets[0] != "*" || m.Checked != "[x]" {
		t.Errorf("ASCII readme glyphs: %+v", m)
	}
	if g := New(Options{Icons: true}).Glyphs; g.Expanded != "▾" {
		t.Error("icons not used")
	}
	for _, s := range []string{ASCIIGlyphs().Expanded, ASCIIGlyphs().Collapsed, ASCIIGlyphs().Mark, PlainGlyphs().Ellipsis} {
		for _, r := range s {
			if r > 127 {
				t.Errorf("default glyph %q is not ASCII", s)
			}
		}
	}
}

func TestPaintMatchesTheStyle(t *testing.T) {
	for _, o := range []Options{{Name: Dark}, {Name: Mono}} {
		th := New(o)
		for _, st := range []struct {
			name string
			p    Paint
			want string
		}{
			{"selected", PaintOf(th.Selected), th.Selected.Render("a row")},
			{"row", PaintOf(th.Row), th.Row.Render("a row")},
		} {
			if got := st.p.Render("a row"); got != st.want {
				t.Errorf("%+v %s: paint %q, style %q", o, st.name, got, st.want)
			}
		}
		// Strikethrough: one sequence around the whole text, the same look.
		if got := PaintOf(th.Deprecated).Render("1.2.3"); !strings.Contains(got, "1.2.3") || !strings.Contains(got, "9") {
			t.Errorf("%+v: deprecated paint %q", o, got)
		}
	}
}

// TestASCIIForTerminalsWithoutUnicode: with ASCII, every glyph and the
// frame's punctuation are ASCII, overlays have ASCII borders, and a frame
// drawn with Unicode punctuation keeps its width.
func TestASCIIForTerminalsWithoutUnicode(t *testing.T) {
	for _, opts := range []Options{{ASCII: true}, {ASCII: true, Icons: true}, {ASCII: true, NoColor: true}} {
		th := New(opts)
		g := th.Glyphs
		all := append([]string{g.Expanded, g.Collapsed, g.Leaf, g.Loading, g.Failed, g.More, g.Fewer, g.Mark, g.Deprecated,
			g.SortAsc, g.SortDesc, g.Ellipsis, g.Rule, g.Dot, g.Left, g.Right, g.Up, g.Down, g.Half}, g.Spinner...)
		for _, s := range append(all, th.Overlay.Render("help")) {
			for _, r := range ansi.Strip(s) {
				if r > 0x7f {
					t.Errorf("%+v: %q is not ASCII", opts, s)
					break
				}
			}
		}
	}
	// A UTF-8 terminal keeps today's look.
	if g := New(Options{}).Glyphs; g.Rule != "│" || g.Dot != "·" || g.Up != "↑" || g.Expanded != "v" {
		t.Errorf("default glyphs changed: %+v", g)
	}
	frame := "canopy › repos │ name ↑ · 3/10 … ╭─╮ •\n漢字 ␛]0;x"
	got := ASCIIFrame(frame)
	if want := "canopy > repos | name ^ - 3/10 ~ +-+ *\n漢字 ␛]0;x"; got != want {
		t.Errorf("ASCIIFrame = %q, want %q", got, want)
	}
	if ansi.StringWidth(got) != ansi.StringWidth(frame) {
		t.Errorf("width changed: %d → %d", ansi.StringWidth(frame), ansi.StringWidth(got))
	}
	plain := "all ascii"
	if n := testing.AllocsPerRun(10, func() { _ = ASCIIFrame(plain) }); n != 0 {
		t.Errorf("an ASCII frame allocates %v times", n)
	}
}

// markdownPaints are every paint of a readme's look.
func markdownPaints(m Markdown) []Paint {
	return []Paint{m.Text, m.Heading1, m.Heading2, m.Heading3, m.Heading4, m.Emph, m.Strong, m.Strike, m.Code,
		m.Link, m.URL, m.Image, m.HTML, m.Quote, m.Marker, m.Rule, m.Term, m.TableHeader, m.TableBorder,
		m.CodeBlock, m.CodeComment, m.CodeString, m.CodeNumber, m.CodeKeyword, m.CodeCont}
}
