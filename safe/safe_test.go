package safe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain ascii", "org/folder/repo:1.2.3-r4", "org/folder/repo:1.2.3-r4"},
		{"empty", "", ""},
		{"clear screen", "a\x1b[2Jb", "a␛[2Jb"},
		{"osc title bel", "\x1b]0;pwned\x07repo", "␛]0;pwned␇repo"},
		{"osc 52 clipboard", "\x1b]52;c;ZWNobyBoaQ==\x1b\\x", "␛]52;c;ZWNobyBoaQ==␛\\x"},
		{"dcs", "\x1bP+q544e\x1b\\", "␛P+q544e␛\\"},
		{"apc pm sos", "\x1b_a\x1b\\\x1b^b\x1b\\\x1bXc\x1b\\", "␛_a␛\\␛^b␛\\␛Xc␛\\"},
		{"c1 csi rune", "a\u009b2Jb", `a\x9b2Jb`},
		{"c1 csi raw byte", "a\x9b2Jb", "a\uFFFD2Jb"},
		{"c1 osc rune", "\u009d0;t\u009c", `\x9d0;t\x9c`},
		{"del", "a\x7fb", "a␡b"},
		{"nul bel bs", "\x00\x07\x08", "␀␇␈"},
		{"newline and tab", "a\nb\tc\r", "a␊b␉c␍"},
		{"bidi override", "abc\u202Etxt.exe", `abc\u202etxt.exe`},
		{"bidi isolates and marks", "\u2066\u2067\u2068\u2069\u200E\u200F\u061C\u202A\u202B\u202C\u202D",
			`\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u202a\u202b\u202c\u202d`},
		{"zero width joiner in word", "pay\u200Dpal", `pay\u200dpal`},
		{"zero width space non-joiner word joiner", "a\u200Bb\u200Cc\u2060d", `a\u200bb\u200cc\u2060d`},
		{"bom", "\uFEFFname", `\ufeffname`},
		{"mongolian vowel separator", "a\u180Eb", `a\u180eb`},
		{"soft hyphen", "ad\u00ADmin", `ad\u00admin`},
		{"line separator", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"tag character", "a\U000E0041b", `a\U000e0041b`},
		{"invalid utf8", "a\xff\xfeb", "a\uFFFD\uFFFDb"},
		{"truncated utf8", "ab\xe4\xb8", "ab\uFFFD\uFFFD"},
		{"cjk kept", "仓库/镜像:最新", "仓库/镜像:最新"},
		{"combining kept", "cafe\u0301", "cafe\u0301"},
		{"emoji kept", "ship 🚢 it ✅", "ship 🚢 it ✅"},
		{"emoji variation selector kept", "❤\uFE0F", "❤\uFE0F"},
		{"text presentation after a symbol kept", "☺\uFE0E", "☺\uFE0E"},
		{"variation selector after a letter", "adm\uFE0Fin", `adm\ufe0fin`},
		{"variation selector at start", "\uFE0Fadmin", `\ufe0fadmin`},
		{"other variation selectors", "a\uFE00b\U000E0100c\U000E01EFd", `a\ufe00b\U000e0100c\U000e01efd`},
		{"combining grapheme joiner", "adm\u034Fin", `adm\u034fin`},
		{"hangul fillers", "a\u115Fb\u1160c\u3164d\uFFA0e", `a\u115fb\u1160c\u3164d\uffa0e`},
		{"khmer inherent vowels", "a\u17B4b\u17B5c", `a\u17b4b\u17b5c`},
		{"mongolian free variation selectors", "a\u180Bb\u180Cc\u180Dd\u180Fe", `a\u180bb\u180cc\u180dd\u180fe`},
		{"tag characters", "a\U000E0000b\U000E0020c\U000E007Fd", `a\U000e0000b\U000e0020c\U000e007fd`},
		{"real replacement char kept", "a\uFFFDb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in)
			if got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
			assertSafe(t, got, false)
		})
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"keeps newlines", "line 1\nline 2\n", "line 1\nline 2\n"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"lone cr visible", "a\rb", "a␍b"},
		{"tab at start", "\tx", "    x"},
		{"tab to next stop", "ab\tc", "ab  c"},
		{"tab on stop", "abcd\te", "abcd    e"},
		{"tab after newline resets column", "abc\n\tx", "abc\n    x"},
		{"consecutive tabs", "a\t\tb", "a       b"},
		{"tab after wide chars", "仓\tx", "仓  x"},
		{"escape in text", "# Title\n\x1b[31mred\x1b[0m", "# Title\n␛[31mred␛[0m"},
		{"bidi in text", "x\u202Ey\n", `x\u202ey` + "\n"},
		{"invalid utf8", "\xc3(", "\uFFFD("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Lines(tt.in)
			if got != tt.want {
				t.Errorf("Lines(%q) = %q, want %q", tt.in, got, tt.want)
			}
			assertSafe(t, got, true)
		})
	}
}

// TestWidthPreserved checks that printable text keeps its display width, so
// columns stay aligned after sanitizing.
func TestWidthPreserved(t *testing.T) {
	for _, s := range []string{"仓库/镜像", "naïve café", "e\u0301\u0302", "👍🏽 ok", "日本語テキスト", "plain"} {
		if got := String(s); ansi.StringWidth(got) != ansi.StringWidth(s) || got != s {
			t.Errorf("String(%q) = %q (width %d), want unchanged (width %d)", s, got, ansi.StringWidth(got), ansi.StringWidth(s))
		}
	}
}

func TestNoAllocWhenClean(t *testing.T) {
	for _, s := range []string{"org/folder/repo:1.2.3-r4", "仓库/镜像:最新"} {
		if n := testing.AllocsPerRun(100, func() { _ = String(s) }); n != 0 {
			t.Errorf("String(%q) allocs = %v, want 0", s, n)
		}
		if n := testing.AllocsPerRun(100, func() { _ = Lines(s + "\nmore") }); n > 1 { // the concatenation itself
			t.Errorf("Lines(%q) allocs = %v, want at most 1", s, n)
		}
	}
}

// assertSafe fails if out holds anything a terminal could interpret: a byte
// below 0x20 (except \n when multiline), DEL, ESC, a C1 rune, a format
// character, another default-ignorable code point or invalid UTF-8.
func assertSafe(t testing.TB, out string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output is not valid UTF-8: %q", out)
	}
	for i := 0; i < len(out); i++ {
		c := out[i]
		if c == 0x7f || c == 0x1b || c < 0x20 && !(multiline && c == '\n') {
			t.Fatalf("output has control byte %#x at %d: %q", c, i, out)
		}
	}
	prev := rune(0)
	for _, r := range out {
		if hidden(prev, r) {
			t.Fatalf("output has unsafe rune %U: %q", r, out)
		}
		prev = r
	}
	if !multiline && strings.ContainsRune(out, '\n') {
		t.Fatalf("single-line output has a newline: %q", out)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "repo", "\x1b[2J", "\x1b]52;c;aGk=\x07", "\u009b", "\xff", "a\u202eb", "仓库\t\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		assertSafe(t, out, false)
		if clean(s, false) && out != s {
			t.Fatalf("clean input changed: %q → %q", s, out)
		}
	})
}

func FuzzLines(f *testing.F) {
	for _, s := range []string{"", "# readme\r\n\tcode\n", "\x1bP1;2q\x1b\\", "\u2066x\u2069", "\xc3("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Lines(s)
		assertSafe(t, out, true)
		if strings.Count(out, "\n") != strings.Count(s, "\n") {
			t.Fatalf("line count changed: %q → %q", s, out)
		}
	})
}

func BenchmarkStringASCII(b *testing.B) {
	b.ReportAllocs()
	s := "org/folder/some-repository-name:1.2.3-r4"
	for b.Loop() {
		_ = String(s)
	}
}

func BenchmarkStringUnsafe(b *testing.B) {
	b.ReportAllocs()
	s := "repo \x1b]0;title\x07 with \u202e bidi and \u200d joiner"
	for b.Loop() {
		_ = String(s)
	}
}

// TestPrintableASCIIFindsEveryByte: the eight-bytes-at-a-time scan stops at
// the first byte outside 0x20–0x7e, wherever it is and whatever it is.
func TestPrintableASCIIFindsEveryByte(t *testing.T) {
	base := []byte("abcdefghijklmnopqrstuvwx~ ")
	for at := range base {
		for b := range 256 {
			s := append([]byte(nil), base...)
			s[at] = byte(b)
			want := len(s)
			if b < 0x20 || b >= 0x7f {
				want = at
			}
			if got := printableASCII(string(s)); got != want {
				t.Fatalf("byte %#x at %d: %d, want %d", b, at, got, want)
			}
		}
	}
}
