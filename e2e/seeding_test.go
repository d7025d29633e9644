//go:build linux

package e2e

// The large demo's organization (7,800 repos, ≈ 10⁶ tags) is seeded in
// the background without the tags of its generated repos, which are made
// when first asked for: the first frame comes at once, saying how far the
// data is when it is not in yet, and the organization's tree a fraction
// of a second later; a table of every tag makes them all. q, ctrl+c and
// signals end it meanwhile as at any time.

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

// largeDemoTags is the large demo's tags, made or not (seed 1; the flash
// once its data is in says so: "built the demo: 1,035,684 tags in …").
const largeDemoTags = 1_035_684

// TestLargeDemoOpensAndFollowsKeys: `canopy demo --size large` draws its
// first frame at once, saying how far the data is if it is not in yet,
// then opens the organization's tree; there, a table of every tag (most
// not made until it asks for them) follows the keys
// (followKeysInLargeDemo).
func TestLargeDemoOpensAndFollowsKeys(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	canopyBinary(t) // built before the clock starts
	t0 := time.Now()
	tt := startCanopy(t, termOptions{width: 120, height: 36, args: []string{"demo", "--size", "large"}})
	s := tt.waitWithin(longPatience, func(s string) bool { return seedingFrame(s) || firstFrame(s) }, "the first frame")
	t.Logf("the first frame after %v: %s", time.Since(t0).Round(time.Millisecond), progressRE.FindString(s))
	tt.waitWithin(longPatience, firstFrame, "the organization's tree")
	t.Logf("the organization's tree after %v", time.Since(t0).Round(time.Millisecond))
	followKeysInLargeDemo(t, tt)
}

// TestLargeDemoEndsWhileMakingEveryTag: while the large demo makes every
// tag for a table of them all (seconds), ctrl+c and q (keys: status 0, as
// everywhere in canopy) and SIGINT (130) end it at once, the terminal
// restored. One at a time: each makes a million tags.
func TestLargeDemoEndsWhileMakingEveryTag(t *testing.T) {
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
			tt.waitWithin(longPatience, firstFrame, "the organization's tree")
			tt.command("tags")
			tt.waitFor(func(s string) bool { return strings.Contains(header(s), "tags of acme.example") }, "the table of every tag")
			t0 := time.Now()
			tc.end(tt)
			s := tt.waitWithin(waitTimeout, func(s string) bool { return exitLineRE.MatchString(s) && strings.Contains(s, "icanon") },
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
// the data is, or the organization's tree) and to the organization's tree
// (ms-to-tree: what the user waits for), and reads the process's peak
// resident memory then (MB-peak-RSS); then it opens the table of every tag
// (`:tags`) and goes to its last row (`G`), a scan that makes every tag,
// and reads the resident memory then (MB-RSS-scanned, and its peak,
// MB-peak-RSS-scanned) and its share per tag of the organization
// (B-RSS-per-tag, of its 1,035,684 tags); the same of the
// small demo to its tree (-small), for reference under the same load.
// CANOPY_BASELINE names another canopy binary (the old way, built from an
// earlier commit): each iteration then runs it too (-baseline), so all see
// the same load. ns/op is the whole iteration.
//
//	git worktree add /tmp/old <commit> && go build -C /tmp/old -o /tmp/canopy-old .
//	CANOPY_BASELINE=/tmp/canopy-old go test ./e2e -run '^$' -bench LargeDemoStart -benchtime 2x -count 2
func BenchmarkLargeDemoStart(b *testing.B) {
	requireTmux(b)
	type run struct {
		suffix, bin, size             string
		firstFrame, tree              time.Duration
		peakMB, scannedMB, scanPeakMB int
		perTag                        float64
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
			pid := tt.canopyPID()
			r.peakMB += procKB(pid, "VmHWM") >> 10
			if r.size == "large" {
				scanAllTags(tt)
				rss := procKB(pid, "VmRSS")
				r.scannedMB += rss >> 10
				r.scanPeakMB += procKB(pid, "VmHWM") >> 10
				r.perTag += float64(rss<<10) / largeDemoTags
			}
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
		if r.size == "large" {
			b.ReportMetric(float64(r.scannedMB)/n, "MB-RSS-scanned"+r.suffix)
			b.ReportMetric(float64(r.scanPeakMB)/n, "MB-peak-RSS-scanned"+r.suffix)
			b.ReportMetric(r.perTag/n, "B-RSS-per-tag"+r.suffix)
		}
	}
}

// scanAllTags opens the table of every tag and goes to its last row.
func scanAllTags(tt *tmuxTerm) {
	tt.command("tags")
	s := tt.waitTable("tags of acme.example", regexp.MustCompile(`TAG\s+\S*\s*REPO`))
	total := infoLineRE.FindStringSubmatch(s)[2]
	tt.send("G")
	tt.waitWithin(longPatience, func(s string) bool {
		m := infoLineRE.FindStringSubmatch(s)
		return m != nil && m[1] == total && !strings.Contains(tableBodyOf(s), "loading")
	}, "the last row")
}

// procKB is a figure of a process's memory in kB (VmHWM: its peak
// resident memory so far, VmRSS: now) from /proc; 0 when it cannot be
// read.
func procKB(pid int, field string) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
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
