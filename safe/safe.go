// Package safe makes server-supplied strings safe to print in a terminal.
//
// Every string that comes from the API (repo descriptions, tag names, readmes,
// advisory text) passes through String or Text before it reaches the screen.
// A string can otherwise carry escape sequences that clear or rewrite the
// screen, change the window title, or write to the clipboard (OSC 52) — the
// class of bug kubectl fixed as CVE-2021-25743 — or bidi and zero-width
// characters that make text read differently from what it is.
//
// Nothing is dropped silently: each dangerous character is replaced by a
// visible, inert marker so the user sees that it was there:
//
//   - C0 controls and ESC become Unicode Control Pictures (ESC → "␛", BEL →
//     "␇", LF → "␊"); the rest of an escape sequence is then plain text, so
//     "\x1b[2J" shows as "␛[2J".
//   - DEL becomes "␡".
//   - C1 controls (U+0080–U+009F, e.g. the 8-bit CSI) become "\x9b".
//   - Format characters (Unicode category Cf: bidi controls, zero-width
//     space/joiners, word joiner, BOM, soft hyphen, Mongolian vowel
//     separator, tag characters), the line/paragraph separators
//     U+2028/U+2029 and the other default-ignorable code points (combining
//     grapheme joiner U+034F, Hangul fillers U+115F, U+1160, U+3164, U+FFA0,
//     Khmer U+17B4/U+17B5, Mongolian free variation selectors, variation
//     selectors) become "\u202e" style escapes: a terminal draws them as
//     nothing, so "adm\u034fin" would pass for "admin". The one exception
//     is the emoji or text presentation selector (U+FE0E, U+FE0F) right
//     after a symbol, as in "❤️": that is how emoji are written, and it
//     cannot make one name pass for another.
//   - Invalid UTF-8 bytes become U+FFFD.
//
// Printable text, including wide (CJK, emoji) and combining characters, is
// left intact so display width is unchanged.
package safe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tabWidth is the distance between tab stops when Lines expands tabs.
const tabWidth = 4

// String makes s safe to print in a single terminal cell or line: every
// control character (C0 including \n and \t, C1, DEL, ESC), format character
// (bidi, zero-width, BOM, soft hyphen), line/paragraph separator and invalid
// UTF-8 byte is replaced by a visible marker, never interpreted. Printable
// text is returned unchanged; an all-printable string is returned as is
// without allocating.
func String(s string) string {
	if clean(s, false) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	prev := rune(0)
	for i := 0; i < len(s); {
		r, size := decode(s[i:])
		writeRune(&b, prev, r, size)
		prev = r
		i += size
	}
	return b.String()
}

// Lines is String for multi-line text (readmes, advisory descriptions): it
// keeps \n, drops a \r that comes right before \n, expands \t to spaces up
// to the next tab stop (every 4 columns, counted in display width), and
// makes everything else safe as String does.
func Lines(s string) string {
	if clean(s, true) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	// col is the display column at offset seg of b; tab stops are found by
	// measuring only the text written since the last tab or newline.
	col, seg := 0, 0
	prev := rune(0)
	for i := 0; i < len(s); {
		r, size := decode(s[i:])
		switch {
		case r == '\n':
			b.WriteByte('\n')
			col, seg = 0, b.Len()
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF line ending: keep only the \n.
		case r == '\t':
			col += ansi.StringWidth(b.String()[seg:])
			pad := tabWidth - col%tabWidth
			b.WriteString(strings.Repeat(" ", pad))
			col, seg = col+pad, b.Len()
		default:
			writeRune(&b, prev, r, size)
		}
		prev = r
		i += size
	}
	return b.String()
}

// clean reports whether s needs no change. It scans ASCII bytewise so the
// common case costs no decoding and no allocation.
func clean(s string, multiline bool) bool {
	i := printableASCII(s)
	if i == len(s) {
		return true
	}
	prev := rune(0)
	if i > 0 {
		prev = rune(s[i-1])
	}
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if !(multiline && c == '\n') {
					return false
				}
			}
			prev = rune(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || hidden(prev, r) {
			return false
		}
		prev = r
		i += size
	}
	return true
}

// printableASCII is the length of the leading run of s that is printable
// ASCII (0x20–0x7e), found eight bytes at a time: most names are all of it.
func printableASCII(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		del := w ^ 0x7f*ones
		// A byte ≥ 0x80, a byte < 0x20, or a byte 0x7f (zero in del).
		if w&highs|(w-0x20*ones)&^w&highs|(del-ones)&^del&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			break
		}
	}
	return i
}

// decode returns the next rune of s and its size; an invalid byte decodes
// as utf8.RuneError with size 1.
func decode(s string) (rune, int) {
	if s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	return utf8.DecodeRuneInString(s)
}

// invisible are the tables of runes a terminal draws as nothing, or that
// reorder or join what is around them: format characters (bidi,
// zero-width, BOM, soft hyphen, tags), the line and paragraph separators,
// and the rest of Unicode's default-ignorable code points.
var invisible = []*unicode.RangeTable{unicode.Cf, unicode.Zl, unicode.Zp,
	unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector}

// unsafeRune reports whether a non-ASCII rune must be made visible, whatever
// comes before it: C1 controls and the invisible runes.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case r <= 0x9f:
		return true
	case r < 0x300:
		return r == 0xad // soft hyphen, the only Cf below U+0300
	}
	return unicode.In(r, invisible...)
}

// hidden reports whether r, after prev, must be made visible: an unsafe
// rune, except an emoji or text presentation selector after a symbol
// ("❤️").
func hidden(prev, r rune) bool {
	if (r == 0xfe0e || r == 0xfe0f) && unicode.In(prev, unicode.So, unicode.Sm) {
		return false
	}
	return unsafeRune(r)
}

// writeRune writes r (decoded from size bytes, after prev) to b, replaced
// by its visible marker when it is not safe to print.
func writeRune(b *strings.Builder, prev, r rune, size int) {
	switch {
	case r == utf8.RuneError && size == 1:
		b.WriteRune(utf8.RuneError)
	case r < 0x20:
		// Control Pictures block: U+2400 + code (ESC → ␛, BEL → ␇).
		b.WriteRune(0x2400 + r)
	case r == 0x7f:
		b.WriteRune('␡')
	case r >= 0x80 && r <= 0x9f:
		fmt.Fprintf(b, `\x%02x`, r)
	case r >= utf8.RuneSelf && hidden(prev, r):
		if r > 0xffff {
			fmt.Fprintf(b, `\U%08x`, r)
		} else {
			fmt.Fprintf(b, `\u%04x`, r)
		}
	default:
		b.WriteRune(r)
	}
}
