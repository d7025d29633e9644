package safe

import "strings"

// Styled makes text that a renderer has already styled safe to print: its
// SGR sequences (ESC [ digits ; : m — colors and attributes, which cannot
// move the cursor, retitle the window or reach the clipboard) are kept, and
// everything between them goes through String line by line, newlines
// kept. Any other escape sequence, or an ESC that starts none, is shown as
// a marker, never run.
//
// It is the last pass over a rendered readme: Markdown decodes HTML
// character references (&#x1b;, &#x202e;) back into the characters String
// removed from its input, so what the renderer writes is checked again.
func Styled(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	text := 0 // start of the text not yet written
	flush := func(end int) {
		for i, line := range strings.Split(s[text:end], "\n") {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(String(line))
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b {
			continue
		}
		n := sgrLen(s[i:])
		if n == 0 {
			continue // a stray ESC: String shows it as text
		}
		flush(i)
		b.WriteString(s[i : i+n])
		i += n - 1
		text = i + 1
	}
	flush(len(s))
	return b.String()
}

// sgrLen is the length of the SGR sequence s starts with, 0 when it starts
// with something else.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}
