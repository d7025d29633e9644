package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"canopy/cli/config"
	"canopy/cli/exit"
	"canopy/ui"
)

// startFlags are where the UI starts: -c runs a `:` command once the
// organization opens; open (canopy open's argument, canopy demo --open)
// shows a resource in the tree.
type startFlags struct {
	command, open string
	// blank is the flag given an empty or blank value (-c '', --open
	// "$UNSET"): a mistake to say, not a start on the organization.
	blank string
}

func (f *startFlags) register(fs *flag.FlagSet, withOpen bool) {
	f.flag(fs, &f.command, "c", "run this `command` once the organization opens, as typed after : (e.g. 'tags python')")
	f.flag(fs, &f.command, "start", "start on this `screen`: a command as typed after : (e.g. overview, deprecated, 'tags python'); the same as -c")
	if withOpen {
		f.flag(fs, &f.open, "open", "show this `resource` in the tree: a uid, a pull reference (cgr.dev/<org>/<repo>:<tag>, <repo>:<tag>, <repo>@<digest>), an advisory id (CGA-…) or a name")
	}
}

// flag registers a string flag that notes when it is given blank.
func (f *startFlags) flag(fs *flag.FlagSet, v *string, name, usage string) {
	fs.Func(name, usage, func(s string) error {
		*v = s
		if strings.TrimSpace(s) == "" {
			f.blank = name
		} else if f.blank == name {
			f.blank = ""
		}
		return nil
	})
}

// start is the UI's start, checked against the commands canopy has (with
// the config's plugins).
func (f *startFlags) start(cfg *config.Settings) (ui.Start, error) {
	if f.blank != "" {
		return ui.Start{}, blankFlag(f.blank)
	}
	s := ui.Start{Command: f.command, Open: f.open}
	return s, ui.CheckStart(s, cfg.Plugins, cfg.Views)
}

// runOpen is canopy explore showing one resource: canopy open TARGET.
func runOpen(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return exploreAs(ctx, "canopy open", args, stdout, stderr)
}

// openUsage is canopy open's usage line and what it does.
const openUsage = `Usage: canopy open TARGET [flags]

Open the explorer on one resource, shown in the tree with its folders
opened and the cursor on it. TARGET is a uid (of a folder, repo, tag,
identity, role binding, ...), a pull reference
(cgr.dev/<org>/<repo>:<tag>[@<digest>], <repo>:<tag> or <repo>@<digest>),
an advisory id (CGA-xxxx-xxxx-xxxx), or a name the server is asked for (as
ctrl+s in the tree's filter). It takes canopy's flags.

Flags:
`

// wantTarget is canopy open's one argument.
func wantTarget(stderr io.Writer, pos []string) (string, int, bool) {
	if len(pos) != 1 {
		exit.Sayf(stderr, "canopy open: want one uid, pull reference, advisory id or name (got %d arguments)", len(pos))
		fmt.Fprintln(stderr, "Run 'canopy open -h' for usage.")
		return "", exit.Usage, false
	}
	// An empty TARGET (canopy open '' or "$UNSET") names nothing: opening
	// the organization as if none were given would hide the caller's mistake.
	if strings.TrimSpace(pos[0]) == "" {
		exit.Sayf(stderr, "canopy open: the TARGET is empty: want a uid, pull reference, advisory id or name")
		fmt.Fprintln(stderr, "Run 'canopy open -h' for usage.")
		return "", exit.Usage, false
	}
	return pos[0], 0, true
}

// blankFlag is a start flag given an empty or blank value, by name.
type blankFlag string

func (b blankFlag) Error() string {
	switch b {
	case "open":
		return "--open is empty: want a uid, pull reference, advisory id or name to show"
	case "c":
		return "-c is empty: want a command, as typed after :"
	}
	return "--" + string(b) + " is empty: want a command, as typed after :"
}
