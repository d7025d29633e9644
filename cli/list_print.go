package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"canopy/safe"
	"canopy/views/table"
)

// printer prints a collection as its pages arrive: add takes a page's
// items, close prints what is left and ends the output. close is called
// however the walk ended, so that what was fetched is printed even when a
// later page failed or the walk was stopped; failed says it did, and then
// a printer that was given no item prints nothing (not an empty table,
// which a script would take for an empty collection).
type printer[T any] interface {
	add(ctx context.Context, items []T) error
	close(ctx context.Context, failed bool) error
}

// newPrinter prints as the UI's table shows the items (cols) or as the
// API's resources (JSON). With --filter it prints each page's matches as
// the page arrives, in the list's order (a table then prints them at once,
// each column as wide as its widest cell so far); with --rank too, it
// keeps the best rankMax matches and prints them ranked, at the end, as /
// ranks them.
func newPrinter[T any](r listRequest, cols []table.Column[T]) printer[T] {
	filtering := !r.query.IsEmpty()
	var p printer[T] = &tablePrinter[T]{out: r.out, cols: cols, eager: filtering && !r.rank}
	if r.json {
		p = &jsonPrinter[T]{out: r.out}
	}
	switch {
	case !filtering:
		return p
	case r.rank:
		return &rankPrinter[T]{query: r.query, cols: cols, bound: rankMax, notes: r.notes, nouns: r.nouns, next: p}
	}
	return &matchPrinter[T]{query: r.query, cols: cols, next: p}
}

// printItems prints items that are all at hand.
func printItems[T any](ctx context.Context, r listRequest, items []T, cols []table.Column[T]) error {
	p := newPrinter(r, cols)
	err := p.add(ctx, items)
	if cerr := p.close(ctx, err != nil); err == nil {
		err = cerr
	}
	return err
}

// jsonPrinter prints a JSON array of the items, a page at a time as each
// arrives: the same bytes as encoding the whole array with two-space
// indentation, and a valid array however the walk ended.
type jsonPrinter[T any] struct {
	out io.Writer
	n   int
	buf bytes.Buffer // the page's encoding, reused from page to page
	enc *json.Encoder
}

func (p *jsonPrinter[T]) add(_ context.Context, items []T) error {
	if len(items) == 0 {
		return nil
	}
	if p.enc == nil {
		p.enc = json.NewEncoder(&p.buf)
		p.enc.SetIndent("", "  ")
	}
	// The page is encoded as an array, in one call with one reused buffer
	// rather than a call and two buffers an item (the encoding was the
	// larger part of printing a page): its elements are the bytes the whole
	// array's encoding has between its brackets, and each is encoded as an
	// element of a slice is (a MarshalJSON on the pointer applies).
	p.buf.Reset()
	if err := p.enc.Encode(items); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	elems := p.buf.Bytes()
	elems = elems[len("[\n") : len(elems)-len("\n]\n")]
	sep := ",\n"
	if p.n == 0 {
		sep = "[\n"
	}
	p.n += len(items)
	if _, err := io.WriteString(p.out, sep); err != nil {
		return err
	}
	// Escaped, not changed: a JSON reader gets the server's strings back.
	_, err := io.WriteString(p.out, safe.JSON(string(elems)))
	return err
}

func (p *jsonPrinter[T]) close(_ context.Context, failed bool) error {
	end := "\n]\n"
	switch {
	case p.n == 0 && failed:
		return nil
	case p.n == 0:
		end = "[]\n"
	}
	_, err := io.WriteString(p.out, end)
	return err
}
