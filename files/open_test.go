//go:build unix

package files

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f, failing the test if it has not returned by the deadline:
// an open that blocks never returns.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s still blocked after a minute", what)
	}
}

func TestOpenRefusesWhatIsNotARegularFileWithoutWaiting(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "sessions.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, flag := range []int{os.O_RDONLY, os.O_WRONLY | os.O_APPEND, os.O_RDWR} {
		within(t, "open of a FIFO", func() {
			_, err := Open(fifo, flag, 0)
			var nr *NotRegularError
			if !errors.As(err, &nr) || !strings.Contains(err.Error(), fifo+" is a named pipe (FIFO), not a regular file") {
				t.Errorf("flag %#x: %v", flag, err)
			}
		})
	}
	within(t, "read of a FIFO", func() {
		if _, err := Read(fifo, 1<<20); err == nil {
			t.Error("a FIFO was read")
		}
	})
	if _, err := Read(dir, 1<<20); err == nil || !strings.Contains(err.Error(), "is a directory, not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := Read("/dev/zero", 1<<20); err == nil || !strings.Contains(err.Error(), "is a device") {
		t.Errorf("a device: %v", err)
	}
	within(t, "rewrite of a FIFO", func() {
		err := Rewrite(t.Context(), fifo, 1<<20, func(b []byte) ([]byte, error) { return b, nil })
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("rewrite of a FIFO: %v", err)
		}
	})
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", info, err)
	}
}

func TestReadRefusesAFileLargerThanItsLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, make([]byte, 1025), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path, 1024)
	var tl *TooLargeError
	if !errors.As(err, &tl) || err.Error() != path+" is larger than 1 KiB" {
		t.Errorf("%v", err)
	}
	if b, err := Read(path, 1025); err != nil || len(b) != 1025 {
		t.Errorf("at the limit: %d bytes, %v", len(b), err)
	}
}
