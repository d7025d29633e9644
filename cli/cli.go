// Package cli is canopy's commands. Run picks the one the arguments name
// (explore when they name none); each parses its own flags, reads the
// settings (cli/config) and runs, in the terminal (cli/program) or as a
// script would use it, and ends with a status of cli/exit.
//
//	canopy [flags]            explore a real API (token from the chain in API.md)
//	canopy demo [flags]       explore the built-in emulator, no set-up
//	canopy emulator [flags]   serve the emulator over HTTP for scripts and tests
//	canopy list KIND [flags]  print a collection as a table or JSON, for scripts
//	canopy config | info      the effective settings; the paths in use
//	canopy completion SHELL   a shell completion script
package cli

import (
	"context"
	"flag"
	"io"
	"strings"

	"canopy/cli/exit"
)

// Run runs the command args name (explore when they name none) and
// returns the process exit status.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if c, ok := commandNamed(args[0]); ok {
			return c.run(ctx, args[1:], stdout, stderr)
		}
		if !strings.HasPrefix(args[0], "-") {
			return unknownCommand(stderr, args[0])
		}
		if c, flags, rest, ok := commandAfterFlags(args); ok {
			// canopy --read-only demo is canopy demo --read-only: the
			// command's own flags say whether it takes them.
			return c.run(ctx, append(flags, rest...), stdout, stderr)
		}
	}
	return runExplore(ctx, args, stdout, stderr)
}

// commandAfterFlags finds a command named after canopy's own flags
// (canopy --config f config): the flags, as canopy reads them (a flag's
// value is never taken for a command), and the command's arguments. Not
// after "--", which ends the flags, nor after a flag canopy does not have.
func commandAfterFlags(args []string) (c command, flags, rest []string, ok bool) {
	fs := flag.NewFlagSet("canopy", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	exploreFlags(fs)
	var sf startFlags
	sf.register(fs, false)
	if fs.Parse(args) != nil || fs.NArg() == 0 {
		return command{}, nil, nil, false
	}
	used := len(args) - fs.NArg()
	if args[used-1] == "--" {
		return command{}, nil, nil, false
	}
	c, ok = commandNamed(fs.Arg(0))
	return c, args[:used:used], fs.Args()[1:], ok
}

// unknownCommand says that name is no command, lists the commands (and
// the closest one, for a typo), exit 2.
func unknownCommand(stderr io.Writer, name string) int {
	exit.Sayf(stderr, "canopy: unknown command %q", name)
	if near := closest(name, subcommands()); near != "" {
		exit.Sayf(stderr, "Did you mean %q?", near)
	}
	exit.Sayf(stderr, "Commands: %s", strings.Join(subcommands(), ", "))
	exit.Sayf(stderr, "Run 'canopy -h' for usage.")
	return exit.Usage
}

// closest is the word within two edits of s, "" when none is.
func closest(s string, words []string) string {
	best, bestD := "", 3
	for _, w := range words {
		if d := editDistance(s, w); d < bestD {
			best, bestD = w, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
