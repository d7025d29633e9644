package safe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// JSON makes encoded JSON safe to print without changing what it says:
// every character String would replace by a marker (DEL, C1 controls,
// format, bidi and other invisible characters; encoding/json already
// escapes C0) is written as a \uXXXX escape, which a JSON reader decodes
// back to the same character. Only strings can hold such characters, and a
// \u escape means the same there, so the document is unchanged for a
// program and inert in a terminal.
func JSON(s string) string {
	if clean(s, true) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := decode(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == 0x7f || r < 0x20 && r != '\n' || unsafeRune(r):
			if r > 0xffff {
				hi, lo := surrogates(r)
				fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// surrogates is the UTF-16 pair of a rune above U+FFFF.
func surrogates(r rune) (hi, lo rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}
