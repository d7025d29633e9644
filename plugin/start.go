package plugin

import (
	"context"
	"fmt"
	"os/exec"
)

// What runs is checked three times: when the config is read (Check), when
// a plugin's arguments are filled in (Expand), and when each job starts.
// A name is looked up on PATH each time, and what it finds may change
// while canopy runs: a program installed earlier on PATH, an alternative
// switched (editor from nano to vim), a link retargeted. The last check
// is of the very file exec starts, for a Job made by Plugin.Job.

// command is the process for job j, or why it may not start: the program
// exec found is resolved again, and a variable that would now reach a
// runner stops the job (an *ArgError inside).
func command(ctx context.Context, j Job) (*exec.Cmd, error) {
	if len(j.Argv) == 0 {
		return nil, fmt.Errorf("no program")
	}
	cmd := exec.CommandContext(ctx, j.Argv[0], j.Argv[1:]...)
	if j.from == nil || cmd.Err != nil {
		return cmd, nil // no server value in it; Start says a program not found
	}
	if err := j.from.reachesRunner(resolveAt(j.from.Command, cmd.Path)); err != nil {
		return nil, fmt.Errorf("%s: %w", cmd.Path, err)
	}
	return cmd, nil
}
