package text

import (
	"strings"
	"testing"

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
