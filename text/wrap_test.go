package text

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestWrapMovesAWordThatFitsDownWhole(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"see https://example.com/advisories/CVE-2026-1", 30, "see\nhttps://example.com/\nadvisories/CVE-2026-1"},
		{"see https://example.com/a/bcd", 27, "see\nhttps://example.com/a/bcd"},
		{"see https://example.com/advisories/CVE-2026-1", 32, "see\nhttps://example.com/advisories/\nCVE-2026-1"},
		{"a short line", 30, "a short line"},
		{"two words", 5, "two\nwords"},
		{"abcdefghij", 4, "abcd\nefgh\nij"},
		{"first\nsecond line here", 8, "first\nsecond\nline\nhere"},
	} {
		if got := Wrap(tc.in, tc.w, " /,:"); got != tc.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
}

func TestWrapKeepsStylesAndWidth(t *testing.T) {
	in := "\x1b[2mref https://github.com/wolfi-dev/advisories/blob/main/nginx.advisories.yaml\x1b[m"
	out := Wrap(in, 40, " /,:")
	if !strings.HasPrefix(ansi.Strip(out), "ref\nhttps://github.com/") || !strings.HasPrefix(out, "\x1b[2m") {
		t.Errorf("styled wrap: %q", ansi.Strip(out))
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("a line is %d wide: %q", ansi.StringWidth(l), l)
		}
	}
}

// FuzzWrap: every line fits (a character wider than the line aside), and
// only line breaks are added or spaces taken.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{"", "see https://example.com/a/b", "日本語 テキスト", "a\nb c", "- - - - -", "x\x1b[1mbold\x1b[m y"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, w int) {
		// What is wrapped is text made safe: valid, no controls but \n
		// and canopy's own styles (whole SGR sequences).
		bare := sgr.ReplaceAllString(s, "")
		if !utf8.ValidString(s) || strings.IndexFunc(bare, func(r rune) bool { return r != '\n' && unicode.IsControl(r) }) >= 0 {
			t.Skip()
		}
		w = 2 + abs(w)%60
		out := Wrap(s, w, " /,")
		squeeze := func(x string) string { return strings.NewReplacer("\n", "", " ", "").Replace(ansi.Strip(x)) }
		if squeeze(out) != squeeze(s) {
			t.Fatalf("Wrap(%q, %d) = %q changed more than breaks and spaces", s, w, out)
		}
		if !strings.ContainsAny(s, "\x1b\t\r") {
			for _, l := range strings.Split(out, "\n") {
				if lw := ansi.StringWidth(l); lw > w {
					t.Fatalf("Wrap(%q, %d): line %q is %d wide", s, w, l, lw)
				}
			}
		}
	})
}

// sgr is a whole SGR sequence, as lipgloss writes them.
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// A word ending in a breakpoint one cell past the line is cut hard, and
// what follows starts from where it ends.
func TestWrapCutsABreakpointPastTheEnd(t *testing.T) {
	if got := Wrap("000000000000000, x", 15, " /,"); got != "000000000000000\n, x" {
		t.Errorf("got %q", got)
	}
}
