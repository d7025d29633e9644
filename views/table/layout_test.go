package table

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
	"canopy/views/paging"
	"canopy/views/viewstest"
)

// entry is a row of the layout tests: a name and two texts.
type entry struct{ name, short, long string }

// entryTable is a w×h table of entries under cols, its rows loaded
// through Update.
func entryTable(t *testing.T, entries []entry, w, h int, cols ...Column[entry]) *Model[entry] {
	t.Helper()
	src := func(_ context.Context, req paging.Request) (paging.Result[entry], error) {
		start := req.Skip
		if req.Token != "" {
			start, _ = strconv.Atoi(req.Token)
		}
		end := min(start+req.Size, len(entries))
		res := paging.Result[entry]{Items: entries[start:end], Total: int64(len(entries)), Skipped: start}
		if end < len(entries) {
			res.Next = strconv.Itoa(end)
		}
		return res, nil
	}
	key := func(e *entry) string { return e.name }
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	m := New(common, Config[entry]{Title: "entries", Columns: cols, Key: key,
		List:   paging.New(context.Background(), src, key),
		Orders: []Order{{Label: "name ↑", OrderBy: "name"}}})
	m.SetSize(w, h)
	viewstest.Drive(m.Init(), func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok }, m.Update)
	return m
}

func nameColumn() Column[entry] {
	return Column[entry]{Title: "NAME", Flex: 2, Min: 12, Max: 32, Order: "name", Cell: func(e *entry) safe.Text { return safe.Of(e.name) }}
}

func shortColumn(title string) Column[entry] {
	return Column[entry]{Title: title, Flex: 1, Min: 10, Drop: 3, Cell: func(e *entry) safe.Text { return safe.Of(e.short) }}
}

func longColumn(title string) Column[entry] {
	return Column[entry]{Title: title, Flex: 1, Min: 10, Drop: 2, Cell: func(e *entry) safe.Text { return safe.Of(e.long) }}
}

// pressOn sends keys to a table of any rows, and the pages they ask for.
func pressOn[T any](m *Model[T], keys ...string) {
	for _, k := range keys {
		viewstest.Drive(m.Update(viewstest.Key(k)), func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok }, m.Update)
	}
}

// lines is the frame without styles, line by line.
func lines[T any](m *Model[T]) []string { return strings.Split(ansi.Strip(m.View()), "\n") }

// An empty column (COMPONENT, which a server may leave out) is not shown
// while its cells on screen are empty, and its room goes to a column
// that was cut; it comes back when a row on screen has one.
func TestEmptyColumnGivesItsRoomToACutOne(t *testing.T) {
	const aliases = "CVE-2026-27937 GHSA-ltck-yp8v-or4i GHSA-9661-zspq-0gy1"
	entries := make([]entry, 30)
	for i := range entries {
		entries[i] = entry{name: "CGA-" + strconv.Itoa(10+i), long: aliases}
	}
	entries[29].short = "org.springframework:spring-web"
	m := entryTable(t, entries, 80, 12, nameColumn(), shortColumn("COMPONENT"), longColumn("ALIASES"))
	s := lines(m)
	if strings.Contains(s[0], "COMPONENT") || !strings.Contains(s[1], aliases) {
		t.Errorf("the empty COMPONENT column is shown, or ALIASES is cut:\n%s", strings.Join(s, "\n"))
	}
	pressOn(m, "G") // the last row, which has a component, on screen
	s = lines(m)
	if !strings.Contains(s[0], "COMPONENT") || !strings.Contains(s[10], "org.springframework:spring-web") {
		t.Errorf("a component on screen, but no COMPONENT column:\n%s", strings.Join(s, "\n"))
	}
}

// A column of short cells (KIND) is as wide as its header, the name
// column as wide as its names (8 cells, not its Max), and the flex
// columns whose cells are long share the rest of the width.
func TestShortColumnsFitTheirCellsAndLongOnesShareTheRest(t *testing.T) {
	long := strings.Repeat("https://token.actions.githubusercontent.com ", 2)
	entries := []entry{{name: "ci-bot-1", short: "x", long: long}, {name: "deployer", short: "y", long: long}}
	kind := Column[entry]{Title: "KIND", Width: 12, Cell: func(e *entry) safe.Text { return safe.Of(e.short) }}
	m := entryTable(t, entries, 100, 6, nameColumn(), kind, longColumn("ISSUER"), longColumn("SUBJECT"))
	s := lines(m)
	head := s[0]
	// " NAME ^  KIND ISSUER…": NAME takes 8 cells from 1, KIND 4 from 10.
	if kindAt, issuerAt := strings.Index(head, "KIND"), strings.Index(head, "ISSUER"); kindAt != 10 || issuerAt != 15 {
		t.Errorf("KIND at %d, ISSUER at %d, want 10 and 15:\n%s", kindAt, issuerAt, strings.Join(s, "\n"))
	}
	// ISSUER and SUBJECT share the 85 cells left: 42 each, the last cell
	// of the row to SUBJECT.
	if issuerW := strings.Index(head, "SUBJECT") - strings.Index(head, "ISSUER") - 1; issuerW != 42 {
		t.Errorf("ISSUER is %d wide, want 42:\n%s", issuerW, strings.Join(s, "\n"))
	}
	if !strings.HasPrefix(s[1], " ci-bot-1 x    https://") || ansi.StringWidth(s[1]) != 100 || !strings.HasSuffix(s[1], "…") {
		t.Errorf("row %q", s[1])
	}
}

// The columns hold still while the cursor moves among the rows on screen;
// they follow the rows when scrolling shows longer ones.
func TestColumnsFollowTheRowsOnScreen(t *testing.T) {
	entries := make([]entry, 40)
	for i := range entries {
		entries[i] = entry{name: "n" + strconv.Itoa(10+i), short: "x", long: "y"}
	}
	entries[39].name = "a-much-longer-name"
	kind := Column[entry]{Title: "KIND", Width: 12, Cell: func(e *entry) safe.Text { return safe.Of(e.short) }}
	m := entryTable(t, entries, 60, 12, nameColumn(), kind)
	head := lines(m)[0]
	for range 9 {
		pressOn(m, "j")
		if h := lines(m)[0]; h != head {
			t.Fatalf("a move on screen changed the columns: %q, then %q", head, h)
		}
	}
	pressOn(m, "G")
	if at := strings.Index(lines(m)[0], "KIND"); at != 1+len("a-much-longer-name")+1 {
		t.Errorf("after G, KIND at %d:\n%s", at, strings.Join(lines(m), "\n"))
	}
}

// The table keeps the promise views.Fitted makes for it (the shell does
// not measure its lines): at every width, with wide and long text, the
// filter line open on a long pattern, and a loading row, no line is wider
// than the table.
func TestEveryLineFitsTheWidth(t *testing.T) {
	entries := make([]entry, 300)
	for i := range entries {
		entries[i] = entry{name: fmt.Sprintf("名前-%d-🚀🚀-%s", i, strings.Repeat("x", i%50)),
			short: strings.Repeat("ワイド", i%7), long: strings.Repeat("CVE-2026-27937 ", i%9)}
	}
	for _, w := range []int{4, 9, 13, 20, 37, 61, 80, 133, 200} {
		m := entryTable(t, entries, w, 8, nameColumn(), shortColumn("SHORT"), longColumn("LONG"))
		check := func(when string) {
			t.Helper()
			for i, l := range strings.Split(m.View(), "\n") {
				if lw := ansi.StringWidth(l); lw > w {
					t.Fatalf("width %d, %s: line %d is %d wide: %q", w, when, i, lw, ansi.Strip(l))
				}
			}
		}
		check("rows")
		pressOn(m, "G") // the last page is asked for: a loading row first
		check("after G")
		pressOn(m, "/")
		for _, r := range "名前-1🚀" + strings.Repeat("z", 60) {
			m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		check("filter typed")
	}
}
