package ui

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/theme"
)

// waitCond waits until the frame satisfies cond.
func (r *running) waitCond(tb testing.TB, what string, cond func(string) bool) string {
	tb.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		s := r.screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the screen never showed %s:\n%s", what, s)
		}
		select {
		case <-r.frames.wake:
		case <-time.After(5 * time.Millisecond):
		}
	}
}

var (
	allCountedRE = regexp.MustCompile(`([\d,]+) of ([\d,]+) repos counted`)
	allScannedRE = regexp.MustCompile(`all [\d,]+ tags scanned`)
)

// BenchmarkOverviewLarge measures :overview on the large demo (7,700
// repos, about 518,000 tags in the organization), over HTTP: from the
// command to its first frame, and to every repo counted, with the most
// requests it had under way and the heap it left; beside it the peer,
// the way to the same numbers before it: :deprecated of the organization
// (a table scanning every tag).
func BenchmarkOverviewLarge(b *testing.B) {
	srv := keyPathServer(b, "large")
	var inFlight, most atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		srv.ServeHTTP(w, r)
	}))
	defer hs.Close()
	run := func(b *testing.B, command string, done func(string) bool, first string) {
		var paint, all time.Duration
		var heap uint64
		for range b.N {
			client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "bench")})
			if err != nil {
				b.Fatal(err)
			}
			m := New(Options{Client: client, Org: srv.OrgUID(), Host: "bench", Identity: "admin (bench)",
				Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }})
			r := runProgram(b, m)
			r.waitScreen(b, "platform")
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			most.Store(0)
			r.keys(b, ":"+command)
			t0 := time.Now()
			r.p.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
			r.waitCond(b, "its first frame", func(s string) bool { return strings.Contains(s, first) })
			paint += time.Since(t0)
			r.waitCond(b, "every count", done)
			all += time.Since(t0)
			runtime.GC()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			heap += after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
			r.p.Quit()
			<-r.done
			m.Close()
		}
		n := float64(b.N)
		b.ReportMetric(float64(paint.Microseconds())/n/1e3, "ms-first-frame")
		b.ReportMetric(all.Seconds()/n, "s-all-counted")
		b.ReportMetric(float64(most.Load()), "most-in-flight")
		b.ReportMetric(float64(heap)/n/1e6, "MB-heap-kept")
	}
	b.Run("overview", func(b *testing.B) {
		run(b, "overview", func(s string) bool {
			m := allCountedRE.FindStringSubmatch(s)
			return m != nil && m[1] == m[2] && !strings.Contains(s, "scanning") && strings.Contains(s, "repos with any")
		}, "Deprecated tags")
	})
	b.Run("peer-deprecated-table", func(b *testing.B) {
		run(b, "deprecated", func(s string) bool { return allScannedRE.MatchString(s) }, "tags under")
	})
}
