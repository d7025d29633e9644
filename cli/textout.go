package cli

import (
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// writeTable writes rows as columns two spaces apart, padded by display
// width (text/tabwriter counts runes, so a wide CJK or emoji cell, or a
// marker such as \u202e, would push the rest of its row out of line). The
// last column is not padded. Cells must already be safe to print. Its
// cells are canopy's and the user's own (settings, paths), printed whole:
// a column is padded to at most cellMax cells, so that one long value
// pushes the rest of its own row, not every row (as it did the list
// table's, issue 33, item 1).
func writeTable(w io.Writer, rows [][]string) error {
	return writeRows(w, rows, widen(nil, rows))
}

// widen is widths grown to fit every cell of rows, up to cellMax.
func widen(widths []int, rows [][]string) []int {
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], min(ansi.StringWidth(c), cellMax))
		}
	}
	return widths
}

// writeRows writes rows padded to widths (a cell wider than its column
// pushes the rest of its row, never more).
func writeRows(w io.Writer, rows [][]string, widths []int) error {
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", max(widths[i]-ansi.StringWidth(c), 0)+2))
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
