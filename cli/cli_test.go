package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"canopy/cli/config"
	"canopy/cli/exit"
	"canopy/theme"
)

// patience bounds a test's wait for what will happen: a loaded machine
// gets there late, and a test fails only when it never does.
const patience = 2 * time.Minute

func runArgs(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errs bytes.Buffer
	code := Run(quick(t.Context()), args, &out, &errs)
	return out.String(), errs.String(), code
}

func TestUnknownCommandAndVersionHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"bogus"}, {"--read-only", "bogus"}} {
		_, errs, code := runArgs(t, args...)
		if code != exit.Usage || !strings.Contains(errs, `canopy: unknown command "bogus"`) || !strings.Contains(errs, "Commands: demo, emulator, list") {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
	if _, errs, _ := runArgs(t, "lsit"); !strings.Contains(errs, `Did you mean "list"?`) {
		t.Errorf("a typo: %q", errs)
	}
	for _, h := range []string{"-h", "--help"} {
		out, _, code := runArgs(t, "version", h)
		if code != 0 || !strings.HasPrefix(out, "Usage: canopy version") {
			t.Errorf("version %s: exit %d %q", h, code, out)
		}
	}
	if out, _, code := runArgs(t, "--version"); code != 0 || !strings.HasPrefix(out, "canopy ") {
		t.Errorf("--version: %d %q", code, out)
	}
	if _, errs, code := runArgs(t, "version", "extra"); code != exit.Usage || !strings.Contains(errs, "unexpected argument") {
		t.Errorf("version extra: %d %q", code, errs)
	}
	if out, _, code := runArgs(t, "help", "list"); code != 0 || !strings.HasPrefix(out, "Usage: canopy list") {
		t.Errorf("help list: %d %q", code, out)
	}
}

// TestDisplayOf: a mono theme (or NO_COLOR) keeps attributes and drops
// colors, and --mouse=false leaves the mouse to the terminal.
func TestDisplayOf(t *testing.T) {
	t.Parallel()
	s, err := config.Resolve(nil, "", env(t, map[string]string{"CANOPY_MOUSE": "false"}), config.PathsFrom(env(t, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if d := displayOf(theme.Options{Name: theme.Mono}, s); !d.Mono || d.Mouse {
		t.Errorf("displayOf: %+v", d)
	}
}

// TestFlagsBeforeACommand: canopy's flags before a command are the
// command's (canopy --resume=false demo is canopy demo --resume=false),
// and a command's parser says which it does not take; a value is never
// taken for a command, and a command after "--" is said to be misplaced,
// never "unknown".
func TestFlagsBeforeACommand(t *testing.T) {
	t.Parallel()
	_, errs, code := runArgs(t, "--read-only", "list", "repos")
	if code != exit.Usage || !strings.Contains(errs, "canopy list: flag provided but not defined: -read-only") || strings.Contains(errs, "unknown command") {
		t.Errorf("--read-only list: exit %d %q", code, errs)
	}
	out, errs, code := runArgs(t, "--resume=false", "demo", "-h")
	if code != 0 || !strings.HasPrefix(out, "Usage: canopy demo") {
		t.Errorf("--resume=false demo -h: exit %d %q %q", code, out, errs)
	}
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("theme: light\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runArgs(t, "--config", cfg, "config")
	if code != 0 || !strings.Contains(out, "light") {
		t.Errorf("--config f config: exit %d %q %q", code, out, errs)
	}
	_, errs, code = runArgs(t, "--api-url", "list")
	if code != exit.Usage || !strings.Contains(errs, `invalid value "list" for flag -api-url`) {
		t.Errorf("--api-url list: exit %d %q", code, errs)
	}
	_, errs, code = runArgs(t, "--", "list")
	if code != exit.Usage || strings.Contains(errs, "unknown command") || strings.Contains(errs, "Did you mean") ||
		!strings.Contains(errs, "a command comes first (canopy list [flags])") {
		t.Errorf("-- list: exit %d %q", code, errs)
	}
}
