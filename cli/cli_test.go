package cli

import (
	"bytes"
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
