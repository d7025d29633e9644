package e2e

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"canopy/api/emulator"
)

// TestExplorerWithoutATerminalWritesNothing: canopy open and canopy demo
// with stdout a file or pipe (a script, `canopy open X > out`) write
// nothing to it, not even the terminal's title sequences; they say on
// stderr that the explorer draws on a terminal, exit 2.
func TestExplorerWithoutATerminalWritesNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test: builds the binary; skipped with -short")
	}
	bin := canopyBinary(t)
	const token = "notty-e2e-token"
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: token})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	home := t.TempDir()
	for _, args := range [][]string{{"open", "python", "--org", srv.OrgUID()}, {"demo", "--open", "python"}} {
		ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = home
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + home,
			"CANOPY_API_URL=" + hs.URL, "CANOPY_TOKEN=" + token}
		var stdout, stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, &stdout, &stderr // stdin /dev/null, stdout a pipe
		err := cmd.Run()
		cancel()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitUsage {
			t.Errorf("canopy %s: %v, want exit %d; stderr %q", args[0], err, exitUsage, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("canopy %s wrote %q to a stdout that is not a terminal, want nothing", args[0], stdout.String())
		}
		if want := "the explorer draws on a terminal, and stdout is not one"; !strings.Contains(stderr.String(), want) {
			t.Errorf("canopy %s said %q, want %q", args[0], stderr.String(), want)
		}
	}
}
