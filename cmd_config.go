package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"canopy/api"
	"canopy/theme"
	"canopy/views/safe"
)

// runConfig prints the effective settings and where each came from, so a
// user can tell why canopy does what it does.
func runConfig(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
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
	s, err := step(ctx, func() (*settings, error) { return resolve(uf.set, *uf.config, getenv, pathsFrom(getenv)) })
	if err != nil {
		return fail(ctx, stderr, "canopy config", "reading the config", err, exitUsage)
	}
	km, moves, kerr := s.keyMap()
	file := s.File
	if file == "" {
		file = pathsFrom(getenv).Config + " (not found: defaults apply)"
	}
	sayf(stdout, "config file: %s", file)
	fmt.Fprintln(stdout)
	logger, closeLog := uf.debugLogger(getenv, stderr)
	defer closeLog()
	rows := [][]string{{"SETTING", "VALUE", "FROM"}}
	for _, d := range settingDefs() {
		v, from := s.effective(d.name, getenv)
		rows = append(rows, []string{d.name, v, from})
		if logger != nil { // --debug: the settings a bug report needs (no token is a setting)
			logger.Info("setting", "name", d.name, "value", v, "from", from)
		}
	}
	rows = append(rows, s.lookRows(getenv, uf.debug)...)
	for _, role := range slices.Sorted(mapKeys(s.Colors)) {
		rows = append(rows, []string{"colors." + role, s.Colors[role], "file " + s.at(s.colorLines[role])})
	}
	writeTable(stdout, safeRows(rows))
	if kerr != nil {
		sayf(stderr, "canopy config: %v", kerr)
		return exitUsage
	}
	fmt.Fprintln(stdout, "\nkeys (override in the config file under keys:, e.g. `delete: [ctrl+d]`):")
	rows = nil
	for _, d := range km.Defs() {
		from := "default"
		if line, ok := s.keyLines[string(d.Action)]; ok {
			from = "file " + s.at(line)
		}
		keys := strings.Join(d.Keys, ", ")
		if keys == "" {
			keys = "(none)"
		}
		rows = append(rows, []string{"  " + string(d.Action), keys, from, d.Desc})
	}
	writeTable(stdout, safeRows(rows))
	for _, mv := range moves {
		sayf(stdout, "%s moved from %s to %s (file %s)", mv.Key, mv.From, mv.To, s.at(s.keyLines[string(mv.To)]))
	}
	return exitOK
}

// effective is a setting's value as canopy uses it, and where it came
// from, including what overrides the setting itself: NO_COLOR or TERM=dumb
// make the theme mono, and an empty audience is the API URL. A URL's user
// and password are never shown.
func (s *settings) effective(name string, getenv func(string) string) (value, from string) {
	value, from = s.effective1(name, getenv)
	return api.RedactUserinfo(value), from
}

func (s *settings) effective1(name string, getenv func(string) string) (value, from string) {
	value, from = s.get(name), s.from(name)
	switch {
	case name == "theme":
		if mono, why := noColor(getenv); mono && value != theme.Mono {
			return theme.Mono, fmt.Sprintf("%s (overrides %s from %s)", why, value, from)
		}
	case name == "audience" && value == "":
		return s.audience(), "the api-url (" + s.from("api-url") + ")"
	case name == "org" && value == "":
		return "-", from + ": the only one the token sees, else asked"
	case value == "":
		return "-", from
	}
	return value, from
}

// lookRows are what canopy decides from the terminal: the glyphs (ASCII
// when the locale is not UTF-8) and the debug log.
func (s *settings) lookRows(getenv func(string) string, debug bool) [][]string {
	glyphs, from := "ascii", "default (icons: false)"
	if s.flag("icons") {
		glyphs, from = "icons", "icons: "+s.from("icons")
	}
	if ok, why := utf8Locale(getenv); !ok {
		glyphs, from = "ascii, ascii frame", why+": not UTF-8"
	}
	log := pathsFrom(getenv).Log
	debugRow := []string{"debug", "off", "default (--debug writes " + log + ")"}
	if debug {
		debugRow = []string{"debug", "on: " + log, "flag --debug"}
	}
	return [][]string{{"glyphs", glyphs, from}, debugRow}
}

// safeRows makes every cell safe to print: values come from the config
// file and the environment.
func safeRows(rows [][]string) [][]string {
	for _, r := range rows {
		for i := range r {
			r[i] = safe.String(r[i])
		}
	}
	return rows
}

// runInfo prints the paths canopy reads and writes, and its version.
func runInfo(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
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
	// A path on a mount that does not answer must not outlast a signal.
	rows, err := step(ctx, func() ([][]string, error) {
		return [][]string{
			{"version", api.Version},
			{"config", config + exists(strings.TrimSuffix(config, " (from CANOPY_CONFIG)"))},
			{"state", p.State + exists(p.State)},
			{"log", p.Log + " (written with --debug)" + exists(p.Log)},
			{"cache", p.Cache + " (nothing is cached on disk yet)"},
		}, nil
	})
	if err != nil {
		return fail(ctx, stderr, "canopy info", "looking at the paths", err, exitFailure)
	}
	writeTable(stdout, safeRows(rows))
	return exitOK
}

func exists(path string) string {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return " [not there]"
	}
	return ""
}
