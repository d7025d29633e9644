package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"canopy/api"
	"canopy/views/filter"
	"canopy/views/safe"
	"canopy/views/search"
	"canopy/views/table"
)

// walk reads every page of a collection in opts' order, following
// nextPageToken to the end: it never needs a total, which the service may
// leave out. When the server refuses the order (it does not sort this
// collection that way), walk says so once on stderr and reads the
// collection again in the server's default order: a script gets every row
// rather than none.
func walk[T any](ctx context.Context, r listRequest, noun string, list api.Lister[T], key func(*T) string, opts api.ListOptions) ([]T, error) {
	items, err := walkAll(ctx, list, key, opts)
	if err != nil && opts.OrderBy != "" && api.RefusedOrder(err) {
		sayf(r.notes, "canopy list: the server does not sort %s %s; listed in its default order", noun, orderWords(opts.OrderBy))
		opts.OrderBy = ""
		items, err = walkAll(ctx, list, key, opts)
	}
	switch {
	case err == nil:
		return items, nil
	case api.NotOnServer(err):
		return nil, fmt.Errorf("list %s: this server does not serve them: %w", noun, err)
	}
	return nil, fmt.Errorf("list %s: %w", noun, err)
}

func walkAll[T any](ctx context.Context, list api.Lister[T], key func(*T) string, opts api.ListOptions) ([]T, error) {
	var items []T
	for it, err := range api.NewCursor(list, opts, key).All(ctx) {
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, nil
}

// orderWords says an order as a sentence does: "by name", "newest first".
func orderWords(orderBy string) string {
	switch orderBy {
	case api.OrderName:
		return "by name"
	case api.OrderNameDesc:
		return "by name, descending"
	case api.OrderCreated:
		return "oldest first"
	case api.OrderCreatedDesc:
		return "newest first"
	case api.OrderUpdated:
		return "least recently updated first"
	case api.OrderUpdatedDesc:
		return "recently updated first"
	}
	return fmt.Sprintf("by %q", orderBy)
}

// printItems prints the items that pass the filter, as the UI's table
// shows them (cols) or as the API's resources.
func printItems[T any](ctx context.Context, r listRequest, items []T, cols []table.Column[T]) error {
	if !r.query.IsEmpty() {
		matches, _, err := search.Run(ctx, r.query, searchNames(items, cols), filter.Result{})
		if err != nil {
			return fmt.Errorf("filter: %w", err)
		}
		kept := make([]T, 0, len(matches))
		for _, i := range matches {
			kept = append(kept, items[i])
		}
		items = kept
	}
	if r.json {
		if items == nil {
			items = []T{}
		}
		b, err := json.MarshalIndent(items, "", "  ")
		if err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		// Escaped, not changed: a JSON reader gets the server's strings back.
		_, err = io.WriteString(r.out, safe.JSON(string(b))+"\n")
		return err
	}
	rows := make([][]string, 0, len(items)+1)
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = c.Title
	}
	rows = append(rows, head)
	for i := range items {
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j] = oneLine(c.Cell(&items[i]))
		}
		rows = append(rows, row)
	}
	return writeTable(r.out, rows)
}

// oneLine is a cell as it is printed: made safe (columns do it already;
// this is the last word before the terminal), "-" when empty.
func oneLine(s string) string {
	if s == "" {
		return "-"
	}
	return safe.String(s)
}

// searchNames are what `/` searches in the UI's table of these items: the
// name, then the other columns marked Search.
func searchNames[T any](items []T, cols []table.Column[T]) search.Names {
	names := search.Names{Primary: make([]string, len(items)), Secondary: make([]string, len(items)), Rows: make([]int, len(items))}
	for i := range items {
		names.Primary[i], names.Rows[i] = cols[0].Cell(&items[i]), i
		var other []string
		for _, c := range cols[1:] {
			if c.Search {
				other = append(other, c.Cell(&items[i]))
			}
		}
		names.Secondary[i] = strings.Join(other, " ")
	}
	return names
}
