package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginGivingAValueToTmuxIsRefused is issue 33's attack, item 2: a
// plugin `tmux new-session -d {{.Email}}` let an identity whose address
// was `touch${IFS}pwned`@evil.example run a command through tmux's shell.
// The real binary refuses that config before anything starts, naming the
// file and line of the argument, for `canopy config` and the UI alike.
func TestPluginGivingAValueToTmuxIsRefused(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test: builds the binary; skipped with -short")
	}
	bin := canopyBinary(t)
	cfg := configHome(t, `plugins:
  - name: attach
    kinds: [identity]
    command: /usr/bin/tmux
    args: ["new-session", "-d", "{{.Email}}"]
`)
	file := filepath.Join(cfg, "canopy", "config.yaml")
	home := t.TempDir()
	for _, args := range [][]string{{"config"}, {"demo"}} {
		ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = home
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + cfg, "XDG_STATE_HOME=" + home}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		cancel()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitUsage {
			t.Errorf("canopy %s: %v, want exit %d", args[0], err, exitUsage)
		}
		want := file + ":5: plugins: attach: args[2]: {{.Email}} would reach tmux, which may read it as code"
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("canopy %s said:\n%s\nwant %s", args[0], stderr.String(), want)
		}
	}
}
