package cli

import (
	"strings"
	"testing"

	"canopy/cli/exit"
)

// TestStartIsCheckedBeforeTheScreen: a -c command canopy does not have,
// and canopy open without its one argument, stop before the screen
// changes, saying why.
func TestStartIsCheckedBeforeTheScreen(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"demo", "-c", "nosuch"}, "canopy demo: unknown command :nosuch"},
		{[]string{"demo", "-c", "t"}, "canopy demo: :t could be :tags"},
		{[]string{"demo", "-c", "tags", "--open", "python"}, "not both"},
		{[]string{"open"}, "canopy open: want one uid, pull reference, advisory id or name (got 0 arguments)"},
		{[]string{"open", "a", "b"}, "(got 2 arguments)"},
		{[]string{"open", ""}, "canopy open: the TARGET is empty: want a uid, pull reference, advisory id or name"},
		{[]string{"open", " "}, "canopy open: the TARGET is empty"},
		{[]string{"-c", "nosuch"}, "canopy: -c: unknown command :nosuch"},
		// A flag given blank ("$UNSET") is a mistake, not a start on the
		// organization; a later value for the same flag wins, as flags do.
		{[]string{"demo", "--open", ""}, "canopy demo: --open is empty: want a uid, pull reference, advisory id or name"},
		{[]string{"demo", "--open", " "}, "--open is empty"},
		{[]string{"demo", "-c", ""}, "canopy demo: -c is empty: want a command, as typed after :"},
		{[]string{"demo", "--start", "tags", "--start", ""}, "--start is empty"},
		{[]string{"-c", ""}, "canopy: -c is empty: want a command"},
		{[]string{"--start", " "}, "canopy: --start is empty: want a command"},
		{[]string{"demo", "-c", "", "-c", "nosuch"}, "canopy demo: unknown command :nosuch"},
	}
	for _, c := range cases {
		_, errs, code := runArgs(t, c.args...)
		if code != exit.Usage || !strings.Contains(errs, c.says) {
			t.Errorf("%q: exit %d %q, want %d saying %q", c.args, code, errs, exit.Usage, c.says)
		}
	}
	if out, _, code := runArgs(t, "open", "-h"); code != 0 || !strings.HasPrefix(out, "Usage: canopy open TARGET") {
		t.Errorf("open -h: %d %q", code, out)
	}
}
