package e2e

// The start-up benchmarks' peer and their bookkeeping: canopy, the peer
// and a baseline started in turn, and their medians reported.

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// teapeerFrame is what the peer's one frame shows (e2e/teapeer).
const teapeerFrame = "teapeer: the first frame"

// startupRun is one program a start-up benchmark starts in its loop, and
// what each of its starts took.
type startupRun struct {
	name  string // canopy, peer, baseline, peer-baseline
	bin   string
	args  []string
	wall  []time.Duration
	cpu   []time.Duration
	drawn []time.Duration // to the first frame of any kind, where it is not the full one
}

// add records one start.
func (r *startupRun) add(wall, cpu time.Duration) {
	r.wall = append(r.wall, wall)
	r.cpu = append(r.cpu, cpu)
}

// startupRuns are canopy and the peer, each to be run with args, and the
// baselines named: CANOPY_BASELINE another canopy (built from an earlier
// commit), TEAPEER_BASELINE another peer (e2e/teapeer built against that
// commit's go.mod, so with the dependencies' versions of then). The
// binaries are built here, before the benchmark's clock starts.
func startupRuns(b *testing.B, args []string) []*startupRun {
	b.Helper()
	runs := []*startupRun{
		{name: "canopy", bin: canopyBinary(b), args: args},
		{name: "peer", bin: teapeerBinary(b), args: args},
	}
	if old := os.Getenv("CANOPY_BASELINE"); old != "" {
		runs = append(runs, &startupRun{name: "baseline", bin: old, args: args})
	}
	if old := os.Getenv("TEAPEER_BASELINE"); old != "" {
		runs = append(runs, &startupRun{name: "peer-baseline", bin: old, args: args})
	}
	return runs
}

// teapeerBinary builds the peer (e2e/teapeer) as the benchmarks build
// canopy (-trimpath, the same module and so the same Bubble Tea).
func teapeerBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "teapeer")
	if out, err := exec.Command("go", "build", "-trimpath", "-o", bin, "canopy/e2e/teapeer").CombinedOutput(); err != nil {
		b.Fatalf("go build teapeer: %v\n%s", err, out)
	}
	return bin
}

// rotated is runs starting at the i-th (mod len), so that no program
// always runs first, or always right after another.
func rotated(runs []*startupRun, i int) []*startupRun {
	k := i % len(runs)
	return append(slices.Clone(runs[k:]), runs[:k]...)
}

// reportStartup reports each run's median wall time as unit-name, its
// median CPU as ms-cpu-name when withCPU, and canopy's (and the
// baseline's) over the peer's as x-peer (wall-x-peer and cpu-x-peer with
// the CPU).
func reportStartup(b *testing.B, runs []*startupRun, unit string, withCPU bool) {
	b.Helper()
	var peer *startupRun
	for _, r := range runs {
		if r.name == "peer" {
			peer = r
		}
	}
	for _, r := range runs {
		b.ReportMetric(ms(median(r.wall)), unit+"-"+r.name)
		if len(r.drawn) > 0 {
			b.ReportMetric(ms(median(r.drawn)), "ms-drawn-"+r.name)
		}
		if withCPU {
			b.ReportMetric(ms(median(r.cpu)), "ms-cpu-"+r.name)
		}
		if r == peer {
			continue
		}
		suffix := "x-peer"
		if r.name != "canopy" {
			suffix += "-" + r.name
		}
		if !withCPU {
			b.ReportMetric(ms(median(r.wall))/ms(median(peer.wall)), suffix)
			continue
		}
		b.ReportMetric(ms(median(r.wall))/ms(median(peer.wall)), "wall-"+suffix)
		b.ReportMetric(ms(median(r.cpu))/ms(median(peer.cpu)), "cpu-"+suffix)
	}
}

// median is the middle of ds (the mean of the two middle ones for an
// even count); 0 for none.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return d.Seconds() * 1000 }
