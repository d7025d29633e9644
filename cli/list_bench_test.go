package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api"
)

// benchEmulatorEnv names the size of the emulator the test binary serves
// when BenchmarkListStream starts it as a child process.
const benchEmulatorEnv = "CANOPY_LIST_BENCH_EMULATOR"

// TestListBenchEmulator is not a test: it is the emulator BenchmarkListStream
// runs in a process of its own (this test binary, started again), so that
// the benchmark's heap is canopy list's alone, as a user's would be, and
// the server's seeded data and garbage neither count nor pace its GC. It
// serves until its stdin closes (the benchmark ends, or dies).
func TestListBenchEmulator(t *testing.T) {
	t.Parallel()
	size := os.Getenv(benchEmulatorEnv)
	if size == "" {
		t.Skip("the emulator process of BenchmarkListStream; runs only when it starts it")
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	runEmulator(ctx, []string{"--addr", "127.0.0.1:0", "--size", size, "--seed", "1", "--token", "bench-token"}, os.Stdout, os.Stderr)
}

// startBenchEmulator starts the emulator of size in a child process and
// returns its URL and organization once it listens (seeding "large" takes
// some 10 s).
func startBenchEmulator(b *testing.B, size string) (url, org string) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run", "^TestListBenchEmulator$")
	cmd.Env = append(os.Environ(), benchEmulatorEnv+"="+size)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = stdin.Close() // the child's cue to stop; cancel kills it if it does not
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cancel()
			<-done
		}
		cancel()
	})
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		// listening on http://<addr> org=<uid>
		if rest, ok := strings.CutPrefix(lines.Text(), "listening on "); ok {
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			url, org, _ = strings.Cut(rest, " org=")
			return url, org
		}
	}
	b.Fatalf("the emulator process said no listening line: %v", lines.Err())
	return "", ""
}

// BenchmarkListStream measures `canopy list tags` against a plain walk of
// the same pages, every way in every iteration, so that the machine's load
// falls on all of them alike:
//
//   - walk: the client's ListTags, following nextPageToken over one
//     keep-alive connection, every page discarded: the floor, what the
//     network and the server cost;
//   - plain-json: the same walk writing the bytes `-o json` writes
//     (plainJSONWalk), the peer of json;
//   - json, table: runList as a user runs it (config, token, organization,
//     the repos' names for a table, the walk, the printer), its stdout
//     counted and discarded;
//   - filter-json, filter-table: the same with --filter benchFilter (the
//     matches printed as their pages arrive), and rank-json with --rank
//     too (the best rankMax kept, printed at the end).
//
// Each is reported as its median over the iterations (ms), the median time
// of its first byte (first-ms: for a filter, its first match), the median
// CPU of the process while it ran (cpu-ms; the emulator runs in a child),
// its ratio to the walk, and its heap: the peak of heap objects, garbage
// included (peak-MB), and the most a GC found live (live-MB), sampled
// every millisecond. Two sizes: medium (≈ 5·10⁴ tags in the organization)
// and large (≈ 5·10⁵), to see what grows with the rows: nothing should.
// The run fails unless json wrote plain-json's bytes, every way as many
// rows as the walk read, and the filtered ways the same matches.
// Run with -benchtime 3x: an iteration of large takes some 40 s.
func BenchmarkListStream(b *testing.B) {
	for _, size := range []string{"medium", "large"} {
		b.Run(size, func(b *testing.B) { benchListStream(b, size) })
	}
}

func benchListStream(b *testing.B, size string) {
	url, org := startBenchEmulator(b, size)
	home := b.TempDir()
	vars := map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "bench-token", "CANOPY_ORG": org, "HOME": home,
		"XDG_CONFIG_HOME": home + "/cfg", "XDG_STATE_HOME": home + "/state"}
	getenv := func(k string) string { return vars[k] }
	// The same pages as canopy list's: its page size is the largest.
	client, err := api.New(api.Options{BaseURL: url, TokenSource: api.StaticToken("bench-token", "benchmark"), PageSize: api.MaxPageSize})
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	modes := []struct {
		name string
		run  func(w *countingWriter) (rows int, err error)
	}{
		{"walk", func(w *countingWriter) (int, error) { return plainWalk(ctx, client, org, w) }},
		{"plain-json", func(w *countingWriter) (int, error) { return plainJSONWalk(ctx, client, org, w) }},
		{"json", func(w *countingWriter) (int, error) { return listRows(ctx, getenv, w, "-o", "json") }},
		{"table", func(w *countingWriter) (int, error) { return listRows(ctx, getenv, w, "-o", "table") }},
		{"filter-json", func(w *countingWriter) (int, error) {
			return listRows(ctx, getenv, w, "-o", "json", "--filter", benchFilter)
		}},
		{"filter-table", func(w *countingWriter) (int, error) {
			return listRows(ctx, getenv, w, "-o", "table", "--filter", benchFilter)
		}},
		{"rank-json", func(w *countingWriter) (int, error) {
			return listRows(ctx, getenv, w, "-o", "json", "--filter", benchFilter, "--rank")
		}},
	}
	const walkMode, plainMode, jsonMode, tableMode, filterJSON, filterTable, rankJSON = 0, 1, 2, 3, 4, 5, 6
	took, first, cpu := make([][]float64, len(modes)), make([][]float64, len(modes)), make([][]float64, len(modes))
	pageAt := make([][2][]float64, len(modes)) // when the walk read, and JSON printed, its first and second page
	peak, live := make([]float64, len(modes)), make([]float64, len(modes))
	rows, outBytes, sums := make([]int64, len(modes)), make([]int64, len(modes)), make([]uint32, len(modes))
	for iter := 0; b.Loop(); iter++ {
		// Each iteration starts with the next way, so that none is always
		// the one after the same other (the emulator collecting the last
		// one's garbage, say).
		for k := range modes {
			i := (iter + k) % len(modes)
			m := modes[i]
			runtime.GC() // each starts from the same heap
			out := countingWriter{sum: crc32.NewIEEE()}
			stop := samplePeakHeap()
			used := cpuTime()
			start := time.Now()
			out.start = start
			n, err := m.run(&out)
			d := time.Since(start)
			used = cpuTime() - used
			heap, kept := stop()
			if err != nil {
				b.Fatalf("%s: %v", m.name, err)
			}
			took[i] = append(took[i], d.Seconds()*1000)
			first[i] = append(first[i], out.first.Seconds()*1000)
			cpu[i] = append(cpu[i], used.Seconds()*1000)
			for p := range pageAt[i] {
				pageAt[i][p] = append(pageAt[i][p], out.pageAt[p].Seconds()*1000)
			}
			peak[i], live[i] = max(peak[i], float64(heap)/(1<<20)), max(live[i], float64(kept)/(1<<20))
			rows[i], outBytes[i], sums[i] = int64(n), out.n, out.sum.Sum32()
		}
		// What a user sees: every tag of the walk, as an element of the
		// JSON array (the peer's bytes) and as a row of the table; the same
		// matches in both outputs, and --rank the best of them.
		switch {
		case rows[walkMode] == 0 || rows[plainMode] != rows[walkMode] || rows[jsonMode] != rows[walkMode] || rows[tableMode] != rows[walkMode]:
			b.Fatalf("rows: walk %d, plain json %d, json %d, table %d", rows[walkMode], rows[plainMode], rows[jsonMode], rows[tableMode])
		case outBytes[plainMode] != outBytes[jsonMode] || sums[plainMode] != sums[jsonMode]:
			b.Fatalf("canopy list's JSON (%d bytes) is not the plain walk's (%d bytes)", outBytes[jsonMode], outBytes[plainMode])
		case rows[filterJSON] == 0 || rows[filterTable] != rows[filterJSON] || rows[rankJSON] != min(rows[filterJSON], rankMax):
			b.Fatalf("matches: json %d, table %d, ranked %d", rows[filterJSON], rows[filterTable], rows[rankJSON])
		}
	}
	walk := median(took[walkMode])
	for i, m := range modes {
		b.ReportMetric(median(took[i]), m.name+"-ms")
		b.ReportMetric(median(cpu[i]), m.name+"-cpu-ms")
		b.ReportMetric(peak[i], m.name+"-peak-MB")
		b.ReportMetric(live[i], m.name+"-live-MB")
		if i != walkMode {
			b.ReportMetric(median(first[i]), m.name+"-first-ms")
			b.ReportMetric(median(took[i])/walk, m.name+"/walk")
		}
	}
	b.ReportMetric(median(first[jsonMode])/median(first[plainMode]), "json-first/plain")
	// Item 2's "the first match within the time of the first page or two",
	// read off the same run: the bare walk's pages read, canopy list's
	// unfiltered JSON's pages printed, and the first match against them.
	for _, i := range []int{walkMode, jsonMode} {
		b.ReportMetric(median(pageAt[i][0]), modes[i].name+"-page1-ms")
		b.ReportMetric(median(pageAt[i][1]), modes[i].name+"-page2-ms")
	}
	for _, i := range []int{filterJSON, filterTable} {
		b.ReportMetric(median(first[i])/median(pageAt[walkMode][1]), modes[i].name+"-first/walk-page2")
		b.ReportMetric(median(first[i])/median(pageAt[jsonMode][1]), modes[i].name+"-first/json-page2")
	}
	b.ReportMetric(median(cpu[jsonMode])/median(cpu[plainMode]), "json-cpu/plain")
	b.Logf("%s: %d tags, %d match %q; output %.1f MB json, %.1f MB table", size, rows[walkMode], rows[filterJSON], benchFilter,
		float64(outBytes[jsonMode])/1e6, float64(outBytes[tableMode])/1e6)
}

// benchFilter is the --filter of the benchmark's filtered ways: about one
// tag in seven matches it, as the did (80,637 of 518,017).
const benchFilter = "fips"

// plainWalk fetches every page of the organization's tags by name, as
// canopy list asks for them, and keeps nothing but their count (and, in w,
// when its first pages came).
func plainWalk(ctx context.Context, client *api.Client, org string, w *countingWriter) (int, error) {
	opts := api.ListOptions{DescendantsOf: org, OrderBy: api.OrderName}
	n := 0
	for {
		p, err := client.ListTags(ctx, opts)
		if err != nil {
			return n, err
		}
		n += len(p.Items)
		w.reached(int64(n))
		if p.NextPageToken == "" {
			return n, nil
		}
		opts.PageToken = p.NextPageToken
	}
}

// listRows runs `canopy list tags` with args into w and counts the tags it
// printed: the JSON array's elements, or the table's lines after its
// header.
func listRows(ctx context.Context, getenv func(string) string, w *countingWriter, args ...string) (int, error) {
	var errs bytes.Buffer
	if code := runList(ctx, append([]string{"tags"}, args...), getenv, w, &errs); code != 0 {
		return 0, fmt.Errorf("canopy list tags %s: exit %d: %s", strings.Join(args, " "), code, errs.String())
	}
	if slices.Contains(args, "json") {
		return int(w.elements), nil
	}
	return int(w.lines) - 1, nil
}

// countingWriter counts what it is given, and discards it: bytes, lines,
// and lines that begin a top-level element of an indented JSON array.
type countingWriter struct {
	n, lines, elements int64
	tail               []byte // the last bytes written, for an element start split across writes
	start              time.Time
	first              time.Duration // from start to the first byte written
	sum                hash.Hash32   // the bytes' checksum, when set
	// pageAt: from start to when the rows (JSON's elements, or a walk's
	// tags) first reached a page, then two (api.MaxPageSize each).
	pageAt [2]time.Duration
}

// reached notes the time rows reached a page or two.
func (w *countingWriter) reached(rows int64) {
	for p := range w.pageAt {
		if w.pageAt[p] == 0 && rows >= int64(p+1)*api.MaxPageSize {
			w.pageAt[p] = time.Since(w.start)
		}
	}
}

// elementStart begins each element of the array jsonPrinter writes (its
// nested objects are indented further).
var elementStart = []byte("\n  {")

func (w *countingWriter) Write(p []byte) (int, error) {
	if w.n == 0 && len(p) > 0 {
		w.first = time.Since(w.start)
	}
	if w.sum != nil {
		w.sum.Write(p)
	}
	w.n += int64(len(p))
	w.lines += int64(bytes.Count(p, []byte{'\n'}))
	w.elements += int64(bytes.Count(p, elementStart))
	if len(w.tail) > 0 {
		across := append(slices.Clone(w.tail), p[:min(len(p), len(elementStart)-1)]...)
		w.elements += int64(bytes.Count(across, elementStart))
	}
	w.tail = append(w.tail[:0], p[max(0, len(p)-(len(elementStart)-1)):]...)
	w.reached(w.elements)
	return len(p), nil
}

// samplePeakHeap samples the heap every millisecond until stop, which
// returns the largest bytes of heap objects seen (live and not yet
// collected: what the process holds) and the largest live heap a GC
// marked (what it keeps). runtime/metrics reads them without stopping the
// world.
func samplePeakHeap() (stop func() (heap, live uint64)) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	var heap, live uint64
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			heap, live = max(heap, s[0].Value.Uint64()), max(live, s[1].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		return heap, live
	}
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
