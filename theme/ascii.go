package theme

import "strings"

// ASCIIFrame is the last word on a frame for a terminal that cannot show
// Unicode (Options.ASCII): the box drawing, separators, arrows, ellipses,
// bullets and icons any part of canopy (or a rendered readme) draws become
// ASCII characters of the same width, so the layout stays as it was
// measured. Other text (a name in CJK) is left to the terminal. An ASCII
// frame is returned as it is, without allocating.
func ASCIIFrame(frame string) string {
	for i := 0; i < len(frame); i++ {
		if frame[i] >= 0x80 {
			return asciiPunct(frame)
		}
	}
	return frame
}

func asciiPunct(s string) string {
	return strings.Map(func(r rune) rune {
		if a := asciiOf(r); a != 0 {
			return a
		}
		return r
	}, s)
}

// asciiOf is the one-cell ASCII stand-in of a one-cell symbol, 0 for none.
func asciiOf(r rune) rune {
	switch r {
	case '│', '┃', '║', '╎', '┆':
		return '|'
	case '─', '━', '╌', '┄', '—', '–', '·':
		return '-'
	case '═':
		return '='
	case '┌', '┐', '└', '┘', '├', '┤', '┬', '┴', '┼', '╭', '╮', '╰', '╯', '┏', '┓', '┗', '┛':
		return '+'
	case '…', '⋯':
		return '~'
	case '•', '●':
		return '*'
	case '←', '‹', '«':
		return '<'
	case '→', '›', '»', '▸':
		return '>'
	case '↑', '▲':
		return '^'
	case '↓', '▼', '▾':
		return 'v'
	case '✗':
		return 'x'
	case '⚠':
		return '!'
	}
	return 0
}
