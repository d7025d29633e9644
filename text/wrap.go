package text

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrap wraps s (styled or not) to w cells a line: at spaces first, so
// that a word which fits a line of its own (a URL, a hyphenated name)
// moves down whole; then a word longer than a line is broken after one
// of breaks ("/,"), or anywhere when none fits. Lines are joined by "\n".
func Wrap(s string, w int, breaks string) string {
	if w <= 0 || !strings.Contains(s, "\n") && width(s) <= w {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/w + 1)
	for i, para := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		col := 0
		for j, word := range strings.Split(para, " ") {
			ww := width(word)
			switch {
			case j > 0 && col+1+ww <= w:
				b.WriteByte(' ')
				col++
			case j > 0:
				b.WriteByte('\n')
				col = 0
			}
			if col+ww <= w {
				b.WriteString(word)
				col += ww
				continue
			}
			// Longer than a line: broken where it allows (ansi.Wrap may
			// leave a breakpoint past the end: such a piece is cut hard).
			pieces := strings.Split(ansi.Wrap(word, w, breaks), "\n")
			for i, p := range pieces {
				if width(p) > w {
					pieces[i] = ansi.Hardwrap(p, w, true)
				}
			}
			joined := strings.Join(pieces, "\n")
			b.WriteString(joined)
			col = width(joined[strings.LastIndexByte(joined, '\n')+1:])
		}
	}
	return b.String()
}

// width is Width with a fast path for printable ASCII, which most words
// are.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}
