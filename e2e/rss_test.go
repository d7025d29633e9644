//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// measured makes cmd (not started) run through maxrss, and returns what
// reads its peak resident memory in bytes once it has run. Read from the
// test's own child instead, the peak would start at the test binary's
// (see e2e/maxrss): 153 MB for a canopy of 32 in a full -race run.
func measured(t *testing.T, cmd *exec.Cmd) (peak func() int64) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "maxrss")
	if out, err := exec.Command("go", "build", "-trimpath", "-o", bin, "canopy/e2e/maxrss").CombinedOutput(); err != nil {
		t.Fatalf("go build maxrss: %v\n%s", err, out)
	}
	report := filepath.Join(dir, "rss")
	cmd.Args = append([]string{bin, report, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = bin
	return func() int64 {
		t.Helper()
		b, err := os.ReadFile(report)
		if err != nil {
			t.Fatalf("no peak measured: %v", err)
		}
		n, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			t.Fatalf("peak %q: %v", b, err)
		}
		return n
	}
}
