package cli

import (
	"context"
	"io"

	"canopy/views/table"
)

// tableChunk is how many rows the table holds before it prints them: the
// columns are as wide as the widest cell of the rows held (a cell is cut
// to cellMax cells when it is held, list_cell.go), so a listing of
// up to this many rows is aligned throughout; a longer one is printed in
// chunks of this many rows, a column widening (never narrowing) from one
// chunk to the next.
const tableChunk = 1000

// tablePrinter prints rows under the columns' titles, padded by display
// width, as writeTable does (textout.go), a chunk at a time. Each cell's
// width is measured once, when its row is added: measuring text by its
// graphemes was most of the time a row took when it was done twice.
type tablePrinter[T any] struct {
	out     io.Writer
	cols    []table.Column[T]
	cells   []string // the rows held, row after row, the header first until started
	cellW   []int    // the display width of each of cells
	held    int      // rows held, the header not counted
	widths  []int    // each column's, over every chunk so far
	buf     []byte   // a chunk's text, reused from chunk to chunk
	started bool     // the header has been printed
	any     bool     // an item was given
	// eager prints the rows of each add at once, not by chunks: a
	// filter's matches are printed as their page arrives, however few.
	eager bool
}

func (p *tablePrinter[T]) add(_ context.Context, items []T) error {
	if !p.started && len(p.cells) == 0 {
		for _, c := range p.cols {
			p.hold(fitCell(c.Title, false))
		}
	}
	p.any = p.any || len(items) > 0
	for i := range items {
		for _, c := range p.cols {
			p.hold(fitCell(string(c.Cell(&items[i])), c.Middle))
		}
		if p.held++; p.held >= tableChunk {
			if err := p.flush(); err != nil {
				return err
			}
		}
	}
	if p.eager && p.held > 0 {
		return p.flush()
	}
	return nil
}

// hold keeps a cell and its width, as fitCell gives them: safe to print
// and cut to the column cap, so that what a chunk holds, and the width of
// every row, is bounded whatever the server sent.
func (p *tablePrinter[T]) hold(cell string, width int) {
	p.cells = append(p.cells, cell)
	p.cellW = append(p.cellW, width)
}

// flush prints the rows held, each column as wide as its widest cell so
// far; the last column is not padded.
func (p *tablePrinter[T]) flush() error {
	p.started = true
	ncol := len(p.cols)
	if len(p.widths) < ncol {
		p.widths = make([]int, ncol)
	}
	for i, w := range p.cellW {
		p.widths[i%ncol] = max(p.widths[i%ncol], w)
	}
	b := p.buf[:0]
	for i, c := range p.cells {
		b = append(b, c...)
		if col := i % ncol; col < ncol-1 {
			b = appendSpaces(b, max(p.widths[col]-p.cellW[i], 0)+2)
		} else {
			b = append(b, '\n')
		}
	}
	p.buf = b
	p.cells, p.cellW, p.held = p.cells[:0], p.cellW[:0], 0
	_, err := p.out.Write(b)
	return err
}

func (p *tablePrinter[T]) close(ctx context.Context, failed bool) error {
	if failed && !p.any {
		return nil
	}
	if err := p.add(ctx, nil); err != nil { // the header of an empty table
		return err
	}
	if len(p.cells) == 0 {
		return nil
	}
	return p.flush()
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}
