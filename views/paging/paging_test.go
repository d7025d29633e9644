package paging

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
)

type item struct{ uid string }

func key(it *item) string { return it.uid }

// fakeSource serves n items "u0".."u{n-1}" with tokens that encode the next
// position; expire makes every token restart from 0, as an expired one does.
type fakeSource struct {
	n          int
	expire     atomic.Bool
	fail       atomic.Bool
	ignoreSkip bool // answer a skip request from the top, as some servers do
	// omitSkipped leaves skipped out of every answer (it reads as 0);
	// renew gives every answer items never seen before (a server whose
	// data moves under the walk, or a hostile one).
	omitSkipped, renew bool
	// serves is the most items a page holds (200 when 0), as a server (or
	// a user's --page-size) may cap it below what is asked.
	serves   int
	requests []Request
}

func (f *fakeSource) source(_ context.Context, req Request) (Result[item], error) {
	f.requests = append(f.requests, req)
	if f.fail.Load() {
		return Result[item]{}, errors.New("boom")
	}
	start := req.Skip
	if f.ignoreSkip {
		start = 0
	}
	if req.Token != "" {
		pos, _ := strconv.Atoi(req.Token)
		start = pos + req.Skip
		if f.expire.Load() {
			start = 0
		}
	}
	start = min(start, f.n)
	most := 200
	if f.serves > 0 {
		most = f.serves
	}
	end := min(start+min(req.Size, most), f.n)
	res := Result[item]{Total: int64(f.n), Skipped: start}
	if req.Token != "" {
		res.Skipped = req.Skip
		if f.ignoreSkip {
			res.Skipped = 0
		}
	}
	if f.omitSkipped {
		res.Skipped = 0
	}
	for i := start; i < end; i++ {
		uid := fmt.Sprintf("u%d", i)
		if f.renew {
			uid = fmt.Sprintf("r%d-u%d", len(f.requests), i)
		}
		res.Items = append(res.Items, item{uid: uid})
	}
	if end < f.n {
		res.Next = strconv.Itoa(end)
	}
	return res, nil
}

// run executes cmd (and what it batches) synchronously, feeding each answer
// back into l; it returns how many pages came back.
func run(t *testing.T, l *List[item], cmd tea.Cmd) int {
	t.Helper()
	n := 0
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case PageMsg:
			n++
			_, next := l.Update(msg)
			queue = append(queue, next)
		}
	}
	return n
}

func checkRow(t *testing.T, l *List[item], pos int) {
	t.Helper()
	it, ok := l.At(pos)
	if !ok {
		t.Fatalf("row %d not loaded", pos)
	}
	if want := fmt.Sprintf("u%d", pos); it.uid != want {
		t.Fatalf("row %d = %s, want %s", pos, it.uid, want)
	}
}

func TestWalkFollowsTokens(t *testing.T) {
	src := &fakeSource{n: 1000}
	l := New(context.Background(), src.source, key)
	run(t, l, l.Start())
	if l.Total() != 1000 || l.Loaded() != 200 {
		t.Fatalf("after first page: total %d loaded %d", l.Total(), l.Loaded())
	}
	for cursor := 0; cursor < 1000; cursor++ {
		run(t, l, l.Ensure(cursor, 50))
		checkRow(t, l, cursor)
	}
	if got := len(src.requests); got != 5 {
		t.Errorf("walking 1000 rows took %d requests, want ceil(1000/200)=5", got)
	}
	for _, r := range src.requests[1:] {
		if r.Token == "" {
			t.Errorf("walk used a skip request %+v; want tokens", r)
		}
	}
	if !l.Done() {
		t.Error("not done after walking everything")
	}
}

func TestJumpToEndIsOneRequest(t *testing.T) {
	src := &fakeSource{n: 100_000}
	l := New(context.Background(), src.source, key)
	run(t, l, l.Start())
	before := len(src.requests)
	run(t, l, l.Ensure(99_999, 0))
	if got := len(src.requests) - before; got != 1 {
		t.Fatalf("G took %d requests, want 1", got)
	}
	if r := src.requests[before]; r.Skip != 99_800 || r.Token != "" {
		t.Fatalf("G request %+v, want skip 99800", r)
	}
	checkRow(t, l, 99_999)
	checkRow(t, l, 99_800)
	// Scrolling up from the end fills the gap backwards, one page at a time.
	before = len(src.requests)
	for cursor := 99_799; cursor >= 99_400; cursor-- {
		run(t, l, l.Ensure(cursor, 0))
		checkRow(t, l, cursor)
	}
	if got := len(src.requests) - before; got != 2 {
		t.Errorf("scrolling 400 rows up took %d requests, want 2", got)
	}
}

func TestWindowsMerge(t *testing.T) {
	src := &fakeSource{n: 1000}
	l := New(context.Background(), src.source, key)
	run(t, l, l.Start())
	run(t, l, l.Ensure(999, 0))
	for cursor := 0; cursor < 1000; cursor++ {
		run(t, l, l.Ensure(cursor, 0))
	}
	if len(l.windows) != 1 || l.Contiguous() != 1000 || !l.Done() {
		t.Fatalf("windows %d contiguous %d", len(l.windows), l.Contiguous())
	}
	seen := map[string]bool{}
	l.Each(func(pos int, it *item) bool {
		if seen[it.uid] {
			t.Fatalf("duplicate %s", it.uid)
		}
		seen[it.uid] = true
		return true
	})
}

func TestExpiredTokenDoesNotDuplicate(t *testing.T) {
	src := &fakeSource{n: 600}
	l := New(context.Background(), src.source, key)
	run(t, l, l.Start())
	src.expire.Store(true)
	run(t, l, l.Ensure(199, 50))
	if l.Loaded() != 400 {
		t.Fatalf("loaded %d, want 400", l.Loaded())
	}
	for pos := 0; pos < 400; pos++ {
		checkRow(t, l, pos)
	}
	last := src.requests[len(src.requests)-1]
	if last.Token != "" || last.Skip != 200 {
		t.Fatalf("after a restart the list asked %+v, want skip 200", last)
	}
}

func TestStaleAnswersAreDropped(t *testing.T) {
	src := &fakeSource{n: 500}
	l := New(context.Background(), src.source, key)
	first := l.Start()
	reset := l.Reset("name")
	if changed, _ := l.Update(first().(PageMsg)); changed {
		t.Fatal("an answer from before Reset was accepted")
	}
	run(t, l, reset)
	if l.Loaded() != 200 || l.Order() != "name" {
		t.Fatalf("loaded %d order %q", l.Loaded(), l.Order())
	}
	other := New(context.Background(), src.source, key)
	if changed, _ := other.Update(reset().(PageMsg)); changed {
		t.Fatal("a list accepted another list's answer")
	}
}

func TestErrorThenRetry(t *testing.T) {
	src := &fakeSource{n: 500}
	l := New(context.Background(), src.source, key)
	run(t, l, l.Start())
	src.fail.Store(true)
	run(t, l, l.Ensure(190, 50))
	if err, at := l.Err(); err == nil || at != 200 {
		t.Fatalf("err %v at %d", err, at)
	}
	if cmd := l.Ensure(191, 50); cmd != nil {
		if run(t, l, cmd) != 0 {
			t.Fatal("a failed list kept requesting without a retry")
		}
	}
	src.fail.Store(false)
	run(t, l, l.Retry(191, 50))
	if err, _ := l.Err(); err != nil {
		t.Fatal(err)
	}
	checkRow(t, l, 250)
}

func TestCancelledContextHidesError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	src := &fakeSource{n: 500}
	l := New(ctx, src.source, key)
	cmd := l.Start()
	cancel()
	src.fail.Store(true)
	if changed, _ := l.Update(cmd().(PageMsg)); changed {
		t.Fatal("a cancelled request's error was shown")
	}
}

func TestWalkAfterAJumpSurvivesExpiredTokens(t *testing.T) {
	src := &fakeSource{n: 100_000}
	l := New(context.Background(), src.source, key)
	l.total = 100_000 // as if the first page had told it, without loading position 0
	src.expire.Store(true)
	for cursor := 50_000; cursor < 50_600; cursor++ {
		run(t, l, l.Ensure(cursor, 50))
		checkRow(t, l, cursor)
	}
}

// A failed page stays failed until a retry, but moving elsewhere goes on
// loading: after G fails, scrolling back up loads the rows above it.
func TestAFailedPageDoesNotStopTheRestFromLoading(t *testing.T) {
	src := &fakeSource{n: 5000}
	l := New(context.Background(), src.source, key)
	run(t, l, l.Start())
	src.fail.Store(true)
	run(t, l, l.Ensure(4999, 50)) // G: the last page fails
	if !l.FailedAt(4999) || l.FailedAt(3000) {
		t.Fatalf("failed span wrong: 4999 %v, 3000 %v", l.FailedAt(4999), l.FailedAt(3000))
	}
	src.fail.Store(false)
	before := len(src.requests)
	if run(t, l, l.Ensure(4999, 0)) != 0 {
		t.Error("the failed page was asked again without a retry")
	}
	run(t, l, l.Ensure(3000, 50)) // pgup far above it
	checkRow(t, l, 3000)
	if len(src.requests) == before {
		t.Error("nothing was asked for the rows above the failure")
	}
	run(t, l, l.Retry(4999, 50))
	checkRow(t, l, 4999)
	if err, _ := l.Err(); err != nil || l.FailedAt(4999) {
		t.Errorf("after the retry: %v", err)
	}
}

// Watch is told of each page the list takes, with the server's total; a
// page the list drops (asked before a reset) is not told.
func TestWatchIsToldThePagesTaken(t *testing.T) {
	f := &fakeSource{n: 450}
	l := New(context.Background(), f.source, key)
	var pages, items, total int
	l.Watch(func(its []item, n int) { pages, items, total = pages+1, items+len(its), n })
	stale := l.Start()
	run(t, l, l.Reset(""))
	run(t, l, stale) // the first generation's page: dropped, not told
	if pages != 1 || items != 200 || total != 450 {
		t.Fatalf("told %d pages, %d items, total %d; want 1, 200, 450", pages, items, total)
	}
	run(t, l, l.Ensure(200, 200))
	if pages < 2 || items < 400 {
		t.Errorf("told %d pages, %d items after more loaded", pages, items)
	}
}
