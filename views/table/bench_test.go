// The table's benchmarks live in package table_test: the tag columns
// (views/columns) import views/table, so an in-package test importing them
// would be an import cycle.
package table_test

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	bubbletable "charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/viewstest"
)

// The frame size of every benchmark: a large terminal.
const (
	benchWidth  = 200
	benchHeight = 60
)

// benchNow is the fixed clock of the age columns.
var benchNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

var (
	keyDown   = tea.KeyPressMsg{Code: 'j', Text: "j"}
	keyTop    = tea.KeyPressMsg{Code: 'g', Text: "g"}
	keyPgDown = tea.KeyPressMsg{Code: tea.KeyPgDown}
)

// splitmix is a fast deterministic hash for synthetic data.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

var tagFlavors = []string{"", "-dev", "-slim", "-r1", "-r2", "-fips", "-debug"}

// synthTag is the i-th tag of a synthetic repo: semver-like names with
// suffixes (a few "latest" ones), a sha256-shaped digest, times over the
// three years before benchNow, and one in ten deprecated.
func synthTag(i int) api.Tag {
	h := splitmix(uint64(i))
	var name string
	switch {
	case i%1000 == 0:
		name = "latest-" + strconv.Itoa(i/1000)
	default:
		name = fmt.Sprintf("%d.%d.%d%s", 1+i/100000, i/1000%100, i%1000, tagFlavors[h%uint64(len(tagFlavors))])
	}
	digest := fmt.Sprintf("sha256:%016x%016x%016x%016x", h, splitmix(h), splitmix(h+1), splitmix(h+2))
	created := benchNow.Add(-time.Duration(h%(3*365*24*3600)) * time.Second)
	updated := created.Add(time.Duration(splitmix(h+3)%(30*24*3600)) * time.Second)
	if updated.After(benchNow) {
		updated = benchNow
	}
	return api.Tag{
		UID:        fmt.Sprintf("8707a01d6329783f07df1bd4a477b564aef8fc52/4c1f0e6a9b2d7c35/%016x", h),
		Name:       name,
		Digest:     digest,
		Deprecated: h%10 == 7,
		UpdateTime: api.TimeOf(updated),
	}
}

// tagSource serves n synthetic tags at once. Tokens are the decimal list
// position of the next item, as in views/paging's tests.
func tagSource(n int) paging.Source[api.Tag] {
	return func(_ context.Context, req paging.Request) (paging.Result[api.Tag], error) {
		start, err := startOf(req)
		if err != nil {
			return paging.Result[api.Tag]{}, err
		}
		skipped := req.Skip
		start = min(start, n)
		end := min(start+min(req.Size, paging.DefaultPageSize), n)
		res := paging.Result[api.Tag]{Total: int64(n), Skipped: skipped, Items: make([]api.Tag, 0, end-start)}
		for i := start; i < end; i++ {
			res.Items = append(res.Items, synthTag(i))
		}
		if end < n {
			res.Next = strconv.Itoa(end)
		}
		return res, nil
	}
}

func tagKey(t *api.Tag) string { return t.UID }

// startOf is the position a request of the synthetic sources starts at:
// its token (the decimal position of the next item) plus its skip.
func startOf(req paging.Request) (int, error) {
	start := req.Skip
	if req.Token != "" {
		pos, err := strconv.Atoi(req.Token)
		if err != nil {
			return 0, err
		}
		start += pos
	}
	return start, nil
}

// run executes cmd and what follows from it, passing every page to update.
func run(tb testing.TB, cmd tea.Cmd, update func(paging.PageMsg) tea.Cmd) {
	tb.Helper()
	viewstest.Drive(cmd, func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok },
		func(msg tea.Msg) tea.Cmd { return update(msg.(paging.PageMsg)) })
}

// loadAll walks l to its end, page by page with the token of each page,
// passing the pages to update (a table's Update, or the list's own).
func loadAll[T any](tb testing.TB, l *paging.List[T], first tea.Cmd, update func(paging.PageMsg) tea.Cmd) {
	tb.Helper()
	run(tb, first, update)
	for !l.Done() {
		before := l.Loaded()
		run(tb, l.Ensure(l.Contiguous(), 0), update)
		if err, _ := l.Err(); err != nil {
			tb.Fatal(err)
		}
		if l.Loaded() == before {
			tb.Fatalf("loading stalled at %d of %d", before, l.Total())
		}
	}
}

func common() views.Common {
	return views.Common{
		Theme: theme.New(theme.Options{Name: "dark"}),
		Keys:  keymap.Default(),
		Now:   func() time.Time { return benchNow },
	}
}

func tagConfig(c views.Common, l *paging.List[api.Tag]) table.Config[api.Tag] {
	return table.Config[api.Tag]{
		Title:   "tags",
		Columns: columns.Tags(c, nil),
		List:    l,
		Key:     tagKey,
		Orders:  columns.Orders(),
		RowKind: columns.TagRow,
	}
}

// loadedLists caches one fully loaded list per size, shared by the runs of
// -count and by the bubbles comparison.
var loadedLists = struct {
	sync.Mutex
	m map[int]*paging.List[api.Tag]
}{m: map[int]*paging.List[api.Tag]{}}

// loadedTags is a list of n synthetic tags, loaded through a table's Update
// (the first page from Init, the rest by walking the tokens).
func loadedTags(tb testing.TB, n int) *paging.List[api.Tag] {
	tb.Helper()
	loadedLists.Lock()
	defer loadedLists.Unlock()
	if l, ok := loadedLists.m[n]; ok {
		return l
	}
	start := time.Now()
	l := paging.New(context.Background(), tagSource(n), tagKey)
	m := table.New(common(), tagConfig(common(), l))
	m.SetSize(benchWidth, benchHeight)
	loadAll(tb, l, m.Init(), func(msg paging.PageMsg) tea.Cmd { return m.Update(msg) })
	if l.Loaded() != n || l.Total() != n {
		tb.Fatalf("loaded %d of %d, want %d", l.Loaded(), l.Total(), n)
	}
	tb.Logf("loaded %d tags in %v (%d requests)", n, time.Since(start).Round(time.Millisecond), l.Requests())
	loadedLists.m[n] = l
	return l
}

// press sends one key to m; nothing should be left to load.
func press(tb testing.TB, m *table.Model[api.Tag], k tea.KeyPressMsg) {
	if cmd := m.Update(k); cmd != nil {
		tb.Fatalf("key %q on a loaded table returned a command", k.String())
	}
}

// goTo puts the cursor of m on row i with keys: top, pages down, then j.
func goTo(tb testing.TB, m *table.Model[api.Tag], i int) {
	tb.Helper()
	press(tb, m, keyTop)
	for m.Cursor()+(benchHeight-2) <= i {
		press(tb, m, keyPgDown)
	}
	for m.Cursor() < i {
		press(tb, m, keyDown)
	}
	if m.Cursor() != i {
		tb.Fatalf("cursor at %d, want %d", m.Cursor(), i)
	}
}

var benchSizes = []int{1_000, 1_000_000}

// span is the range of rows the frame benchmarks move the cursor over: the
// middle 400 rows of the list, so that the view scrolls on most moves
// while staying away from both ends.
func span(n int) (lo, hi int) { return n/2 - 200, n/2 + 200 }

// BenchmarkFrame is one `j` press and one full frame of a 200x60 tag table
// with 10³ and 10⁶ loaded rows, the cursor in the middle of the list.
func BenchmarkFrame(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			l := loadedTags(b, n)
			c := common()
			m := table.New(c, tagConfig(c, l))
			m.SetSize(benchWidth, benchHeight)
			lo, hi := span(n)
			goTo(b, m, lo)
			if v := m.View(); strings.Count(v, "\n") != benchHeight-1 {
				b.Fatalf("frame has %d lines, want %d", strings.Count(v, "\n")+1, benchHeight)
			}
			b.ReportAllocs()
			var out int
			for b.Loop() {
				if m.Cursor() >= hi-1 {
					b.StopTimer()
					goTo(b, m, lo)
					b.StartTimer()
				}
				m.Update(keyDown)
				out += len(m.View())
			}
			runtime.KeepAlive(out)
		})
	}
}

// bubblesColumns are the tag columns as bubbles/table takes them, with the
// widths their declarations give at benchWidth (no column is dropped at 200
// cells; the flex TAG column stops at its Max): as wide as canopy's table
// made them before it sized them from the rows on screen, which leaves
// them narrower.
func bubblesColumns(c views.Common) ([]bubbletable.Column, []table.Column[api.Tag]) {
	cols := columns.Tags(c, nil)
	fixed, flexMin := 0, 0
	for _, col := range cols {
		fixed++ // the gap before each column
		if col.Flex > 0 {
			flexMin += max(col.Min, 4)
		} else {
			fixed += col.Width
		}
	}
	out := make([]bubbletable.Column, len(cols))
	for i, col := range cols {
		w := col.Width
		if col.Flex > 0 {
			// One flex column in the tag set: it gets all the spare room.
			w = max(col.Min, 4) + benchWidth - fixed - flexMin
			if col.Max > 0 {
				w = min(w, col.Max)
			}
		}
		out[i] = bubbletable.Column{Title: col.Title, Width: w}
	}
	return out, cols
}

var bubblesRows = struct {
	sync.Mutex
	m map[int][]bubbletable.Row
}{m: map[int][]bubbletable.Row{}}

// rowsFor renders the cells of the n loaded tags once, as bubbles/table
// needs them up front.
func rowsFor(tb testing.TB, n int, cols []table.Column[api.Tag]) []bubbletable.Row {
	l := loadedTags(tb, n)
	bubblesRows.Lock()
	defer bubblesRows.Unlock()
	if rows, ok := bubblesRows.m[n]; ok {
		return rows
	}
	rows := make([]bubbletable.Row, 0, n)
	l.Each(func(_ int, t *api.Tag) bool {
		r := make(bubbletable.Row, len(cols))
		for i, col := range cols {
			r[i] = string(col.Cell(t))
		}
		rows = append(rows, r)
		return true
	})
	bubblesRows.m[n] = rows
	return rows
}

// BenchmarkBubblesTable is the same move and frame with bubbles/v2's table
// over the same rows and column widths, for comparison.
func BenchmarkBubblesTable(b *testing.B) {
	c := common()
	bcols, cols := bubblesColumns(c)
	for _, n := range benchSizes {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			rows := rowsFor(b, n, cols)
			m := bubbletable.New(
				bubbletable.WithColumns(bcols),
				bubbletable.WithRows(rows),
				bubbletable.WithHeight(benchHeight-1),
				bubbletable.WithWidth(benchWidth),
				bubbletable.WithFocused(true),
			)
			lo, hi := span(n)
			m.SetCursor(lo)
			b.ReportAllocs()
			var out int
			for b.Loop() {
				if m.Cursor() >= hi-1 {
					b.StopTimer()
					m.SetCursor(lo)
					b.StartTimer()
				}
				m.MoveDown(1)
				out += len(m.View())
			}
			runtime.KeepAlive(out)
		})
	}
}

// BenchmarkLoadedTagsMemory loads 10⁶ tags into a paging.List and reports
// the heap they hold, per tag (B/tag); ns/op is the time to load them all,
// page by page, from an instant source.
func BenchmarkLoadedTagsMemory(b *testing.B) {
	const n = 1_000_000
	var perTag float64
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()

		l := paging.New(context.Background(), tagSource(n), tagKey)
		loadAll(b, l, l.Start(), func(msg paging.PageMsg) tea.Cmd {
			_, cmd := l.Update(msg)
			return cmd
		})

		b.StopTimer()
		if l.Loaded() != n {
			b.Fatalf("loaded %d, want %d", l.Loaded(), n)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(l)
		perTag = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
		b.StartTimer()
	}
	b.ReportMetric(perTag, "B/tag")
}
