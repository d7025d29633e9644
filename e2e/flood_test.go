package e2e

// Typed floods: 10⁵ characters arriving as keystrokes (a paste into a
// terminal without bracketed paste) must neither take minutes nor hold up
// ctrl+c or a signal behind them.

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// floodKeys is how many characters a flood types.
const floodKeys = 100_000

// flood types n characters of c as keystrokes, in pieces tmux takes as one
// command each; it fails if the terminal has not taken them all within d
// (tmux blocks while canopy does not read).
func (tt *tmuxTerm) flood(c byte, n int, d time.Duration) {
	tt.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	piece := strings.Repeat(string(c), 10_000)
	for sent := 0; sent < n; sent += len(piece) {
		cmd := exec.CommandContext(ctx, "tmux", "-u", "-L", tt.sock, "send-keys", "-t", tt.target, "-l", piece[:min(len(piece), n-sent)])
		cmd.Env = tt.env
		if out, err := cmd.CombinedOutput(); err != nil {
			tt.t.Fatalf("the terminal took %d of %d keys in %v: %v %s", sent, n, d, err, out)
		}
	}
}

// canopyPID is the process id of canopy in the pane (the child of the
// pane's shell).
func (tt *tmuxTerm) canopyPID() int {
	tt.t.Helper()
	sh := strings.TrimSpace(tt.paneFlags("pane_pid")["pane_pid"])
	out, err := exec.Command("pgrep", "-P", sh).Output()
	if err != nil {
		tt.t.Skipf("pgrep -P %s: %v", sh, err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(out))[0])
	if err != nil {
		tt.t.Fatal(err)
	}
	return pid
}

// floodedFilter opens every tag of the medium demo (~10⁵) as a table, opens
// its filter line and types a flood into it.
func floodedFilter(t *testing.T) *tmuxTerm {
	tt := startCanopy(t, termOptions{width: 120, height: 36, args: []string{"demo", "--size", "medium"}})
	tt.waitWithin(longPatience, firstFrame, "the medium demo's first frame")
	tt.command("tags")
	tt.waitTable("tags of acme.example", tagsHeaderRE)
	tt.press(func(s string) bool { return strings.Contains(s, "fuzzy filter") }, "the filter line", "/")
	t0 := time.Now()
	tt.flood('x', floodKeys, waitTimeout)
	t.Logf("the terminal took %d keys in %v", floodKeys, time.Since(t0).Round(time.Millisecond))
	return tt
}

// TestFloodedFilterEndsAtOnce types 10⁵ characters into the filter of a
// table of ~10⁵ tags and, with the keys still queued, presses ctrl+c or
// sends a signal: canopy ends within a second or so, the terminal
// restored. (Before, ctrl+c waited 240 s behind the keys, SIGTERM 30 s.)
func TestFloodedFilterEndsAtOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		end    func(tt *tmuxTerm)
		status string // ctrl+c quits; a signal's status is the shell's 128+n
	}{
		{"ctrl+c", func(tt *tmuxTerm) { tt.send("C-c") }, "0"},
		{"SIGTERM", func(tt *tmuxTerm) { tt.kill(syscall.SIGTERM) }, "143"},
		{"SIGINT", func(tt *tmuxTerm) { tt.kill(syscall.SIGINT) }, "130"},
		{"SIGHUP", func(tt *tmuxTerm) { tt.kill(syscall.SIGHUP) }, "129"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tt := floodedFilter(t)
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

// kill sends sig to canopy.
func (tt *tmuxTerm) kill(sig syscall.Signal) {
	tt.t.Helper()
	if err := syscall.Kill(tt.canopyPID(), sig); err != nil {
		tt.t.Fatal(err)
	}
}

// filterEndRE is the filter line ending in what was typed last.
var filterEndRE = regexp.MustCompile(`(?m)^/x+y\s*$`)

// TestFloodedFilterKeepsUp types 10⁵ characters into the filter: canopy
// takes the first 1,000, refuses the rest at once and says so, and is done
// with every key seconds later (before: still working after 12 minutes).
func TestFloodedFilterKeepsUp(t *testing.T) {
	t.Parallel()
	tt := floodedFilter(t)
	t0 := time.Now()
	tt.send("BSpace")
	tt.typeText("y")
	s := tt.waitWithin(waitTimeout, func(s string) bool {
		return filterEndRE.MatchString(s) && strings.Contains(s, "the filter takes at most 1,000 characters")
	}, "the flood taken, the limit said, and the keys after it typed")
	t.Logf("every key taken %v after the flood", time.Since(t0).Round(time.Millisecond))
	if got := strings.Count(filterEndRE.FindString(s), "x"); got > 1000 {
		t.Errorf("the filter line shows %d characters", got)
	}
	// The filter still answers: nothing matches 1,000 x's; esc clears it.
	tt.send("Escape")
	tt.waitFor(func(s string) bool { return !strings.Contains(s, "xxx") && infoLineRE.MatchString(s) }, "the filter cleared")
	tt.send("q")
	if code := tt.waitExit(); code != 0 {
		t.Errorf("canopy exited with status %d", code)
	}
}
