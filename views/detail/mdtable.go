package detail

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// minColumn is the narrowest a table column is made when the table does
// not fit: a narrower column's natural width is kept.
const minColumn = 3

// keptWord is the longest word a column keeps whole when the table does
// not fit: a column is made no narrower than its longest word up to this,
// so that a table too wide shows fewer columns, their values whole
// ("value12", not "valu" over "e12"), rather than every column in pieces.
const keptWord = 12

// table renders a table: columns sized to their content within width,
// cells wrapped in their column, the header styled and underlined, each
// column aligned as the table says. Columns that do not fit even at
// minColumn are cut, each row ending with a mark that says so.
func (r *mdRenderer) table(t *east.Table, width int) {
	cols := len(t.Alignments)
	var rows [][][]span
	var header []bool
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		style := r.md.Text.Pre()
		_, isHeader := row.(*east.TableHeader)
		if isHeader {
			style += r.md.TableHeader.Pre()
		}
		cells := make([][]span, cols)
		i := 0
		for c := row.FirstChild(); c != nil && i < cols; c = c.NextSibling() {
			cells[i] = r.inlines(c, style)
			i++
		}
		rows, header = append(rows, cells), append(header, isHeader)
	}
	natural, least := make([]int, cols), make([]int, cols)
	for _, cells := range rows {
		for i, c := range cells {
			natural[i] = max(natural[i], spansWidth(c))
			least[i] = max(least[i], min(longestWord(c), keptWord))
		}
	}
	for i := range least {
		least[i] = max(least[i], min(natural[i], minColumn), 1)
	}
	sepW := 2 + ansi.StringWidth(r.md.ColumnRule)
	widths, cut := columnWidths(natural, least, width, sepW, 1+ansi.StringWidth(r.md.Ellipsis))
	sep := r.md.TableBorder.Render(" " + r.md.ColumnRule + " ")
	more := ""
	if cut {
		more = " " + r.md.TableBorder.Render(r.md.Ellipsis)
	}
	for ri, cells := range rows {
		if r.stopped() {
			return
		}
		r.tableRow(cells[:len(widths)], widths, t.Alignments, sep, more)
		if header[ri] {
			parts := make([]string, len(widths))
			for i, w := range widths {
				parts[i] = strings.Repeat(r.md.HeaderRule, w)
			}
			joint := r.md.HeaderRule + r.md.Cross + r.md.HeaderRule
			r.emit(r.md.TableBorder.Render(strings.Join(parts, joint)) + more)
		}
	}
}

// tableRow emits a row's lines: each cell wrapped to its column, padded
// as its column is aligned.
func (r *mdRenderer) tableRow(cells [][]span, widths []int, aligns []east.Alignment, sep, more string) {
	wrapped := make([][]string, len(cells))
	height := 1
	for i, c := range cells {
		wrapped[i] = wrapSpans(c, widths[i], "", 0)
		height = max(height, len(wrapped[i]))
	}
	var line strings.Builder
	for l := range height {
		line.Reset()
		for i, lines := range wrapped {
			if i > 0 {
				line.WriteString(sep)
			}
			text := ""
			if l < len(lines) {
				text = lines[l]
			}
			pad := max(widths[i]-ansi.StringWidth(text), 0)
			left := 0
			switch aligns[i] {
			case east.AlignRight:
				left = pad
			case east.AlignCenter:
				left = pad / 2
			}
			line.WriteString(strings.Repeat(" ", left))
			line.WriteString(text)
			line.WriteString(strings.Repeat(" ", pad-left))
		}
		line.WriteString(more)
		r.emit(line.String())
		if r.err != nil {
			return
		}
	}
}

// columnWidths fits columns of natural widths in width, sepW between two:
// all at their natural width when they fit; else the narrow ones keep
// theirs, those whose least is more than an even share keep their least,
// and the others share what is left evenly. Columns that do not fit even
// at their least are left out (cut), moreW kept for the mark that says so.
func columnWidths(natural, least []int, width, sepW, moreW int) (widths []int, cut bool) {
	// fits reports whether the first k columns fit at their least, with
	// the mark of those cut when there are.
	fits := func(k int) bool {
		need := sepW * (k - 1)
		for i := range k {
			need += least[i]
		}
		if k < len(natural) {
			need += moreW
		}
		return need <= width
	}
	shown := len(natural)
	for shown > 1 && !fits(shown) {
		shown--
	}
	cut = shown < len(natural)
	avail := width - sepW*(shown-1)
	if cut {
		avail -= moreW
	}
	avail = max(avail, shown)
	widths = make([]int, shown)
	fixed := make([]bool, shown)
	open := shown
	// fix gives the open columns that take (natural or least) at most or
	// at least an even share of what is left their width, and says
	// whether it gave any.
	fix := func(takes func(i, share int) (int, bool)) bool {
		changed := false
		for open > 0 {
			share, gave := avail/open, false
			for i := range widths {
				if w, ok := takes(i, share); ok && !fixed[i] {
					widths[i], fixed[i] = w, true
					avail -= w
					open--
					gave = true
				}
			}
			if !gave {
				return changed
			}
			changed = true
		}
		return changed
	}
	narrow := func(i, share int) (int, bool) { return max(natural[i], 1), max(natural[i], 1) <= share }
	// A lone column wider than the pane at its least still fits in it.
	wordy := func(i, share int) (int, bool) { return min(least[i], avail), least[i] > share }
	// The narrow first, as share grows with each; then the wordy.
	for fix(narrow) || fix(wordy) {
	}
	extra := 0 // the columns given one more of what does not divide evenly
	for i := range widths {
		if !fixed[i] {
			widths[i] = max(avail/open, 1)
			if extra < avail%open {
				widths[i]++
				extra++
			}
		}
	}
	return widths, cut
}

// longestWord is the width of the widest run of cells without a space or
// a line break in spans.
func longestWord(spans []span) int {
	longest, run := 0, 0
	for _, s := range spans {
		if s.text == "\n" {
			run = 0
			continue
		}
		for j, word := range strings.Split(s.text, " ") {
			if j > 0 {
				run = 0
			}
			run += ansi.StringWidth(word)
			longest = max(longest, run)
		}
	}
	return longest
}
