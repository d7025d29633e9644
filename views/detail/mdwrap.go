package detail

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// reset ends every styled run: each run sets its whole style again, so a
// line stands alone (the pane may show any line first).
const reset = "\x1b[m"

// span is a run of a readme's text in one style: the Pre sequences of the
// paints it is nested in, outermost first ("" for none). A text of "\n"
// is a hard line break.
type span struct{ text, style string }

// spansWidth is how wide spans are on one line, hard breaks as spaces.
func spansWidth(spans []span) int {
	w := 0
	for _, s := range spans {
		if s.text == "\n" {
			w++
			continue
		}
		w += ansi.StringWidth(s.text)
	}
	return w
}

// piece is part of a word (or a run of spaces) in one style.
type piece struct {
	text, style string
	width       int
}

// wrapper lays spans out in lines of at most width columns: at spaces,
// and inside a word longer than a line. A run of spaces at a break is
// dropped, one inside a line or before the first word kept (code keeps
// its indentation). cont, when set, starts each line after a break that
// was not in the text (a code line too long for the pane).
type wrapper struct {
	width     int
	cont      string // styled; contW columns
	contW     int
	lines     []string
	line      strings.Builder
	lineStyle string // the style the line's last run is in, not yet reset
	lineW     int
	lineEmpty bool // nothing but cont written on the line yet
	spaces    []piece
	spacesW   int
	word      []piece
	wordW     int
}

// wrapSpans lays spans out in lines of at most width columns.
func wrapSpans(spans []span, width int, cont string, contW int) []string {
	w := &wrapper{width: max(width, 1), cont: cont, contW: contW, lineEmpty: true}
	if contW >= w.width {
		w.cont, w.contW = "", 0
	}
	for _, s := range spans {
		if s.text == "\n" {
			w.endWord()
			w.newLine(false)
			continue
		}
		text := s.text
		for text != "" {
			i := strings.IndexByte(text, ' ')
			switch {
			case i == 0:
				w.endWord()
				n := len(text) - len(strings.TrimLeft(text, " "))
				w.spaces = append(w.spaces, piece{text[:n], s.style, n})
				w.spacesW += n
				text = text[n:]
			case i < 0:
				w.addWord(text, s.style)
				text = ""
			default:
				w.addWord(text[:i], s.style)
				text = text[i:]
			}
		}
	}
	w.endWord()
	if !w.lineEmpty || len(w.lines) == 0 {
		w.lines = append(w.lines, w.endLine())
	}
	return w.lines
}

func (w *wrapper) addWord(text, style string) {
	pw := ansi.StringWidth(text)
	w.word = append(w.word, piece{text, style, pw})
	w.wordW += pw
}

// endWord places the word gathered, with the spaces before it.
func (w *wrapper) endWord() {
	if len(w.word) == 0 {
		return
	}
	if w.lineW+w.spacesW+w.wordW > w.width && !w.lineEmpty {
		w.newLine(true)
	}
	if w.lineW+w.spacesW+w.wordW <= w.width {
		w.writeSpaces()
		for _, p := range w.word {
			w.write(p)
		}
	} else {
		// Longer than a line: cut between graphemes, across lines.
		w.writeSpaces()
		for _, p := range w.word {
			w.splitPiece(p)
		}
	}
	w.word, w.wordW = w.word[:0], 0
}

// writeSpaces writes the spaces gathered before a word, as far as they fit.
func (w *wrapper) writeSpaces() {
	for _, p := range w.spaces {
		n := min(p.width, w.width-w.lineW)
		if n <= 0 {
			break
		}
		w.write(piece{p.text[:n], p.style, n})
	}
	w.spaces, w.spacesW = w.spaces[:0], 0
}

// splitPiece writes p, breaking the line wherever it is full.
func (w *wrapper) splitPiece(p piece) {
	rest, state, start, at, used := p.text, -1, 0, 0, 0
	for rest != "" {
		var g string
		g, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		gw := ansi.StringWidth(g)
		if w.lineW+used+gw > w.width && (used > 0 || !w.lineEmpty) {
			w.write(piece{p.text[start:at], p.style, used})
			w.newLine(true)
			start, used = at, 0
		}
		at += len(g)
		used += gw
	}
	w.write(piece{p.text[start:], p.style, used})
}

// write writes p on the line, in one run with the text before it when
// both are in one style.
func (w *wrapper) write(p piece) {
	if p.text == "" {
		return
	}
	if p.style != w.lineStyle {
		if w.lineStyle != "" {
			w.line.WriteString(reset)
		}
		w.line.WriteString(p.style)
		w.lineStyle = p.style
	}
	w.line.WriteString(p.text)
	w.lineW += p.width
	w.lineEmpty = false
}

// endLine is the line written, its last run reset.
func (w *wrapper) endLine() string {
	if w.lineStyle != "" {
		w.line.WriteString(reset)
		w.lineStyle = ""
	}
	return w.line.String()
}

// newLine ends the line; broken says whether the text goes on.
func (w *wrapper) newLine(broken bool) {
	w.lines = append(w.lines, w.endLine())
	w.line.Reset()
	w.lineW, w.lineEmpty = 0, true
	w.spaces, w.spacesW = w.spaces[:0], 0
	if broken && w.cont != "" {
		w.line.WriteString(w.cont) // styled on its own, reset
		w.lineW = w.contW
	}
}
