package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"canopy/api"
	"canopy/safe"
)

// plainJSONWalk is the peer of `canopy list tags -o json`: the client's
// ListTags following nextPageToken over one keep-alive connection, each
// page written as it arrives, the bytes canopy list writes (the whole
// array indented by two spaces, escaped as safe.JSON escapes it), and
// nothing else: no fetching ahead, no check for repeats, no lookup.
func plainJSONWalk(ctx context.Context, client *api.Client, org string, w io.Writer) (int, error) {
	opts := api.ListOptions{DescendantsOf: org, OrderBy: api.OrderName}
	n := 0
	var buf bytes.Buffer // a page's encoding, reused: the fastest plain way
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	for {
		p, err := client.ListTags(ctx, opts)
		if err != nil {
			return n, err
		}
		if len(p.Items) > 0 {
			buf.Reset()
			if err := enc.Encode(p.Items); err != nil {
				return n, err
			}
			b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			sep := ",\n"
			if n == 0 {
				sep = "[\n"
			}
			if _, err := io.WriteString(w, sep); err != nil {
				return n, err
			}
			if _, err := io.WriteString(w, safe.JSON(string(b[len("[\n"):len(b)-len("\n]")]))); err != nil {
				return n, err
			}
			n += len(p.Items)
		}
		if p.NextPageToken == "" {
			end := "\n]\n"
			if n == 0 {
				end = "[]\n"
			}
			_, err := io.WriteString(w, end)
			return n, err
		}
		opts.PageToken = p.NextPageToken
	}
}

// cpuTime is the CPU this process has used so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchChildEnv says which way TestListBenchChild runs: "plain" or "list",
// then the emulator's URL and organization, space-separated.
const benchChildEnv = "CANOPY_LIST_BENCH_CHILD"

// TestListBenchChild is not a test: it is one way of BenchmarkListTagsJSON,
// run in a process of its own (this test binary, started again) so that
// its resident memory and CPU are its own. It writes the JSON of the
// organization's tags to file descriptor 3 (stdout takes the test
// framework's own words).
func TestListBenchChild(t *testing.T) {
	spec := os.Getenv(benchChildEnv)
	if spec == "" {
		t.Skip("a process of BenchmarkListTagsJSON; runs only when it starts it")
	}
	var way, url, org string
	if _, err := fmt.Sscan(spec, &way, &url, &org); err != nil {
		t.Fatal(err)
	}
	out := os.NewFile(3, "out")
	defer out.Close()
	switch way {
	case "plain":
		client, err := api.New(api.Options{BaseURL: url, TokenSource: api.StaticToken("bench-token", "benchmark"), PageSize: api.MaxPageSize})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := plainJSONWalk(t.Context(), client, org, out); err != nil {
			t.Fatal(err)
		}
	case "list":
		home := t.TempDir()
		vars := map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "bench-token", "CANOPY_ORG": org, "HOME": home,
			"XDG_CONFIG_HOME": home + "/cfg", "XDG_STATE_HOME": home + "/state"}
		if code := runList(t.Context(), []string{"tags", "-o", "json"}, func(k string) string { return vars[k] }, out, os.Stderr); code != 0 {
			t.Fatalf("exit %d", code)
		}
	}
}

// childRun is what one process of BenchmarkListTagsJSON did: when its first
// byte came and its last, its CPU and peak resident memory, and its
// output's length and checksum.
type childRun struct {
	first, wall, cpu time.Duration
	rss              int64 // bytes
	n                int64
	sum              uint32
}

// runChild runs way ("plain" or "list") in a process of its own against
// the emulator at url.
func runChild(b *testing.B, way, url, org string) childRun {
	b.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestListBenchChild$")
	cmd.Env = append(os.Environ(), benchChildEnv+"="+way+" "+url+" "+org)
	cmd.Stderr = os.Stderr
	cmd.ExtraFiles = []*os.File{w}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	w.Close()
	var run childRun
	crc := crc32.NewIEEE()
	in := bufio.NewReaderSize(r, 1<<16)
	buf := make([]byte, 1<<16)
	for {
		k, err := in.Read(buf)
		if k > 0 && run.n == 0 {
			run.first = time.Since(start)
		}
		run.n += int64(k)
		crc.Write(buf[:k])
		if err != nil {
			break
		}
	}
	r.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatalf("%s: %v", way, err)
	}
	run.wall, run.sum = time.Since(start), crc.Sum32()
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	run.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	run.rss = ru.Maxrss << 10 // KiB on Linux
	return run
}

// BenchmarkListTagsJSON measures `canopy list tags -o json` against its
// peer, a plain keep-alive walk writing the same bytes (plainJSONWalk),
// each in a process of its own (this test binary, started again: both pay
// the same start), one after the other in every iteration, alternating
// which goes first: the time of the first byte written, the CPU, the
// peak resident memory and the wall time, as medians, and each ratio.
// The run fails unless both wrote the same bytes.
func BenchmarkListTagsJSON(b *testing.B) {
	for _, size := range []string{"medium", "large"} {
		b.Run(size, func(b *testing.B) {
			url, org := startBenchEmulator(b, size)
			ways := []string{"plain", "list"}
			var first, cpu, rss, wall [2][]float64
			for iter := 0; b.Loop(); iter++ {
				var runs [2]childRun
				for k := range ways {
					i := (iter + k) % len(ways)
					runs[i] = runChild(b, ways[i], url, org)
					first[i] = append(first[i], runs[i].first.Seconds()*1000)
					cpu[i] = append(cpu[i], runs[i].cpu.Seconds()*1000)
					rss[i] = append(rss[i], float64(runs[i].rss)/(1<<20))
					wall[i] = append(wall[i], runs[i].wall.Seconds()*1000)
				}
				if runs[0].n == 0 || runs[0].n != runs[1].n || runs[0].sum != runs[1].sum {
					b.Fatalf("plain wrote %d bytes (crc %08x), canopy list %d (%08x)", runs[0].n, runs[0].sum, runs[1].n, runs[1].sum)
				}
			}
			for i, way := range ways {
				b.ReportMetric(median(first[i]), way+"-first-ms")
				b.ReportMetric(median(cpu[i]), way+"-cpu-ms")
				b.ReportMetric(median(rss[i]), way+"-rss-MB")
				b.ReportMetric(median(wall[i]), way+"-ms")
			}
			b.ReportMetric(median(first[1])/median(first[0]), "first/plain")
			b.ReportMetric(median(cpu[1])/median(cpu[0]), "cpu/plain")
			b.ReportMetric(median(rss[1])/median(rss[0]), "rss/plain")
			b.ReportMetric(median(wall[1])/median(wall[0]), "wall/plain")
		})
	}
}
