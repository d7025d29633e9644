package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
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
	srv, hs := serveEmulator(t, token)
	home := t.TempDir()
	reachable := []string{"CANOPY_API_URL=" + hs.URL, "CANOPY_TOKEN=" + token}
	for _, c := range []struct {
		args, env []string
	}{
		{[]string{"open", "python", "--org", srv.OrgUID()}, reachable},
		{[]string{"demo", "--open", "python"}, reachable},
	} {
		args := c.args
		ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = home
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + home}, c.env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, &stdout, &stderr // stdin /dev/null, stdout a pipe
		err := cmd.Run()
		cancel()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitUsage {
			t.Errorf("canopy %q: %v, want exit %d; stderr %q", args, err, exitUsage, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("canopy %q wrote %q to a stdout that is not a terminal, want nothing", args, stdout.String())
		}
		if want := "the explorer draws on a terminal, and stdout is not one"; !strings.Contains(stderr.String(), want) {
			t.Errorf("canopy %q said %q, want %q", args, stderr.String(), want)
		}
	}
}
