package detail

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"canopy/safe"
	"canopy/theme"
)

// sgr is an SGR sequence: colours and attributes.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// mdLook is a theme's look of readmes: "dark", "light", or "notty" (no
// colour).
func mdLook(name string) theme.Markdown {
	switch name {
	case "light":
		return theme.New(theme.Options{Name: theme.Light}).Markdown
	case "notty":
		return theme.New(theme.Options{Name: theme.Mono}).Markdown
	}
	return theme.New(theme.Options{Name: theme.Dark}).Markdown
}

// hostileReadmes put HTML character references that decode to escape
// sequences, bidi and zero-width characters where Markdown renders text: a
// heading, a paragraph, an image alt, a code span, inline HTML, a table, a
// code block, a link.
var hostileReadmes = []string{
	"# Title &#x1b;]0;PWNED&#x7;\n",
	"clip &#x1b;]52;c;cHduZWQ=&#7; done\n",
	"![alt &#x202e;txt.exe](x.png)\n",
	"`co&#x200b;de &#27;[2J`\n",
	"<span>&#x1b;[2J</span>\n",
	"| a&#x1b;[31m | b&#8238; |\n|---|---|\n| &#x9b;31m | &ZeroWidthSpace; |\n",
	"```\n&#x1b;]0;x&#x07;\n```\n",
	"[see &#x1b;]8;;https://evil.example&#x1b;\\here&#x1b;]8;;&#x1b;\\](https://example.com)\n",
	"named: a&zwj;b &lrm; &shy; &NoBreak; &#x34f; &#xfe0f;x\n",
	"raw \x1b]0;PWNED\x07 and \u202e and \u009b2J\n",
}

// assertInert fails if out holds anything but SGR sequences, newlines and
// text that safe.String leaves as it is: no other escape sequence, no
// C0/C1 control, no format (bidi, zero-width) or other invisible character.
func assertInert(t testing.TB, in, out string) {
	t.Helper()
	plain := sgr.ReplaceAllString(out, "")
	for i, line := range strings.Split(plain, "\n") {
		for _, r := range line {
			if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) {
				t.Fatalf("readme %q renders %U raw on line %d: %q", in, r, i, line)
			}
		}
		if safe.String(line) != line {
			t.Fatalf("readme %q renders line %d with unsafe characters: %q", in, i, line)
		}
	}
}

func TestRenderMarkdownDefusesCharacterReferences(t *testing.T) {
	t.Parallel()
	for _, style := range []string{"dark", "light", "notty"} {
		for _, in := range hostileReadmes {
			r := RenderMarkdown(t.Context(), in, mdLook(style), 60, patience)
			if r.Note != "" {
				t.Fatalf("%s: %q: %s", style, in, r.Note)
			}
			assertInert(t, in, r.Text)
		}
	}
	out := RenderMarkdown(t.Context(), hostileReadmes[0]+hostileReadmes[1]+hostileReadmes[2], mdLook("dark"), 80, patience).Text
	plain := ansi.Strip(out)
	for _, want := range []string{"␛]0;PWNED␇", "␛]52;c;cHduZWQ=␇", `\u202etxt.exe`} {
		if !strings.Contains(plain, want) {
			t.Errorf("%q is not shown as a marker:\n%s", want, plain)
		}
	}
	// Harmless references still render as their characters.
	out = RenderMarkdown(t.Context(), "&copy; &amp; &#169; &eacute;", mdLook("notty"), 60, patience).Text
	if got := ansi.Strip(out); !strings.Contains(got, "© & © é") {
		t.Errorf("harmless references: %q", got)
	}
}

func TestStyledKeepsTheStyling(t *testing.T) {
	r := RenderMarkdown(t.Context(), "# Title\n\nA **bold** word and `code`.\n", mdLook("dark"), 60, patience)
	if out := r.Text; r.Note != "" || !strings.Contains(out, "\x1b[") || !strings.Contains(ansi.Strip(out), "Title") {
		t.Errorf("the readme lost its styling: %q", out)
	}
}

// FuzzRenderMarkdown: whatever the readme, what is shown is inert and
// fits the width, rendered or as plain text. testdata/fuzz holds the readmes that blew
// the renderer up (blowUps).
func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range hostileReadmes {
		f.Add(s)
	}
	f.Add("# readme\n\n- a\n- b\n\n> quote &#x1b;\n\n1. x\n")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return // rendering is a few ms per KB: keep each run short
		}
		r := RenderMarkdown(t.Context(), s, mdLook("dark"), 60, patience)
		assertInert(t, s, r.Text)
		assertInert(t, s, r.Note)
		for _, l := range strings.Split(r.Text, "\n") {
			if w := ansi.StringWidth(l); w > 60 {
				t.Fatalf("readme %q (note %q): a line %d wide: %q", s, r.Note, w, l)
			}
		}
	})
}

func TestFuzzCorpusHoldsTheBlowUps(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzRenderMarkdown")
	held := map[string]bool{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		_, lit, _ := strings.Cut(strings.TrimSpace(string(b)), "\nstring(")
		s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		held[s] = true
	}
	for _, c := range blowUps {
		if !held[c.readme] {
			t.Errorf("the fuzz corpus lacks %s", c.name)
		}
	}
}
