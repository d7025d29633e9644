package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"canopy/safe"
	"canopy/views/filter"
	"canopy/views/search"
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
// API's resources (JSON); with --filter it keeps the items until the end,
// since matches are ranked across all of them as / ranks them.
func newPrinter[T any](r listRequest, cols []table.Column[T]) printer[T] {
	var p printer[T] = &tablePrinter[T]{out: r.out, cols: cols}
	if r.json {
		p = &jsonPrinter[T]{out: r.out}
	}
	if !r.query.IsEmpty() {
		p = &filterPrinter[T]{query: r.query, cols: cols, next: p}
	}
	return p
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

// filterPrinter keeps the items and, at the end, hands those that pass the
// filter to next, in the order / shows them.
type filterPrinter[T any] struct {
	query filter.Query
	cols  []table.Column[T]
	items []T
	next  printer[T]
}

func (p *filterPrinter[T]) add(_ context.Context, items []T) error {
	p.items = append(p.items, items...)
	return nil
}

func (p *filterPrinter[T]) close(ctx context.Context, failed bool) error {
	if failed && len(p.items) == 0 {
		return nil
	}
	// The items already fetched are filtered even when the walk was
	// interrupted: a context of its own lets the search run.
	matches, _, err := search.Run(context.WithoutCancel(ctx), p.query, searchNames(p.items, p.cols), search.Narrowing{})
	if err != nil {
		return fmt.Errorf("filter: %w", err)
	}
	kept := make([]T, 0, len(matches))
	for _, i := range matches {
		kept = append(kept, p.items[i])
	}
	err = p.next.add(ctx, kept)
	if cerr := p.next.close(ctx, failed); err == nil {
		err = cerr
	}
	return err
}

// searchNames are what `/` searches in the UI's table of these items: the
// name, then the other columns marked Search.
func searchNames[T any](items []T, cols []table.Column[T]) search.Names {
	names := search.Names{Primary: make([]string, len(items)), Secondary: make([]string, len(items)), Rows: make([]int, len(items))}
	for i := range items {
		names.Primary[i], names.Rows[i] = string(cols[0].Cell(&items[i])), i
		var other []string
		for _, c := range cols[1:] {
			if c.Search {
				other = append(other, string(c.Cell(&items[i])))
			}
		}
		names.Secondary[i] = strings.Join(other, " ")
	}
	return names
}
