package detail

import (
	"regexp"
	"strconv"
	"strings"

	"canopy/safe"
)

// sgr is an SGR sequence: colours and attributes.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// tidy makes a chunk of glamour's output safe and small: no hyperlinks, no
// escape sequence but SGR (safe.Styled), no padding at the ends of lines
// and no blank lines around it.
func tidy(s string) string {
	s = safe.Styled(osc8.ReplaceAllString(s, ""))
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = trimPadding(l)
	}
	blank := func(l string) bool { return strings.TrimSpace(sgr.ReplaceAllString(l, "")) == "" }
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// trimPadding drops the padding glamour ends a line with: it pads every
// line to the width with spaces, each in its own colour sequence, about 14
// bytes a cell, most of what it writes. Spaces that show (on a background,
// in reverse video, underlined) are kept, and a colour the padding would
// have reset is reset.
func trimPadding(l string) string {
	start := len(l) // l[start:] is spaces and SGR sequences
	for start > 0 {
		if l[start-1] == ' ' {
			start--
			continue
		}
		at := strings.LastIndex(l[:start], "\x1b[")
		if at < 0 || sgrEnd(l, at) != start {
			break
		}
		start = at
	}
	if start == len(l) {
		return l
	}
	shows := false // whether a space in the current style is seen
	for i := strings.IndexByte(l[:start], 0x1b); i >= 0 && i < start; {
		if end := sgrEnd(l, i); end > 0 {
			shows = showsOnSpace(shows, l[i+2:end-1])
		}
		next := strings.IndexByte(l[i+1:start], 0x1b)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	cut := start
	for i := start; i < len(l); {
		if l[i] == ' ' {
			if i++; shows {
				cut = i
			}
			continue
		}
		end := sgrEnd(l, i)
		shows = showsOnSpace(shows, l[i+2:end-1])
		i = end
	}
	if !strings.Contains(l[cut:], "\x1b[") {
		return l[:cut]
	}
	return l[:cut] + "\x1b[m"
}

// sgrEnd is where the SGR sequence at l[at] ends, 0 when none starts there.
func sgrEnd(l string, at int) int {
	if at+2 >= len(l) || l[at] != 0x1b || l[at+1] != '[' {
		return 0
	}
	for i := at + 2; i < len(l); i++ {
		switch c := l[i]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// showsOnSpace is whether a space is seen after an SGR with these
// parameters, shows being whether it was before: a background, reverse
// video, underline, strike-through or overline shows; a foreground colour,
// bold, italic or blink does not; a reset clears them all. A partial reset
// leaves shows as it was: some padding kept is only bytes.
func showsOnSpace(shows bool, params string) bool {
	if params == "" {
		return false
	}
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		p, _, colon := strings.Cut(ps[i], ":")
		n, err := strconv.Atoi(p)
		switch {
		case err != nil:
			shows = true
		case n == 38 || n == 58: // a foreground or underline colour
			if !colon {
				i += skipColour(ps[i+1:])
			}
		case n == 48:
			shows = true
			if !colon {
				i += skipColour(ps[i+1:])
			}
		case n == 0:
			shows = false
		case n == 4 || n == 7 || n == 9 || n == 21 || n == 53 || n >= 40 && n <= 47 || n >= 100 && n <= 107:
			shows = true
		}
	}
	return shows
}

// skipColour is how many parameters an extended colour (5;n or 2;r;g;b)
// takes after its 38, 48 or 58.
func skipColour(ps []string) int {
	switch {
	case len(ps) > 0 && ps[0] == "5":
		return 2
	case len(ps) > 0 && ps[0] == "2":
		return 4
	}
	return 0
}
