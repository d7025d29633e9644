package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"canopy/cli/config"
	"canopy/cli/exit"
	"canopy/keymap"
	"canopy/lazyregexp"
	"canopy/saved"
	"canopy/theme"
	"canopy/ui"
)

// uiFlags are the flags a UI command takes: some settings, and --config.
type uiFlags struct {
	settings []string // the settings this command has flags for
	set      config.FlagValues
	config   *string
	prof     profileFlags
	debug    bool
}

func (f *uiFlags) register(fs *flag.FlagSet) {
	f.set, f.config = config.Register(fs, f.settings...)
	f.prof.register(fs)
	fs.BoolVar(&f.debug, "debug", false, "log every request (method, path, status, duration; never a token) to "+config.DefaultPaths().Log)
}

// load resolves the settings and builds what the UI needs from them; a
// signal ends the wait for a config file that does not answer.
func (f *uiFlags) load(ctx context.Context, getenv func(string) string) (*config.Settings, theme.Options, *keymap.KeyMap, error) {
	s, err := exit.Step(ctx, func() (*config.Settings, error) {
		return config.Resolve(f.set, *f.config, getenv, config.PathsFrom(getenv))
	})
	if err != nil {
		return nil, theme.Options{}, nil, err
	}
	km, _, err := s.KeyMap()
	if err == nil {
		err = checkPlugins(s)
	}
	if err != nil {
		return nil, theme.Options{}, nil, err
	}
	to := s.ThemeOptions(getenv)
	g := theme.New(to).Glyphs
	km.SetLabels(keymap.Labels{Left: g.Left, Right: g.Right, Up: g.Up, Down: g.Down, Half: g.Half})
	return s, to, km, nil
}

// exploreFlags registers the flags of canopy (explore) and canopy config:
// every setting.
func exploreFlags(fs *flag.FlagSet) *uiFlags {
	uf := &uiFlags{settings: exploreSettings()}
	uf.register(fs)
	return uf
}

// uiSettings are the settings of every UI command; exploreSettings add how
// to reach an API.
func uiSettings() []string {
	return []string{"theme", "icons", "read-only", "page-size", "mouse", "resume", "refresh", "stale-days"}
}

func exploreSettings() []string {
	return append([]string{"api-url", "allow-insecure-http", "audience", "org", "token-file"}, uiSettings()...)
}

// parse parses flags, printing usage to stdout for -h; done is true when the
// command should stop with code. The command takes no arguments.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, done bool) {
	pos, code, done := parseArgs(fs, args, stdout)
	if !done && len(pos) > 0 {
		exit.Sayf(fs.Output(), "%s: unexpected argument %q", fs.Name(), pos[0])
		exit.Sayf(fs.Output(), "Run '%s -h' for usage.", fs.Name())
		return exit.Usage, true
	}
	return code, done
}

// parseArgs parses flags wherever they are among the arguments, as people
// type them (`canopy list --org acme repos` and `canopy list repos --org
// acme` alike), and returns the other arguments in order; after "--"
// everything is an argument.
func parseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) (pos []string, code int, done bool) {
	stderr := fs.Output()
	for {
		var msgs bytes.Buffer
		fs.SetOutput(&msgs)
		err := fs.Parse(args)
		fs.SetOutput(stderr)
		if err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stdout)
				fs.Usage()
				fs.SetOutput(stderr)
				return nil, exit.OK, true
			}
			first, _, _ := strings.Cut(msgs.String(), "\n")
			exit.Sayf(stderr, "%s: %s", fs.Name(), hideFlagURL(first))
			exit.Sayf(stderr, "Run '%s -h' for usage.", fs.Name())
			return nil, exit.Usage, true
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" && !wantsValue(fs, args[:used-1]) {
			return append(pos, rest...), 0, false
		}
		if len(rest) == 0 {
			return pos, 0, false
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// hideFlagURL hides the user and password of an --api-url the flag
// package quotes whole in its error ("invalid value "u:pw@host" for flag
// -api-url: ..."), also one without a scheme, which exit.Sayf cannot tell from
// an email address.
func hideFlagURL(msg string) string {
	m := invalidURLFlag.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg
	}
	v, err := strconv.Unquote(msg[m[2]:m[3]])
	if err != nil {
		return msg[:m[2]] + `"***"` + msg[m[3]:]
	}
	return msg[:m[2]] + strconv.Quote(config.ShownURL(v)) + msg[m[3]:]
}

var invalidURLFlag = lazyregexp.New(`^invalid value (".*") for flag -api-url: `)

// wantsValue reports whether the last of args is a flag still waiting for
// its value (so a "--" after it is that value, not the end of the flags).
func wantsValue(fs *flag.FlagSet, args []string) bool {
	if len(args) == 0 {
		return false
	}
	name, ok := strings.CutPrefix(args[len(args)-1], "-")
	if !ok || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(strings.TrimPrefix(name, "-"))
	if f == nil {
		return false
	}
	b, isBool := f.Value.(interface{ IsBoolFlag() bool })
	return !isBool || !b.IsBoolFlag()
}

// checkPlugins refuses a plugin named as one of canopy's `:` commands,
// and a saved view canopy cannot open.
func checkPlugins(s *config.Settings) error {
	for _, p := range s.Plugins {
		if err := ui.PluginClash(p); err != nil {
			return fmt.Errorf("%s: plugins: %s: %w", s.At(p.Line), p.Name, err)
		}
	}
	if v, err := ui.CheckViews(s.Views, s.Plugins); err != nil {
		return fmt.Errorf("%s: views: %s: %w", s.At(v.Line), v.Name, err)
	}
	return nil
}

// viewSaver writes a view into the config file read, or the default one.
func viewSaver(s *config.Settings, getenv func(string) string) func(saved.View) (string, error) {
	return func(v saved.View) (string, error) {
		path := s.File
		if path == "" {
			path = config.PathsFrom(getenv).Config
		}
		// A save is a moment's work; quitting canopy ends it with the rest.
		return path, config.SaveView(context.Background(), path, v)
	}
}
