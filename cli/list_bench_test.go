package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
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
// the same pages, the three in every iteration, so that the machine's load
// falls on all of them alike:
//
//   - walk: the client's ListTags, following nextPageToken over one
//     keep-alive connection, every page discarded: the floor, what the
//     network and the server cost;
//   - json, table: runList as a user runs it (config, token, organization,
//     the repos' names, the walk, the printer), its stdout counted and
//     discarded.
//
// Each is reported as its median over the iterations (ms), its ratio to
// the walk, and its heap: the peak of heap objects, garbage included
// (peak-MB), and the most a GC found live (live-MB), sampled every
// millisecond. Two sizes: medium (≈ 5·10⁴ tags in the organization) and
// large (≈ 5·10⁵), to see what grows with the rows: the printed rows must
// not; the cursor's set of the keys read (≈ 10 bytes a row) does.
// Run with -benchtime 5x: an iteration of large takes some 20 s.
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
		{"walk", func(*countingWriter) (int, error) { return plainWalk(ctx, client, org) }},
		{"json", func(w *countingWriter) (int, error) { return listRows(ctx, getenv, w, "-o", "json") }},
		{"table", func(w *countingWriter) (int, error) { return listRows(ctx, getenv, w, "-o", "table") }},
	}
	took := make([][]float64, len(modes))
	peak, live := make([]float64, len(modes)), make([]float64, len(modes))
	rows, outBytes := make([]int64, len(modes)), make([]int64, len(modes))
	for iter := 0; b.Loop(); iter++ {
		// Each iteration starts with the next way, so that none is always
		// the one after the same other (the emulator collecting the last
		// one's garbage, say).
		for k := range modes {
			i := (iter + k) % len(modes)
			m := modes[i]
			runtime.GC() // each starts from the same heap
			var out countingWriter
			stop := samplePeakHeap()
			start := time.Now()
			n, err := m.run(&out)
			d := time.Since(start)
			heap, kept := stop()
			if err != nil {
				b.Fatalf("%s: %v", m.name, err)
			}
			took[i] = append(took[i], d.Seconds()*1000)
			peak[i], live[i] = max(peak[i], float64(heap)/(1<<20)), max(live[i], float64(kept)/(1<<20))
			rows[i], outBytes[i] = int64(n), out.n
		}
		// What a user sees: every tag of the walk, as an element of the
		// JSON array and as a row of the table.
		if rows[0] == 0 || rows[1] != rows[0] || rows[2] != rows[0] {
			b.Fatalf("rows: walk %d, json %d, table %d", rows[0], rows[1], rows[2])
		}
	}
	walk := median(took[0])
	for i, m := range modes {
		b.ReportMetric(median(took[i]), m.name+"-ms")
		b.ReportMetric(peak[i], m.name+"-peak-MB")
		b.ReportMetric(live[i], m.name+"-live-MB")
		if i > 0 {
			b.ReportMetric(median(took[i])/walk, m.name+"/walk")
		}
	}
	b.Logf("%s: %d tags; output %.1f MB json, %.1f MB table", size, rows[0], float64(outBytes[1])/1e6, float64(outBytes[2])/1e6)
}

// plainWalk fetches every page of the organization's tags by name, as
// canopy list asks for them, and keeps nothing but their count.
func plainWalk(ctx context.Context, client *api.Client, org string) (int, error) {
	opts := api.ListOptions{DescendantsOf: org, OrderBy: api.OrderName}
	n := 0
	for {
		p, err := client.ListTags(ctx, opts)
		if err != nil {
			return n, err
		}
		n += len(p.Items)
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
}

// elementStart begins each element of the array jsonPrinter writes (its
// nested objects are indented further).
var elementStart = []byte("\n  {")

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	w.lines += int64(bytes.Count(p, []byte{'\n'}))
	w.elements += int64(bytes.Count(p, elementStart))
	if len(w.tail) > 0 {
		across := append(slices.Clone(w.tail), p[:min(len(p), len(elementStart)-1)]...)
		w.elements += int64(bytes.Count(across, elementStart))
	}
	w.tail = append(w.tail[:0], p[max(0, len(p)-(len(elementStart)-1)):]...)
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
