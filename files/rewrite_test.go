//go:build unix

package files

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// setFirst is an edit: the file's first line made "saved <n>".
func setFirst(n int) func([]byte) ([]byte, error) {
	return func(old []byte) ([]byte, error) {
		if bytes.HasPrefix(old, []byte("saved ")) {
			_, old, _ = bytes.Cut(old, []byte("\n"))
		}
		return append([]byte(fmt.Sprintf("saved %d\n", n)), old...), nil
	}
}

func TestRewriteNeverWritesWhatItWouldRefuseToRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	old := bytes.Repeat([]byte("# a line\n"), 113) // 1,017 bytes
	if err := os.WriteFile(path, old, 0o640); err != nil {
		t.Fatal(err)
	}
	err := Rewrite(t.Context(), path, 1024, setFirst(1)) // 1,025 bytes
	if err == nil || !strings.Contains(err.Error(), "would be larger than 1 KiB") {
		t.Errorf("%v", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, old) {
		t.Error("the file changed")
	}
	if err := Rewrite(t.Context(), path, 1026, setFirst(1)); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own", info.Mode())
	}
}

func TestRewriteLeavesAReadOnlyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("theme: dark\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	err := Rewrite(t.Context(), path, 1<<20, setFirst(1))
	if !errors.Is(err, ErrReadOnly) || !strings.HasPrefix(err.Error(), path+" is read-only") {
		t.Errorf("%v", err)
	}
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) {
		t.Error("a read-only file was replaced")
	}
}

func TestRewriteMakesAMissingFilePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "canopy", "sessions.json")
	if err := Rewrite(t.Context(), path, 1<<20, setFirst(7)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if info, _ := os.Stat(path); err != nil || string(b) != "saved 7\n" || info.Mode().Perm() != 0o600 {
		t.Errorf("%q %v %v", b, info.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".canopy-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestRewritesWaitForEachOther: canopy processes saving at once (each
// edit adds its own line) keep every line: each edits what the one before
// wrote. Goroutines stand for processes: each takes the lock through a
// descriptor of its own, as a process does.
func TestRewritesWaitForEachOther(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.json")
	const writers = 16
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := Rewrite(t.Context(), path, 1<<20, func(old []byte) ([]byte, error) {
				return append(old, fmt.Sprintf("session %d\n", i)...), nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(path)
	for i := range writers {
		if !bytes.Contains(b, fmt.Appendf(nil, "session %d\n", i)) {
			t.Errorf("session %d lost:\n%s", i, b)
		}
	}
}

// TestRewriteKeepsWhatAnotherProgramAppends: a program appending lines to
// the file (opening it for each, as `echo … >> file` does) while canopy
// rewrites it again and again loses none of them.
func TestRewriteKeepsWhatAnotherProgramAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("saved 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if f, _ := os.Open(path); f == nil || !waitWriters(t.Context(), f, 0) {
		t.Skip("no file leases here: canopy cannot tell when a program that opened the file before it was replaced is done writing")
	} else {
		f.Close()
	}
	const lines = 3000
	stop := make(chan struct{})
	appended := make(chan int)
	go func() {
		n := 0
		defer func() { appended <- n }()
		for ; n < lines; n++ {
			select {
			case <-stop:
				return
			default:
			}
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Error(err)
				return
			}
			fmt.Fprintf(f, "line %d\n", n)
			f.Close()
		}
	}()
	for i := 1; i <= 100; i++ {
		if err := Rewrite(t.Context(), path, 1<<20, setFirst(i)); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	n := <-appended
	b, _ := os.ReadFile(path)
	if !bytes.HasPrefix(b, []byte("saved 100\n")) {
		t.Errorf("the last edit is not in the file: %q", b[:min(len(b), 40)])
	}
	for i := range n {
		if c := bytes.Count(b, fmt.Appendf(nil, "line %d\n", i)); c != 1 {
			t.Errorf("line %d is in the file %d times, want once (%d appended)", i, c, n)
		}
	}
}

// TestRewriteKeepsTheOwner: root saving a user's file (sudo -E canopy)
// leaves it the user's.
func TestRewriteKeepsTheOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root gives a file away")
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("theme: dark\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const nobody = 65534
	if err := os.Chown(path, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if err := Rewrite(t.Context(), path, 1<<20, setFirst(1)); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	if st := info.Sys().(*syscall.Stat_t); st.Uid != nobody || st.Gid != nobody {
		t.Errorf("owner %d:%d, want %d:%d as before", st.Uid, st.Gid, nobody, nobody)
	}
}
