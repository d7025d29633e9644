//go:build linux

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"canopy/cli/config"
	"canopy/cli/exit"
)

// TestFIFOFilesRefused: a config file, or a debug log, that is a FIFO
// nothing writes to (or reads from) would block canopy before its first
// frame for ever: the config is refused at once with exit status 2 by
// every command, and the log is gone on without.
func TestFIFOFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within := func(args ...string) (string, int) {
		t.Helper()
		type result struct {
			errs string
			code int
		}
		done := make(chan result, 1)
		go func() {
			_, errs, code := runArgs(t, args...)
			done <- result{errs, code}
		}()
		select {
		case r := <-done:
			return r.errs, r.code
		case <-time.After(patience):
			t.Fatalf("canopy %v still running after %v", args, patience)
		}
		return "", 0
	}
	for _, args := range [][]string{{}, {"demo"}, {"list", "repos"}, {"config"}} {
		errs, code := within(append(args, "--config", fifo)...)
		if code != exit.Usage || !strings.Contains(errs, fifo+" is a named pipe (FIFO), not a regular file") {
			t.Errorf("canopy %v --config FIFO: exit %d, stderr %q", args, code, errs)
		}
	}
	if errs, code := within("config", "--config", dir); code != exit.Usage || !strings.Contains(errs, "is a directory, not a regular file") {
		t.Errorf("a directory: exit %d %q", code, errs)
	}

	// The debug log is a FIFO: canopy says so and goes on without it.
	state := filepath.Join(dir, "state")
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "cfg"))
	log := config.PathsFrom(os.Getenv).Log
	if err := os.MkdirAll(filepath.Dir(log), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(log, 0o600); err != nil {
		t.Fatal(err)
	}
	if errs, code := within("config", "--debug"); code != exit.OK || !strings.Contains(errs, "debug log: "+log+" is a named pipe (FIFO), not a regular file (going on without it)") {
		t.Errorf("a FIFO debug log: exit %d %q", code, errs)
	}
}

// lockedBuffer is an output that another goroutine may read while
// canopy writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
