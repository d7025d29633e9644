package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"canopy/api"
	"canopy/cli/config"
	"canopy/cli/exit"
	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
)

// runConfig prints the effective settings and where each came from, so a
// user can tell why canopy does what it does.
func runConfig(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	uf := exploreFlags(fs)
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
	s, err := exit.Step(ctx, func() (*config.Settings, error) {
		return config.Resolve(uf.set, *uf.config, getenv, config.PathsFrom(getenv))
	})
	if err != nil {
		return exit.Fail(ctx, stderr, "canopy config", "reading the config", err, exit.Usage)
	}
	km, moves, kerr := s.KeyMap()
	if kerr == nil {
		kerr = checkPlugins(s)
	}
	file := s.File
	if file == "" {
		file = config.PathsFrom(getenv).Config + " (not found: defaults apply)"
	}
	exit.Sayf(stdout, "config file: %s", file)
	fmt.Fprintln(stdout)
	logger, closeLog := uf.debugLogger(getenv, stderr)
	defer closeLog()
	rows := [][]string{{"SETTING", "VALUE", "FROM"}}
	for _, d := range config.Defs() {
		v, from := effective(s, d.Name, getenv)
		rows = append(rows, []string{d.Name, v, from})
		if logger != nil { // --debug: the settings a bug report needs (no token is a setting)
			logger.Info("setting", "name", d.Name, "value", v, "from", from)
		}
	}
	rows = append(rows, lookRows(s, getenv, uf.debug)...)
	for _, role := range slices.Sorted(maps.Keys(s.Colors)) {
		rows = append(rows, []string{"colors." + role, s.Colors[role], "file " + s.At(s.ColorLine(role))})
	}
	writeTable(stdout, safeRows(rows))
	if kerr != nil {
		exit.Sayf(stderr, "canopy config: %v", kerr)
		return exit.Usage
	}
	fmt.Fprintln(stdout, "\nkeys (override in the config file under keys:, e.g. `delete: [ctrl+d]`):")
	rows = nil
	for _, d := range km.Defs() {
		if d.Group == keymap.Plugins {
			continue // listed with the plugins
		}
		from := "default"
		if line, ok := s.KeyLine(string(d.Action)); ok {
			from = "file " + s.At(line)
		}
		keys := strings.Join(d.Keys, ", ")
		if keys == "" {
			keys = "(none)"
		}
		rows = append(rows, []string{"  " + string(d.Action), keys, from, d.Desc})
	}
	writeTable(stdout, safeRows(rows))
	for _, mv := range moves {
		exit.Sayf(stdout, "%s moved from %s to %s (file %s)", mv.Key, mv.From, mv.To, s.At(keyLine(s, string(mv.To))))
	}
	writePlugins(stdout, s)
	writeViews(stdout, s)
	return exit.OK
}

// writeViews lists the saved views, each with its line.
func writeViews(stdout io.Writer, s *config.Settings) {
	if len(s.Views) == 0 {
		fmt.Fprintln(stdout, "\nviews: none (:save <name> on a table writes one under views:)")
		return
	}
	fmt.Fprintln(stdout, "\nviews (each is a : command):")
	rows := [][]string{{"  NAME", "SHOWS", "FROM"}}
	for _, v := range s.Views {
		rows = append(rows, []string{"  " + v.Name, v.Says(), "file " + s.At(v.Line)})
	}
	writeTable(stdout, safeRows(rows))
}

// writePlugins lists the plugins, each with its line and whether its
// program is there to run.
func writePlugins(stdout io.Writer, s *config.Settings) {
	if len(s.Plugins) == 0 {
		fmt.Fprintln(stdout, "\nplugins: none (add them under plugins: in the config file; docs/plugins.md has examples)")
		return
	}
	fmt.Fprintln(stdout, "\nplugins (each is also a : command):")
	rows := [][]string{{"  NAME", "KEY", "KINDS", "MODE", "RUNS", "FROM"}}
	for _, p := range s.Plugins {
		key := p.Key
		if key == "" {
			key = "(none)"
		}
		mode := string(p.Mode)
		if p.Confirm {
			mode += ", asks first"
		}
		runs := p.Summary()
		if p.Locate() != nil {
			runs += "  [" + p.Command + ": not found]"
		}
		rows = append(rows, []string{"  " + p.Name, key, strings.Join(p.Kinds, ", "), mode, runs, "file " + s.At(p.Line)})
	}
	writeTable(stdout, safeRows(rows))
}

// effective is a setting's value as canopy uses it, and where it came
// from, including what overrides the setting itself: NO_COLOR or TERM=dumb
// make the theme mono, and an empty audience is the API URL. A URL's user
// and password are never shown.
func effective(s *config.Settings, name string, getenv func(string) string) (value, from string) {
	value, from = effective1(s, name, getenv)
	return api.RedactUserinfo(value), from
}

func effective1(s *config.Settings, name string, getenv func(string) string) (value, from string) {
	value, from = s.Get(name), s.From(name)
	switch {
	case name == "theme":
		if mono, why := config.NoColor(getenv); mono && value != theme.Mono {
			return theme.Mono, fmt.Sprintf("%s (overrides %s from %s)", why, value, from)
		}
	case name == "audience" && value == "":
		return s.Audience(), "the api-url (" + s.From("api-url") + ")"
	case name == "org" && value == "":
		return "-", from + ": the only one the token sees, else asked"
	case value == "":
		return "-", from
	}
	return value, from
}

// lookRows are what canopy decides from the terminal: the glyphs (ASCII
// when the locale is not UTF-8) and the debug log.
func lookRows(s *config.Settings, getenv func(string) string, debug bool) [][]string {
	glyphs, from := "ascii", "default (icons: false)"
	if s.Flag("icons") {
		glyphs, from = "icons", "icons: "+s.From("icons")
	}
	if ok, why := config.UTF8Locale(getenv); !ok {
		glyphs, from = "ascii, ascii frame", why+": not UTF-8"
	}
	log := config.PathsFrom(getenv).Log
	debugRow := []string{"debug", "off", "default (--debug writes " + log + ")"}
	if debug {
		debugRow = []string{"debug", "on: " + log, "flag --debug"}
	}
	return [][]string{{"glyphs", glyphs, from}, debugRow}
}

// keyLine is the config file's line of an action's key override (0 for
// none).
func keyLine(s *config.Settings, action string) int {
	line, _ := s.KeyLine(action)
	return line
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
	p := config.PathsFrom(getenv)
	configPath := p.Config
	if c := getenv("CANOPY_CONFIG"); c != "" {
		configPath = c + " (from CANOPY_CONFIG)"
	}
	// A path on a mount that does not answer must not outlast a signal.
	rows, err := exit.Step(ctx, func() ([][]string, error) {
		return append(readBuild().rows(), [][]string{
			{"config", configPath + exists(strings.TrimSuffix(configPath, " (from CANOPY_CONFIG)"))},
			{"state", p.State + exists(p.State)},
			{"log", p.Log + " (written with --debug)" + exists(p.Log)},
			{"cache", p.Cache + " (nothing is cached on disk yet)"},
		}...), nil
	})
	if err != nil {
		return exit.Fail(ctx, stderr, "canopy info", "looking at the paths", err, exit.Failure)
	}
	writeTable(stdout, safeRows(rows))
	return exit.OK
}

func exists(path string) string {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return " [not there]"
	}
	return ""
}
