package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"canopy/theme"
)

// A command is one word after `canopy`, as everything that names commands
// knows it: Run picks it by name, the usage lists it, an unknown word is
// matched against it, and completion offers its flags and the words that
// may follow it.
type command struct {
	name    string
	aliases []string // other words that run it ("--version")
	// synopsis is how the usage shows it after "canopy" ("" leaves it
	// out).
	synopsis string
	// summary is what it does ("\n" starts another line), made only when
	// the usage is shown: list's names every collection, wrapped, which
	// every start (--version) would otherwise pay for (issue 39).
	summary func() string
	// flags registers its flags on fs, with the function the command
	// itself parses them with; nil when it takes none.
	flags func(fs *flag.FlagSet)
	// args are the words that may follow it (list's collections,
	// completion's shells); nil for none.
	args func() []string
	run  func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// explore is the command run when the arguments name none: the UI on a
// real API.
func explore() command {
	return command{synopsis: "[flags]", summary: says("explore an API"), flags: func(fs *flag.FlagSet) { exploreFlags(fs); new(startFlags).register(fs, false) },
		run: runExplore}
}

// commands are the commands named by a word, in the order the usage lists
// them.
func commands() []command {
	return []command{
		{name: "demo", synopsis: "demo [flags]", summary: says("explore the built-in demo organization, no set-up"),
			flags: func(fs *flag.FlagSet) { new(demoFlags).register(fs) }, run: runDemo},
		{name: "emulator", synopsis: "emulator [flags]", summary: says("serve the API emulator over HTTP"),
			flags: func(fs *flag.FlagSet) { new(emulatorFlags).register(fs) }, run: runEmulator},
		{name: "list", synopsis: "list KIND [flags]", summary: listSummary,
			flags: func(fs *flag.FlagSet) { new(listFlags).register(fs) }, args: listNames, run: withEnv(runList)},
		{name: "open", synopsis: "open TARGET [flags]", summary: says("explore with one resource shown: a uid, a pull\nreference or an advisory id"),
			flags: func(fs *flag.FlagSet) { exploreFlags(fs); new(startFlags).register(fs, false) }, run: runOpen},
		{name: "config", synopsis: "config [flags]", summary: says("print the effective settings and where each came from"),
			flags: func(fs *flag.FlagSet) { exploreFlags(fs) }, run: withEnv(runConfig)},
		{name: "info", synopsis: "info", summary: says("print the config, state, log and cache paths"), run: withEnv(runInfo)},
		{name: "completion", synopsis: "completion SHELL", summary: says("print a completion script (" + strings.Join(shells(), ", ") + ")"),
			args: shells, run: runCompletion},
		{name: "version", aliases: []string{"--version", "-version"}, synopsis: "version", summary: says("print the version (also --version)"),
			run: runVersion},
		{name: "help", run: runHelp},
	}
}

// says is a summary that is fixed text.
func says(text string) func() string { return func() string { return text } }

// withEnv runs a command that reads the environment with this process's.
func withEnv(run func(context.Context, []string, func(string) string, io.Writer, io.Writer) int) func(context.Context, []string, io.Writer, io.Writer) int {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return run(ctx, args, os.Getenv, stdout, stderr)
	}
}

// subcommands are the words that name a command, for usage and completion.
func subcommands() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// commandNamed is the command word runs, by its name or an alias.
func commandNamed(word string) (command, bool) {
	for _, c := range commands() {
		if c.name == word || slices.Contains(c.aliases, word) {
			return c, true
		}
	}
	return command{}, false
}

// runHelp prints a command's usage (canopy help list), else canopy's.
func runHelp(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] != "help" && slices.Contains(subcommands(), args[0]) {
		return Run(ctx, []string{args[0], "-h"}, stdout, stderr)
	}
	return runExplore(ctx, []string{"-h"}, stdout, stderr)
}

// commandList is the usage's list of commands: "canopy SYNOPSIS" and what
// each does, in two columns.
func commandList() string {
	const width = 28 // "canopy open TARGET [flags]" and two spaces
	var b strings.Builder
	for _, c := range append([]command{explore()}, commands()...) {
		if c.synopsis == "" {
			continue
		}
		for i, line := range strings.Split(c.summary(), "\n") {
			first := ""
			if i == 0 {
				first = "canopy " + c.synopsis
			}
			fmt.Fprintf(&b, "  %-*s%s\n", width, first, line)
		}
	}
	return b.String()
}

// A flagValue is what completion offers after a flag that takes more
// than free text: one of some words, or a file name.
type flagValue struct {
	flag  string          // the flag's name, without dashes
	words func() []string // nil: a file name
}

// flagValues are the flags, of any command, whose values completion
// knows: a theme, an output format, a demo size, an ecosystem, or a file.
// Any other flag that takes a value takes free text.
func flagValues() []flagValue {
	return []flagValue{
		{flag: "theme", words: theme.Names},
		{flag: "o", words: outputFormats},
		{flag: "size", words: demoSizes},
		{flag: "ecosystem", words: ecosystemNames},
		{flag: "config"},
		{flag: "token-file"},
		{flag: "cpuprofile"},
		{flag: "memprofile"},
	}
}

// shells are the shells canopy completion writes a script for.
func shells() []string { return []string{"bash", "zsh", "fish"} }

// outputFormats are canopy list's -o values.
func outputFormats() []string { return []string{"table", "json"} }

// demoSizes are the sizes of the demo's and the emulator's data.
func demoSizes() []string { return []string{"small", "medium", "large"} }
