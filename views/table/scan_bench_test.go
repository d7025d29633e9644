package table_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/views/paging"
	"canopy/views/search"
	"canopy/views/table"
	"canopy/views/viewstest"
)

// jsonPages are n synthetic tags as the server's pages of 200, encoded once:
// a scan's source decodes each page as the client would, so that the
// unfiltered scan the filtered one is held against costs what it costs in
// the program, not only the table's bookkeeping.
func jsonPages(tb testing.TB, n int) [][]byte {
	tb.Helper()
	var pages [][]byte
	for start := 0; start < n; start += paging.DefaultPageSize {
		items := make([]api.Tag, 0, paging.DefaultPageSize)
		for i := start; i < min(start+paging.DefaultPageSize, n); i++ {
			items = append(items, synthTag(i))
		}
		b, err := json.Marshal(items)
		if err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, b)
	}
	return pages
}

// decodingSource serves the encoded pages, decoding each on request.
func decodingSource(pages [][]byte, n int) paging.Source[api.Tag] {
	return func(_ context.Context, req paging.Request) (paging.Result[api.Tag], error) {
		start, err := startOf(req)
		if err != nil {
			return paging.Result[api.Tag]{}, err
		}
		res := paging.Result[api.Tag]{Total: int64(n), Skipped: req.Skip}
		if start >= n {
			return res, nil
		}
		if err := json.Unmarshal(pages[start/paging.DefaultPageSize], &res.Items); err != nil {
			return res, err
		}
		if end := start + len(res.Items); end < n {
			res.Next = strconv.Itoa(end)
		}
		return res, nil
	}
}

// program runs cmd and what follows as Bubble Tea does: each command in a
// goroutine of its own, a sequence's in order, their messages to update
// one at a time, so pages arrive while the filter runs, as they do on
// screen. It returns when no command is left. deliver says which messages
// go to update (nil: every one; the rest is not run), and after, when not
// nil, is called after each one delivered.
func program(update func(tea.Msg) tea.Cmd, cmd tea.Cmd, deliver func(tea.Msg) bool, after func()) {
	msgs := make(chan tea.Msg, 64)
	running := 0
	start := func(c tea.Cmd) {
		if c == nil {
			return
		}
		running++
		go func() { msgs <- c() }()
	}
	start(cmd)
	for running > 0 {
		msg := <-msgs
		running--
		if seq := viewstest.Sequence(msg); seq != nil {
			// In order: each after the one before has answered.
			running += len(seq)
			go func() {
				for _, c := range seq {
					var m tea.Msg
					if c != nil {
						m = c()
					}
					msgs <- m
				}
			}()
			continue
		}
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				start(c)
			}
			continue
		}
		if msg == nil || deliver != nil && !deliver(msg) {
			continue
		}
		start(update(msg))
		if after != nil {
			after()
		}
	}
}

// pagesAndResults are the messages the filter's benchmarks deliver: pages
// and the filter's answers (timers are not run).
func pagesAndResults(msg tea.Msg) bool {
	switch msg.(type) {
	case paging.PageMsg, search.ResultMsg:
		return true
	}
	return false
}

// cpuTime is the process's user and system time so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// scanOnce is `D` on a fresh table of the pages, with pattern kept in the
// filter line first ("" for none), until every page is read and the
// filter has answered for all of them. It returns the CPU and wall time
// taken and the matches shown at the end.
func scanOnce(tb testing.TB, pages [][]byte, n int, pattern string) (cpu, wall time.Duration, matches int) {
	tb.Helper()
	c := common()
	l := paging.New(context.Background(), decodingSource(pages, n), tagKey)
	cfg := tagConfig(c, l)
	cfg.Flag = &table.Flag[api.Tag]{Name: "deprecated", Noun: "tags", Is: func(t *api.Tag) bool { return t.Deprecated }}
	m := table.New(c, cfg)
	m.SetSize(benchWidth, benchHeight)
	drive := func(cmd tea.Cmd) { program(m.Update, cmd, pagesAndResults, nil) }
	drive(m.Init())
	startCPU, start := cpuTime(tb), time.Now()
	scan := m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"})
	if pattern != "" {
		drive(m.Update(tea.KeyPressMsg{Code: '/', Text: "/"}))
		for _, r := range pattern {
			drive(m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}))
		}
		drive(m.Update(tea.KeyPressMsg{Code: tea.KeyEnter}))
	}
	drive(scan)
	for !l.Done() {
		drive(l.Scan(3))
		if err, _ := l.Err(); err != nil {
			tb.Fatal(err)
		}
	}
	cpu, wall = cpuTime(tb)-startCPU, time.Since(start)
	if l.Loaded() != n {
		tb.Fatalf("scanned %d of %d", l.Loaded(), n)
	}
	if pattern == "" {
		return cpu, wall, 0
	}
	matches = shownCount(tb, m)
	// What the scan ends with is what the filter typed now finds.
	drive(m.Update(tea.KeyPressMsg{Code: tea.KeyEscape}))
	drive(m.Update(tea.KeyPressMsg{Code: '/', Text: "/"}))
	for _, r := range pattern {
		drive(m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}))
	}
	if fresh := shownCount(tb, m); fresh != matches {
		tb.Fatalf("/%s through the scan shows %d rows, typed after it %d", pattern, matches, fresh)
	}
	return cpu, wall, matches
}

// shownCount is the matches the filter line counts.
func shownCount(tb testing.TB, m *table.Model[api.Tag]) int {
	count := filterCount.FindStringSubmatch(ansi.Strip(m.View()))
	if count == nil {
		tb.Fatalf("no filter count on the screen:\n%s", ansi.Strip(m.View()))
	}
	n, _ := strconv.Atoi(strings.ReplaceAll(count[1], ",", ""))
	return n
}

// filterCount is the filter line's "matches/searched deprecated".
var filterCount = regexp.MustCompile(`([\d,]+)/([\d,]+) deprecated`)

// BenchmarkFilteredScan is `D` (the flagged rows of a whole collection,
// read a few pages at a time) with and without a filter kept on the line,
// measured side by side in each iteration: the target is a
// filtered scan costing at most 1.3× the CPU of a plain one. "fips" matches
// a seventh of the names; "1" nearly every row, so the merge of each page
// into the matches is at its largest.
func BenchmarkFilteredScan(b *testing.B) {
	for _, n := range []int{100_000, 500_000} {
		pages := jsonPages(b, n)
		for _, pattern := range []string{"fips", "1"} {
			b.Run("n="+strconv.Itoa(n)+"/"+pattern, func(b *testing.B) {
				var plainCPU, filteredCPU, plainWall, filteredWall time.Duration
				matches := 0
				for range b.N {
					cpu, wall, _ := scanOnce(b, pages, n, "")
					plainCPU, plainWall = plainCPU+cpu, plainWall+wall
					cpu, wall, matches = scanOnce(b, pages, n, pattern)
					filteredCPU, filteredWall = filteredCPU+cpu, filteredWall+wall
				}
				ms := func(d time.Duration) float64 { return float64(d) / float64(b.N) / 1e6 }
				b.ReportMetric(ms(plainCPU), "plain-cpu-ms")
				b.ReportMetric(ms(filteredCPU), "filtered-cpu-ms")
				b.ReportMetric(float64(filteredCPU)/float64(plainCPU), "cpu-ratio")
				b.ReportMetric(ms(plainWall), "plain-wall-ms")
				b.ReportMetric(ms(filteredWall), "filtered-wall-ms")
				b.ReportMetric(float64(matches), "matches")
			})
		}
	}
}
