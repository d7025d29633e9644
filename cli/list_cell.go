package cli

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"canopy/safe"
	"canopy/text"
)

// cellMax is the widest a cell of `canopy list -o table` is printed, in
// terminal cells; a longer one is cut and marked with cutMark. Without a
// cap each column was as wide as its widest cell, and one repo named with
// 1 MiB of text padded every row of its chunk to a MiB: 1 GB of output and
// 4 GB of memory (issue 33, item 1). 80 keeps whole every name the API
// allows (at most 63 characters) and a signature tag ("sha256-<64 hex>.sig",
// 75); long prose and what no valid server sends are cut. A table is for
// reading: -o json keeps every value whole. The UI's narrower bounds
// (Column.Width, Max) are for fitting a screen; here a name cut at 36 cells
// would no longer tell its row apart for a script.
const cellMax = 80

// cellMaxBytes bounds the bytes of a cell looked at before its width is
// measured: room for cellMax cells of any text a person writes (an emoji
// sequence is some 25 bytes for 2 cells), so that neither the time a cell
// takes nor the memory it holds depends on how long a value the server
// sent. What is past it is cut, even if it would have fit (a grapheme of
// thousands of combining marks).
const cellMaxBytes = 16 * cellMax

// cutMark marks where a cell was cut, as in the UI.
const cutMark = "…"

// fitCell is the cell printed for s, a column's text: made safe (columns do
// it already; this is the last word before the terminal), "-" when empty,
// cut to at most cellMax cells, at its end or, for a column told apart by
// the ends of its texts (Column.Middle), in its middle; and its display
// width. A cut cell is a copy, never a slice of a long s.
func fitCell(s string, middle bool) (string, int) {
	if s == "" {
		return "-", 1
	}
	if len(s) > cellMaxBytes {
		return fitLong(s, middle)
	}
	s = safe.String(s)
	w := cellWidth(s)
	if w <= cellMax {
		return s, w
	}
	if middle {
		s = text.Middle(s, cellMax, cutMark)
	} else {
		s = ansi.Truncate(s, cellMax, cutMark)
	}
	return strings.Clone(s), cellWidth(s)
}

// fitLong is fitCell for s longer than cellMaxBytes: only its first bytes
// (and, cut in the middle, its last) are read, made safe and measured.
func fitLong(s string, middle bool) (string, int) {
	half := cellMaxBytes / 2
	if middle {
		h := safe.String(s[:runeStart(s, half)])
		// The end's first rune may lose the one before it, which only
		// shows an emoji presentation selector as its escape: still safe.
		e := safe.String(s[runeStart(s, len(s)-half):])
		// Middle takes at most cellMax cells of either side: when both
		// have as many, the mark stands where they were joined.
		if cellWidth(h) >= cellMax && cellWidth(e) >= cellMax {
			m := strings.Clone(text.Middle(h+e, cellMax, cutMark))
			return m, cellWidth(m)
		}
	}
	head := safe.String(s[:runeStart(s, cellMaxBytes)])
	c := strings.Clone(ansi.Truncate(head, cellMax-ansi.StringWidth(cutMark), "") + cutMark)
	return c, cellWidth(c)
}

// runeStart is i moved back to the start of the rune it falls in, so that
// s[:i] and s[i:] are whole runes.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// cellWidth is the display width of a cell safe to print: its length when
// it is printable ASCII (one cell a byte; most are), else as the terminal
// counts graphemes.
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}
