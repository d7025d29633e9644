package table_test

import (
	"context"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/views/columns"
	"canopy/views/paging"
	"canopy/views/table"
)

// heapObjects is the bytes of live and not yet swept heap objects: read
// after every message, its largest value is the peak a scan reached.
func heapObjects(sample []metrics.Sample) uint64 {
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// scanMemory is one screen of n synthetic tags (one in ten deprecated):
// the first page only ("plain"), or D over all of them ("D"), or s to the
// tags' version order then D at once ("version D"). It returns the heap the table keeps
// at the end and the most it held on the way (both after what was there
// before it), and the CPU the scan took.
func scanMemory(tb testing.TB, n int, how string) (kept, peak int64, cpu time.Duration, flagged, requests int) {
	tb.Helper()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	base := heapObjects(sample)
	most := base
	after := func() { most = max(most, heapObjects(sample)) }
	startCPU := cpuTime(tb)

	c := common()
	l := paging.New(context.Background(), tagSource(n), tagKey)
	cfg := tagConfig(c, l)
	cfg.Flag = &table.Flag[api.Tag]{Name: "deprecated", Noun: "tags", Is: func(t *api.Tag) bool { return t.Deprecated }}
	cfg.Orders = []table.Order{{Label: "name", OrderBy: api.OrderName}, {Label: "version", OrderBy: api.OrderName, Local: true}}
	cfg.Sort = columns.ByVersion(func(t *api.Tag) string { return t.Name })
	m := table.New(c, cfg)
	m.SetSize(benchWidth, benchHeight)
	program(m.Update, m.Init(), nil, after)
	var keys []tea.Cmd
	if how == "version D" {
		keys = append(keys, m.Update(tea.KeyPressMsg{Code: 's', Text: "s"}))
	}
	if how != "plain" {
		keys = append(keys, m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"}))
		program(m.Update, tea.Batch(keys...), nil, after)
		if !l.Done() {
			tb.Fatalf("D read %d of %d", l.Loaded(), n)
		}
	}
	cpu = cpuTime(tb) - startCPU
	if v := m.View(); len(v) == 0 {
		tb.Fatal("no frame")
	}
	runtime.GC()
	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	runtime.KeepAlive(m)
	if how != "plain" {
		count := shownFlagged.FindStringSubmatch(ansi.Strip(m.View()))
		if count == nil {
			tb.Fatalf("no count of deprecated rows:\n%s", ansi.Strip(m.View()))
		}
		flagged, _ = strconv.Atoi(strings.ReplaceAll(count[1], ",", ""))
	}
	return int64(end.HeapAlloc) - int64(before.HeapAlloc), int64(most) - int64(base), cpu, flagged, l.Requests()
}

// shownFlagged is the info line's "1 of 49,997 deprecated".
var shownFlagged = regexp.MustCompile(`of ([\d,]+) deprecated`)

// BenchmarkScanMemory is what a scan for the deprecated tags of 500,000
// keeps (kept-B/tag, after a GC) and the most heap it reached on the way
// (peak-B/tag), per tag read, beside the same table showing its first page
// without D (plain): issue 39's target is a D view holding what it shows
// (one tag in ten here) and a bounded window, not every tag it read, and
// its version order costing at most 50 B a tag more. cpu-ms is the whole
// screen's CPU (all cores), from the table made to the scan done; shown
// the deprecated rows the info line counts; requests the pages asked for.
func BenchmarkScanMemory(b *testing.B) {
	const n = 500_000
	for _, how := range []string{"plain", "D", "version D"} {
		b.Run(how, func(b *testing.B) {
			var kept, peak int64
			var cpu time.Duration
			flagged, requests := 0, 0
			for b.Loop() {
				k, p, c, f, r := scanMemory(b, n, how)
				kept, peak, cpu, flagged, requests = kept+k, peak+p, cpu+c, f, r
			}
			per := func(v int64) float64 { return float64(v) / float64(b.N) / n }
			b.ReportMetric(per(kept), "kept-B/tag")
			b.ReportMetric(per(peak), "peak-B/tag")
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms")
			b.ReportMetric(float64(flagged), "shown")
			b.ReportMetric(float64(requests), "requests")
		})
	}
}
