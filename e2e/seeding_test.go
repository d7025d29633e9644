//go:build linux

package e2e

// The large demo seeds ≈ 10⁶ tags in the background: its first frame
// comes at once, the status line saying how far the data is, and the
// organization's tree once the data is in; q, ctrl+c and signals end it
// meanwhile as at any time.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// progressRE is the demo's status line while its data is built.
var progressRE = regexp.MustCompile(`building the demo: (?:([\d,]+) of ([\d,]+) repos, ([\d,]+) tags|indexing ([\d,]+) tags|organizations)`)

// seedingFrame is the first frame of a demo whose data is not in yet: the
// whole frame (header, the line saying its data is being built, the key hints), the
// status line saying how far the data is.
func seedingFrame(s string) bool {
	ls := lines(s)
	return len(ls) > 3 && strings.TrimSpace(ls[0]) == "canopy" && strings.Contains(s, "building the data of demo emulator") &&
		strings.Contains(s, "q/ctrl+c quit") && progressRE.MatchString(ls[len(ls)-1])
}

// seededTags is the number of tags the progress line says are in (0
// before the registry; the indexing counts them all).
func seededTags(s string) int {
	m := progressRE.FindStringSubmatch(s)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(strings.ReplaceAll(m[3]+m[4], ",", ""))
	return n
}

// TestLargeDemoShowsItsSeedingAndFollowsKeys: `canopy demo --size large`
// draws its first frame while the data is still going in, says how far it
// is, more as it goes, and then opens the organization's tree; there, a
// table of every tag follows the keys (followKeysInLargeDemo). One demo
// for both: each seeds a million tags.
func TestLargeDemoShowsItsSeedingAndFollowsKeys(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	canopyBinary(t) // built before the clock starts
	t0 := time.Now()
	tt := startCanopy(t, termOptions{width: 120, height: 36, args: []string{"demo", "--size", "large"}})
	s := tt.waitWithin(longPatience, func(s string) bool { return seedingFrame(s) || firstFrame(s) }, "the first frame")
	t.Logf("the first frame after %v: %s", time.Since(t0).Round(time.Millisecond), progressRE.FindString(s))
	if !seedingFrame(s) {
		t.Fatalf("the first frame is not the one saying how far the data is:\n%s", frame(s))
	}
	first := seededTags(s)
	m := progressRE.FindStringSubmatch(s)
	if m[1] != "" && m[1] == m[2] || m[4] != "" {
		t.Logf("the first frame came once every repo was in (a slow start): %s", m[0])
	}
	s = tt.waitWithin(longPatience, func(s string) bool { return seededTags(s) > first || firstFrame(s) }, "more tags")
	t.Logf("then after %v: %s", time.Since(t0).Round(time.Millisecond), progressRE.FindString(s))
	tt.waitWithin(longPatience, firstFrame, "the organization's tree")
	t.Logf("the organization's tree after %v", time.Since(t0).Round(time.Millisecond))
	followKeysInLargeDemo(t, tt)
}

// TestLargeDemoEndsWhileSeeding: while the large demo builds its data,
// ctrl+c and q (keys: status 0, as everywhere in canopy) and SIGINT (130)
// end it at once (the test allows 2 s: the seeding loads the cores), the
// terminal restored. One at a time: each seeds a million tags.
func TestLargeDemoEndsWhileSeeding(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	for _, tc := range []struct {
		name   string
		end    func(tt *tmuxTerm)
		status string
	}{
		{"ctrl+c", func(tt *tmuxTerm) { tt.send("C-c") }, "0"},
		{"q", func(tt *tmuxTerm) { tt.send("q") }, "0"},
		{"SIGINT", func(tt *tmuxTerm) { tt.kill(syscall.SIGINT) }, "130"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tt := startCanopy(t, termOptions{width: 120, height: 36, args: []string{"demo", "--size", "large"}})
			s := tt.waitWithin(longPatience, func(s string) bool { return seedingFrame(s) || firstFrame(s) }, "the first frame")
			if !seedingFrame(s) {
				t.Skipf("the data was in before the first capture:\n%s", frame(s))
			}
			t0 := time.Now()
			tc.end(tt)
			s = tt.waitWithin(waitTimeout, func(s string) bool { return exitLineRE.MatchString(s) && strings.Contains(s, "icanon") },
				"canopy to exit")
			t.Logf("%s: exited after %v: %s", tc.name, time.Since(t0).Round(time.Millisecond), exitLineRE.FindString(s))
			if got := exitLineRE.FindStringSubmatch(s)[1]; got != tc.status {
				t.Errorf("%s: exit status %s, want %s", tc.name, got, tc.status)
			}
			tt.assertRestored()
		})
	}
}

// BenchmarkLargeDemoStart times `canopy demo --size large` in tmux from
// start to its first full frame (ms-first-frame: the frame saying how far
// the data is, or, for a canopy that builds the data first, the
// organization's tree) and to the organization's tree (ms-to-tree: the
// seeding as the user waits for it), and reads the process's peak
// resident memory then (MB-peak-RSS); the same of the small demo (-small),
// whose first frame is the one the 300 ms target was first met by, for
// reference under the same load. CANOPY_BASELINE names another canopy
// binary (the old way, built from an earlier commit): each iteration then
// starts it too (-baseline), so all see the same load. ns/op is the whole
// iteration.
//
//	git worktree add /tmp/old <commit> && go build -C /tmp/old -o /tmp/canopy-old .
//	CANOPY_BASELINE=/tmp/canopy-old go test ./e2e -run '^$' -bench LargeDemoStart -benchtime 3x -count 3
func BenchmarkLargeDemoStart(b *testing.B) {
	requireTmux(b)
	type run struct {
		suffix, bin, size string
		firstFrame, tree  time.Duration
		peakMB            int
	}
	bin := canopyBinary(b)
	runs := []*run{{bin: bin, size: "large"}, {suffix: "-small", bin: bin, size: "small"}}
	if old := os.Getenv("CANOPY_BASELINE"); old != "" {
		runs = append(runs, &run{suffix: "-baseline", bin: old, size: "large"})
	}
	for b.Loop() {
		for _, r := range runs {
			t0 := time.Now()
			tt := startBinary(b, r.bin, 120, 36, "demo", "--size", r.size)
			tt.waitWithin(longPatience, func(s string) bool { return seedingFrame(s) || firstFrame(s) }, "the first frame")
			r.firstFrame += time.Since(t0)
			tt.waitWithin(longPatience, firstFrame, "the organization's tree")
			r.tree += time.Since(t0)
			r.peakMB += peakRSS(tt.canopyPID())
			tt.send("q")
			tt.waitExit()
			_, _ = tt.tmux("kill-server")
		}
	}
	for _, r := range runs {
		n := float64(b.N)
		b.ReportMetric(r.firstFrame.Seconds()*1000/n, "ms-first-frame"+r.suffix)
		b.ReportMetric(r.tree.Seconds()*1000/n, "ms-to-tree"+r.suffix)
		b.ReportMetric(float64(r.peakMB)/n, "MB-peak-RSS"+r.suffix)
	}
}

// peakRSS is the peak resident memory of a process so far, in MB (VmHWM
// in /proc; 0 when it cannot be read).
func peakRSS(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb >> 10
		}
	}
	return 0
}

// startBinary is startCanopy with the binary given (a baseline's), the
// environment clean and the size fixed.
func startBinary(tb testing.TB, bin string, width, height int, args ...string) *tmuxTerm {
	tb.Helper()
	dir := tb.TempDir()
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte(tmuxConf), 0o600); err != nil {
		tb.Fatal(err)
	}
	tt := &tmuxTerm{t: tb, sock: fmt.Sprintf("canopy-e2e-%d-%d", os.Getpid(), sockSeq.Add(1)), target: "e2e",
		width: width, height: height,
		env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8", "TERM=xterm-256color"}}
	cmd := append([]string{"-f", conf, "new-session", "-d", "-s", tt.target, "-x", strconv.Itoa(width), "-y", strconv.Itoa(height),
		"sh", "-c", exitScript, "sh", bin}, args...)
	if _, err := tt.tmux(cmd...); err != nil {
		tb.Fatalf("start tmux: %v", err)
	}
	sockPath, err := tt.tmux("display-message", "-p", "#{socket_path}")
	tb.Cleanup(func() {
		_, _ = tt.tmux("kill-server")
		if p := strings.TrimSpace(sockPath); err == nil && strings.HasSuffix(p, tt.sock) {
			_ = os.Remove(p)
		}
	})
	return tt
}
