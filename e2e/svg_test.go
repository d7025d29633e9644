package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"canopy/text"
)

// The screenshots in docs/shots are drawn from tmux's capture of the real
// screen (capture-pane -e: the text with its SGR sequences) into SVG, which
// a README shows in colour at any size and which diffs as text.

// cellStyle is the SGR state of a cell.
type cellStyle struct {
	fg, bg                                      string // "" is the terminal's default
	bold, faint, italic, underline, strike, rev bool
}

// span is a run of cells in one style on one row.
type span struct {
	col   int
	text  string
	width int
	style cellStyle
}

// Terminal defaults of the pictures: a dark terminal, as the demo's theme
// (auto) picks in tmux.
const (
	svgBackground = "#1c1c1c"
	svgForeground = "#d0d0d0"
	svgCellW      = 8.4
	svgCellH      = 17.0
	svgFontSize   = 14
	svgPad        = 12.0
)

// xterm256 is the hex colour of an xterm 256-colour index.
func xterm256(n int) string {
	system := []string{"#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
		"#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"}
	switch {
	case n < 16:
		return system[n]
	case n < 232:
		n -= 16
		level := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + v*40
		}
		return fmt.Sprintf("#%02x%02x%02x", level(n/36), level(n/6%6), level(n%6))
	default:
		g := 8 + (n-232)*10
		return fmt.Sprintf("#%02x%02x%02x", g, g, g)
	}
}

// applySGR changes st by the parameters of one SGR sequence.
func applySGR(st *cellStyle, params string) {
	ps := strings.Split(strings.ReplaceAll(params, ":", ";"), ";")
	num := func(i int) int {
		if i >= len(ps) {
			return 0
		}
		n, _ := strconv.Atoi(ps[i])
		return n
	}
	// colour reads an extended colour at ps[i] (5;n or 2;r;g;b) and says
	// how many parameters it took.
	colour := func(i int) (string, int) {
		switch num(i) {
		case 5:
			return xterm256(num(i + 1)), 2
		case 2:
			return fmt.Sprintf("#%02x%02x%02x", num(i+1), num(i+2), num(i+3)), 4
		}
		return "", 0
	}
	for i := 0; i < len(ps); i++ {
		switch n := num(i); {
		case n == 0:
			*st = cellStyle{}
		case n == 1:
			st.bold = true
		case n == 2:
			st.faint = true
		case n == 3:
			st.italic = true
		case n == 4:
			st.underline = true
		case n == 7:
			st.rev = true
		case n == 9:
			st.strike = true
		case n == 22:
			st.bold, st.faint = false, false
		case n == 23:
			st.italic = false
		case n == 24:
			st.underline = false
		case n == 27:
			st.rev = false
		case n == 29:
			st.strike = false
		case n >= 30 && n <= 37:
			st.fg = xterm256(n - 30)
		case n >= 90 && n <= 97:
			st.fg = xterm256(n - 90 + 8)
		case n >= 40 && n <= 47:
			st.bg = xterm256(n - 40)
		case n >= 100 && n <= 107:
			st.bg = xterm256(n - 100 + 8)
		case n == 39:
			st.fg = ""
		case n == 49:
			st.bg = ""
		case n == 38:
			c, used := colour(i + 1)
			st.fg, i = c, i+used
		case n == 48:
			c, used := colour(i + 1)
			st.bg, i = c, i+used
		}
	}
}

// screenSpans splits a captured screen into its styled runs, row by row;
// the style carries over from one row to the next as on the terminal.
func screenSpans(capture string) [][]span {
	var rows [][]span
	var st cellStyle
	for _, line := range strings.Split(strings.TrimRight(capture, "\n"), "\n") {
		var row []span
		col := 0
		var cur strings.Builder
		curW, start := 0, 0
		flush := func() {
			if cur.Len() > 0 {
				row = append(row, span{col: start, text: cur.String(), width: curW, style: st})
			}
			cur.Reset()
			curW, start = 0, col
		}
		for i := 0; i < len(line); {
			if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
				j := i + 2
				for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
					j++
				}
				if j < len(line) && line[j] == 'm' {
					flush()
					applySGR(&st, line[i+2:j])
				}
				i = j + 1
				continue
			}
			r, size := rune(line[i]), 1
			if r >= 0x80 {
				for _, rr := range line[i:] {
					r = rr
					break
				}
				size = len(string(r))
			}
			w := text.Width(string(r))
			cur.WriteRune(r)
			curW += w
			col += w
			i += size
		}
		flush()
		rows = append(rows, row)
	}
	return rows
}

// svgEscape escapes text for an SVG text node.
func svgEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// screenSVG draws a captured screen of cols × rows cells as an SVG picture
// titled title (what a screen reader says of it).
func screenSVG(capture string, cols, rows int, title string) string {
	w, h := float64(cols)*svgCellW+2*svgPad, float64(rows)*svgCellH+2*svgPad
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, "<title>%s</title>\n", svgEscape(title))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" rx="6" fill="%s"/>`+"\n", svgBackground)
	fmt.Fprintf(&b, `<g font-family="ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="%d" xml:space="preserve">`+"\n", svgFontSize)
	for y, row := range screenSpans(capture) {
		if y >= rows {
			break
		}
		top := svgPad + float64(y)*svgCellH
		for _, s := range row {
			fg, bg := s.style.fg, s.style.bg
			if s.style.rev {
				fg, bg = bg, fg
				if fg == "" {
					fg = svgBackground
				}
				if bg == "" {
					bg = svgForeground
				}
			}
			x := svgPad + float64(s.col)*svgCellW
			if bg != "" {
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`+"\n", x, top, float64(s.width)*svgCellW, svgCellH, bg)
			}
			if strings.TrimSpace(s.text) == "" {
				continue
			}
			if fg == "" {
				fg = svgForeground
			}
			attrs := fmt.Sprintf(`x="%.1f" y="%.1f" fill="%s"`, x, top+svgCellH*0.78, fg)
			if s.style.bold {
				attrs += ` font-weight="bold"`
			}
			if s.style.faint {
				attrs += ` opacity="0.6"`
			}
			if s.style.italic {
				attrs += ` font-style="italic"`
			}
			var deco []string
			if s.style.underline {
				deco = append(deco, "underline")
			}
			if s.style.strike {
				deco = append(deco, "line-through")
			}
			if len(deco) > 0 {
				attrs += ` text-decoration="` + strings.Join(deco, " ") + `"`
			}
			// textLength keeps each run on its cells whatever font draws it.
			fmt.Fprintf(&b, `<text %s textLength="%.1f" lengthAdjust="spacingAndGlyphs">%s</text>`+"\n", attrs, float64(s.width)*svgCellW, svgEscape(s.text))
		}
	}
	b.WriteString("</g>\n</svg>\n")
	return b.String()
}

// TestScreenSVGKeepsColoursAndPlaces: a captured screen's colours (256 and
// true colour), reverse video, attributes and wide characters land on
// their cells, the style carries across rows as on a terminal, and text
// is escaped.
func TestScreenSVGKeepsColoursAndPlaces(t *testing.T) {
	capture := "\x1b[1m\x1b[38;5;75mcanopy\x1b[0m  a<b & \"c\"\n" +
		"\x1b[7mrev\x1b[27m 漢x \x1b[38;2;255;136;0morange\n" +
		"still orange\x1b[39m \x1b[2;9mgone\x1b[0m\n"
	svg := screenSVG(capture, 20, 3, "a <test>")
	for _, want := range []string{
		`<title>a &lt;test&gt;</title>`,
		`x="12.0" y="25.3" fill="#5fafff" font-weight="bold" textLength="50.4"`, // canopy, bold, colour 75
		`>  a&lt;b &amp; &quot;c&quot;</text>`,
		`<rect x="12.0" y="29.0" width="25.2" height="17.0" fill="#d0d0d0"/>`, // rev: default fg as background
		`fill="#1c1c1c" textLength="25.2" lengthAdjust="spacingAndGlyphs">rev</text>`,
		`x="79.2" y="42.3" fill="#ff8800"`, // after "rev 漢x ": 3+1+2+1+1 = 8 cells
		`y="59.3" fill="#ff8800" textLength="100.8" lengthAdjust="spacingAndGlyphs">still orange</text>`,
		`opacity="0.6" text-decoration="line-through"`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in\n%s", want, svg)
		}
	}
}
