package cli

import (
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"canopy/cli/exit"
)

// drawsOn refuses to start the explorer when out, where it draws, is not
// a terminal (canopy open X > file, a pipe, a CI job): the program would
// write the terminal's set-up and title sequences into the file and draw
// nowhere a user could see. It says so, as a usage mistake, before anything
// is written to out.
func drawsOn(stderr io.Writer, name string, out *os.File) (int, bool) {
	if term.IsTerminal(out.Fd()) {
		return 0, true
	}
	exit.Sayf(stderr, "%s: the explorer draws on a terminal, and stdout is not one (for a script, canopy list prints what a table shows)", name)
	return exit.Usage, false
}
