package cli

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"canopy/safe"
	"canopy/views/filter"
	"canopy/views/search"
	"canopy/views/table"
)

// rankCols are the columns of the rows TestListRank ranks: a name, and two
// searched columns, with many ties between rows.
func rankCols() []table.Column[int] {
	words := []string{"nginx", "redis", "go", "node", "python", "postgres", "kafka", "envoy", "argo", "nats"}
	return []table.Column[int]{
		{Title: "NAME", Cell: func(i *int) safe.Text { return safe.Of(fmt.Sprintf("%s-%d", words[*i%len(words)], *i%13)) }},
		{Title: "REPO", Search: true, Cell: func(i *int) safe.Text { return safe.Of(words[(*i*7+3)%len(words)]) }},
		{Title: "NUMBER", Cell: func(i *int) safe.Text { return safe.Of(fmt.Sprint(*i)) }},
		{Title: "STATUS", Search: true, Cell: func(i *int) safe.Text { return safe.Of([]string{"", "deprecated"}[*i%3/2]) }},
	}
}

// rankRows are the rows TestListRank ranks: 600, each its own number.
func rankRows() []int {
	rows := make([]int, 600)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// collected is a printer that keeps what it is given, and whether it was
// closed.
type collected[T any] struct {
	items  []T
	closed bool
}

func (c *collected[T]) add(_ context.Context, items []T) error {
	c.items = append(c.items, items...)
	return nil
}

func (c *collected[T]) close(context.Context, bool) error { c.closed = true; return nil }

// TestListRankIsOneSearchOfEveryRow: --rank, given the rows a page at a
// time, prints what one search of every row at once prints (the ranking
// --filter printed before it streamed), for fuzzy, regular-expression and
// inverse queries; past its bound, the best of that ranking, and a line on
// stderr that says how many matched.
func TestListRankIsOneSearchOfEveryRow(t *testing.T) {
	t.Parallel()
	cols, rows := rankCols(), rankRows()
	for _, q := range []string{"n", "go", "ngx", "o-1", "dep", "re:^n.*-1", "re:redis", "!o", "!dep", "zzz"} {
		query := filter.ParseQuery(q)
		all, _, err := search.Run(t.Context(), query, searchNames(rows, cols), search.Narrowing{})
		if err != nil {
			t.Fatal(err)
		}
		for _, bound := range []int{rankMax, 5} {
			var got collected[int]
			var notes bytes.Buffer
			p := &rankPrinter[int]{query: query, cols: cols, bound: bound, notes: &notes, nouns: "rows", next: &got}
			for page := range slices7(rows) {
				if err := p.add(t.Context(), slices.Clone(page)); err != nil {
					t.Fatal(err)
				}
			}
			if err := p.close(t.Context(), false); err != nil || !got.closed {
				t.Fatal(err)
			}
			want := all[:min(bound, len(all))]
			if !slices.Equal(got.items, want) {
				t.Errorf("%q, bound %d: ranked %v\nwant %v", q, bound, head(got.items), head(want))
			}
			note := notes.String()
			switch {
			case len(all) > bound && !strings.Contains(note, fmt.Sprintf("%d rows matched; printed the %d best", len(all), bound)):
				t.Errorf("%q, bound %d: %d matched, and stderr says %q", q, bound, len(all), note)
			case len(all) <= bound && note != "":
				t.Errorf("%q, bound %d: all %d printed, and stderr says %q", q, bound, len(all), note)
			}
		}
	}
}

func head(xs []int) []int { return xs[:min(len(xs), 20)] }

// TestListFilterKeepsEachPagesOrder: without --rank, --filter keeps the
// rows one search of every row finds, in the order they came.
func TestListFilterKeepsEachPagesOrder(t *testing.T) {
	t.Parallel()
	cols, rows := rankCols(), rankRows()
	for _, q := range []string{"go", "re:redis", "!o"} {
		query := filter.ParseQuery(q)
		all, _, err := search.Run(t.Context(), query, searchNames(rows, cols), search.Narrowing{})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(all)
		var got collected[int]
		p := &matchPrinter[int]{query: query, cols: cols, next: &got}
		for page := range slices7(rows) {
			if err := p.add(t.Context(), page); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.close(t.Context(), false); err != nil || !slices.Equal(got.items, all) || len(all) == 0 {
			t.Errorf("%q: kept %v\nwant %v", q, head(got.items), head(all))
		}
	}
}
