package plugin

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"sync"
	"weak"
)

// What runs is checked three times: when the config is read (Check), when
// a plugin's arguments are filled in (Expand), and when each job starts.
// A name is looked up on PATH each time, and what it finds may change
// while canopy runs: a program installed earlier on PATH, an alternative
// switched (editor from nano to vim), a link retargeted. The last check
// is of the very file exec starts.
//
// A Job is made by the shell from Expand's argument vector, so the plugin
// it came from is found again by that vector: expanded maps the address
// of its first element to the plugin. The key is weak, and the entry goes
// when the vector is collected, so a job never run costs nothing for
// long. A Job whose vector Expand did not make carries no server value,
// and is started as it is.
var expanded sync.Map // weak.Pointer[string] → Plugin

// remember notes that argv was expanded from p.
func remember(argv []string, p Plugin) {
	key := weak.Make(&argv[0])
	expanded.Store(key, p)
	runtime.AddCleanup(&argv[0], func(k weak.Pointer[string]) { expanded.Delete(k) }, key)
}

// expandedFrom is the plugin argv was expanded from.
func expandedFrom(argv []string) (Plugin, bool) {
	v, ok := expanded.Load(weak.Make(&argv[0]))
	if !ok {
		return Plugin{}, false
	}
	return v.(Plugin), true
}

// command is the process for job j, or why it may not start: the program
// exec found is resolved again, and a variable that would now reach a
// runner stops the job (an *ArgError inside).
func command(ctx context.Context, j Job) (*exec.Cmd, error) {
	if len(j.Argv) == 0 {
		return nil, fmt.Errorf("no program")
	}
	cmd := exec.CommandContext(ctx, j.Argv[0], j.Argv[1:]...)
	p, ok := expandedFrom(j.Argv)
	if !ok || cmd.Err != nil {
		return cmd, nil // Start says a program not found
	}
	if err := p.reachesRunner(resolveAt(p.Command, cmd.Path)); err != nil {
		return nil, fmt.Errorf("%s: %w", cmd.Path, err)
	}
	return cmd, nil
}
