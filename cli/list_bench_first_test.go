package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api"
)

// BenchmarkListFirstMatch is issue 39's item 2 read off one run, many
// times: against the large emulator in a child process (as
// BenchmarkListStream's), each iteration runs `canopy list tags -o json`
// until it has printed two pages (the unfiltered walk's "first page or
// two"), then `--filter fips` with -o json and -o table until each has
// printed its first match, and stops each there (its context cancelled).
// Reported: the medians of the unfiltered JSON's first and second page
// printed (json-page1-ms, json-page2-ms), of each first match, and the
// first match over the second page: at most 1 meets the target.
// Run with -benchtime 30x (seeding the emulator takes some 10 s, an
// iteration some 100 ms).
func BenchmarkListFirstMatch(b *testing.B) {
	url, org := startBenchEmulator(b, "large")
	home := b.TempDir()
	vars := map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "bench-token", "CANOPY_ORG": org, "HOME": home,
		"XDG_CONFIG_HOME": home + "/cfg", "XDG_STATE_HOME": home + "/state"}
	getenv := func(k string) string { return vars[k] }
	// until runs canopy list tags with args until done says what it has
	// printed is enough, and returns when that was.
	until := func(done func(w *countingWriter) bool, args ...string) time.Duration {
		ctx, cancel := context.WithCancel(b.Context())
		defer cancel()
		w := &stoppingWriter{countingWriter: countingWriter{start: time.Now()}, done: done, stop: cancel}
		var errs bytes.Buffer
		code := runList(ctx, append([]string{"tags"}, args...), getenv, w, &errs)
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.at == 0 {
			b.Fatalf("canopy list tags %s ended (exit %d, %s) before it printed enough", strings.Join(args, " "), code, errs.String())
		}
		return w.at
	}
	twoPages := func(w *countingWriter) bool { return w.pageAt[1] != 0 }
	anything := func(w *countingWriter) bool { return w.n > 0 }
	ways := []struct {
		name string
		run  func() time.Duration
	}{
		{"json-page2", func() time.Duration { return until(twoPages, "-o", "json") }},
		{"filter-json-first", func() time.Duration { return until(anything, "-o", "json", "--filter", benchFilter) }},
		{"filter-table-first", func() time.Duration { return until(anything, "-o", "table", "--filter", benchFilter) }},
	}
	took := make([][]float64, len(ways))
	var page1 []float64
	for iter := 0; b.Loop(); iter++ {
		for k := range ways {
			i := (iter + k) % len(ways) // none always after the same other
			took[i] = append(took[i], ways[i].run().Seconds()*1000)
		}
		page1 = append(page1, until(func(w *countingWriter) bool { return w.pageAt[0] != 0 }, "-o", "json").Seconds()*1000)
	}
	b.ReportMetric(median(page1), "json-page1-ms")
	for i, w := range ways {
		b.ReportMetric(median(took[i]), w.name+"-ms")
		if i > 0 {
			b.ReportMetric(median(took[i])/median(took[0]), w.name+"/json-page2")
		}
	}
	b.Logf("%s: %d iterations", fmt.Sprint(api.MaxPageSize)+" tags a page", len(page1))
}

// stoppingWriter is a countingWriter that notes when done first holds of
// what it was given, and then calls stop.
type stoppingWriter struct {
	countingWriter
	done func(*countingWriter) bool
	stop func()
	mu   sync.Mutex
	at   time.Duration
}

func (w *stoppingWriter) Write(p []byte) (int, error) {
	n, err := w.countingWriter.Write(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.at == 0 && w.done(&w.countingWriter) {
		w.at = time.Since(w.start)
		w.stop()
	}
	return n, err
}
