package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"canopy/api"
)

// runConfig prints the effective settings and where each came from, so a
// user can tell why canopy does what it does.
func runConfig(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	uf := uiFlags{settings: exploreSettings()}
	uf.register(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: canopy config [flags]

Print the effective settings and where each came from: a flag, then the
environment, then the config file, then the default. Flags given here are
shown as a UI command would take them.

Flags:
`)
		fs.PrintDefaults()
	}
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	s, err := resolve(uf.set, *uf.config, getenv, pathsFrom(getenv))
	if err != nil {
		fmt.Fprintf(stderr, "canopy config: %v\n", err)
		return exitUsage
	}
	km, kerr := s.keyMap()
	file := s.File
	if file == "" {
		file = pathsFrom(getenv).Config + " (not found: defaults apply)"
	}
	fmt.Fprintf(stdout, "config file: %s\n\n", file)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tVALUE\tFROM")
	for _, d := range settingDefs() {
		v := s.get(d.name)
		if v == "" {
			v = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.name, v, s.from(d.name))
	}
	for _, role := range slices.Sorted(mapKeys(s.Colors)) {
		fmt.Fprintf(tw, "colors.%s\t%s\tfile %s\n", role, s.Colors[role], s.colorsAt)
	}
	tw.Flush()
	if kerr != nil {
		fmt.Fprintf(stderr, "canopy config: %v\n", kerr)
		return exitUsage
	}
	fmt.Fprintln(stdout, "\nkeys (override in the config file under keys:, e.g. `delete: [ctrl+d]`):")
	tw = tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, d := range km.Defs() {
		from := "default"
		if _, ok := s.Keys[string(d.Action)]; ok {
			from = "file " + s.keysAt
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", d.Action, strings.Join(d.Keys, ", "), from, d.Desc)
	}
	tw.Flush()
	return exitOK
}

// runInfo prints the paths canopy reads and writes, and its version.
func runInfo(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy info", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: canopy info\n\nPrint the version and the config, state, log and cache paths in use.\n")
	}
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	p := pathsFrom(getenv)
	config := p.Config
	if c := getenv("CANOPY_CONFIG"); c != "" {
		config = c + " (from CANOPY_CONFIG)"
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "version\t%s\n", api.Version)
	fmt.Fprintf(tw, "config\t%s%s\n", config, exists(strings.TrimSuffix(config, " (from CANOPY_CONFIG)")))
	fmt.Fprintf(tw, "state\t%s%s\n", p.State, exists(p.State))
	fmt.Fprintf(tw, "log\t%s (written with --debug)%s\n", p.Log, exists(p.Log))
	fmt.Fprintf(tw, "cache\t%s (nothing is cached on disk yet)\n", p.Cache)
	tw.Flush()
	return exitOK
}

func exists(path string) string {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return " [not there]"
	}
	return ""
}
