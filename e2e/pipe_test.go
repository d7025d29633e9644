//go:build linux

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestListIntoAClosedPipe: canopy list … | head. When the reader closes
// the pipe before the listing is printed, canopy ends at its next write,
// killed by SIGPIPE as other Unix tools are (a shell reports 141, 128 +
// 13), saying nothing on stderr; docs/cli.md's exit statuses say so.
func TestListIntoAClosedPipe(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test: builds the binary; skipped with -short")
	}
	bin := canopyBinary(t)
	const token = "pipe-e2e-token"
	_, hs := serveEmulator(t, token)
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	// Every tag of the organization: some 500 kB, far more than a pipe holds.
	cmd := exec.CommandContext(ctx, bin, "list", "tags", "--allow-insecure-http")
	cmd.Env = []string{"CANOPY_API_URL=" + hs.URL, "CANOPY_TOKEN=" + token, "CANOPY_ORG=acme.example", "HOME=" + t.TempDir()}
	var errs bytes.Buffer
	cmd.Stderr = &errs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	header, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(header, "TAG ") {
		t.Fatalf("first line %q, %v", header, err)
	}
	out.Close() // as head does once it has its lines
	err = cmd.Wait()
	var ee *exec.ExitError
	if ctx.Err() != nil || !errors.As(err, &ee) {
		t.Fatalf("canopy list: %v (context %v), want an end by SIGPIPE; stderr %q", err, ctx.Err(), errs.String())
	}
	if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGPIPE {
		t.Errorf("canopy list ended with %v, want killed by SIGPIPE (141 in a shell)", ee)
	}
	if errs.Len() != 0 {
		t.Errorf("canopy list said %q on stderr, want nothing", errs.String())
	}
}
