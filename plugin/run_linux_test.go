//go:build linux

package plugin_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"canopy/plugin"
)

// patience bounds a test's wait for what will happen: a loaded machine
// gets there late, and a test fails only when it never does.
const patience = 2 * time.Minute

// TestBatchEndsARunWhoseChildHoldsItsOutput: a program that exits leaving
// a child with its output open ends the run once the pipe has stayed open
// with nothing in it for the grace its caller gives, the child with it;
// the run's status is the program's.
func TestBatchEndsARunWhoseChildHoldsItsOutput(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	job := plugin.Job{On: "a", Argv: []string{"sh", "-c", `sleep 600 & echo $! > "$1"`, "sh", pidFile}}
	b := plugin.StartBatchWith(t.Context(), []plugin.Job{job}, plugin.BatchOptions{GraceAfterExit: 10 * time.Millisecond})
	var ends []plugin.Status
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev, ok := b.Next(t.Context()); ok && !ev.Done; ev, ok = b.Next(t.Context()) {
			if ev.End {
				ends = append(ends, ev.Status)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(patience):
		t.Fatal("a run whose child holds its output never ended")
	}
	if len(ends) != 1 || !ends[0].OK() {
		t.Fatalf("statuses %v, want the program's exit 0", ends)
	}
	b2, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b2)))
	if err != nil {
		t.Fatal(err)
	}
	poll := time.NewTicker(10 * time.Millisecond)
	defer poll.Stop()
	deadline := time.After(patience)
	for running(pid) {
		select {
		case <-poll.C:
		case <-deadline:
			t.Fatalf("the child %d that held the output still runs", pid)
		}
	}
}

// running reports whether process pid runs: it is there and not a zombie
// (its parent gone, it waits for an init that may never reap it).
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
	return !strings.HasPrefix(strings.TrimSpace(rest), "Z")
}
