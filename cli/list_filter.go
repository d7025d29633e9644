package cli

import (
	"container/heap"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"canopy/cli/exit"
	"canopy/text"
	"canopy/views/filter"
	"canopy/views/search"
	"canopy/views/table"
)

// rankMax is the most matches --rank keeps: it ranks them once every page
// is read, so it holds them; the others are counted,
// and a line on stderr says how many more matched.
const rankMax = 10_000

// matchPrinter hands next the items of each page that pass the filter, as
// / keeps them (the name, then the other columns searched), in the page's
// order, as the page arrives: a match is printed as soon as its page is
// read, and no row is kept (grep's way; --rank is fzf's).
type matchPrinter[T any] struct {
	query filter.Query
	cols  []table.Column[T]
	next  printer[T]
}

func (p *matchPrinter[T]) add(ctx context.Context, items []T) error {
	if len(items) == 0 {
		return nil
	}
	// A page read is printed whatever ends the walk: its search runs even
	// when the listing is being interrupted (it costs a page's time).
	matches, _, err := search.Run(context.WithoutCancel(ctx), p.query, searchNames(items, p.cols), search.Narrowing{})
	if err != nil {
		return fmt.Errorf("filter: %w", err)
	}
	slices.Sort(matches) // the list's order, not the rank's
	kept := make([]T, 0, len(matches))
	for _, i := range matches {
		kept = append(kept, items[i])
	}
	return p.next.add(ctx, kept)
}

func (p *matchPrinter[T]) close(ctx context.Context, failed bool) error {
	return p.next.close(ctx, failed)
}

// rankPrinter (--rank) keeps the best bound matches of every page read, as
// / ranks them across all the rows (the name's matches first, best first,
// then the rows that match on another column), and hands them to next at
// the end: below the bound, the rows and the order of a search over every
// row at once, in the memory of the matches kept.
type rankPrinter[T any] struct {
	query   filter.Query
	cols    []table.Column[T]
	bound   int
	kept    ranked[T]
	rows    int // the items searched so far
	matched int
	notes   io.Writer // where to say that more matched than were kept
	nouns   string
	next    printer[T]
}

func (p *rankPrinter[T]) add(ctx context.Context, items []T) error {
	if len(items) == 0 {
		return nil
	}
	matches, err := search.Ranked(context.WithoutCancel(ctx), p.query, searchNames(items, p.cols))
	if err != nil {
		return fmt.Errorf("filter: %w", err)
	}
	for _, m := range matches {
		p.matched++
		r := rankedItem[T]{score: m, row: p.rows + m.Index, item: items[m.Index]}
		switch {
		case len(p.kept) < p.bound:
			heap.Push(&p.kept, r)
		case r.before(p.kept[0]):
			p.kept[0] = r // the worst kept makes way
			heap.Fix(&p.kept, 0)
		}
	}
	p.rows += len(items)
	return nil
}

func (p *rankPrinter[T]) close(ctx context.Context, failed bool) error {
	if failed && p.rows == 0 {
		return nil
	}
	// The items already fetched are ranked even when the walk was
	// interrupted.
	slices.SortFunc(p.kept, func(a, b rankedItem[T]) int {
		if a.before(b) {
			return -1
		}
		return 1 // rows differ: no two are equal
	})
	items := make([]T, len(p.kept))
	for i := range p.kept {
		items[i] = p.kept[i].item
	}
	p.kept = nil
	err := p.next.add(ctx, items)
	if cerr := p.next.close(ctx, failed); err == nil {
		err = cerr
	}
	if p.matched > len(items) {
		exit.Sayf(p.notes, "canopy list: %s %s matched; printed the %s best (--rank ranks at most %s: narrow the filter, "+
			"or leave out --rank to print every match in the list's order)", text.Count(p.matched), p.nouns, text.Count(len(items)), text.Count(p.bound))
	}
	return err
}

// rankedItem is a match --rank keeps: its tier and score, its row among
// every item searched, and the item.
type rankedItem[T any] struct {
	score search.Scored
	row   int
	item  T
}

func (a rankedItem[T]) before(b rankedItem[T]) bool { return a.score.Before(b.score, a.row, b.row) }

// ranked is a heap of the matches kept, the worst on top: a better match
// takes its place in O(log bound).
type ranked[T any] []rankedItem[T]

func (h ranked[T]) Len() int           { return len(h) }
func (h ranked[T]) Less(i, j int) bool { return h[j].before(h[i]) }
func (h ranked[T]) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *ranked[T]) Push(x any)        { *h = append(*h, x.(rankedItem[T])) }
func (h *ranked[T]) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
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
