package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/keymap"
	"canopy/theme"
	"canopy/ui"
)

// uiFlags are the flags a UI command takes: some settings, and --config.
type uiFlags struct {
	settings []string // the settings this command has flags for
	set      flagValues
	config   *string
	prof     profileFlags
	debug    bool
}

func (f *uiFlags) register(fs *flag.FlagSet) {
	f.set, f.config = registerSettings(fs, f.settings...)
	f.prof.register(fs)
	fs.BoolVar(&f.debug, "debug", false, "log every request (method, path, status, duration; never a token) to "+defaultPaths().Log)
}

// load resolves the settings and builds what the UI needs from them; a
// signal ends the wait for a config file that does not answer.
func (f *uiFlags) load(ctx context.Context, getenv func(string) string) (*settings, theme.Options, *keymap.KeyMap, error) {
	s, err := step(ctx, func() (*settings, error) { return resolve(f.set, *f.config, getenv, pathsFrom(getenv)) })
	if err != nil {
		return nil, theme.Options{}, nil, err
	}
	km, _, err := s.keyMap()
	if err != nil {
		return nil, theme.Options{}, nil, err
	}
	to := s.themeOptions(getenv)
	g := theme.New(to).Glyphs
	km.SetLabels(keymap.Labels{Left: g.Left, Right: g.Right, Up: g.Up, Down: g.Down, Half: g.Half})
	return s, to, km, nil
}

// uiSettings are the settings of every UI command; exploreSettings add how
// to reach an API.
func uiSettings() []string { return []string{"theme", "icons", "read-only", "page-size", "mouse"} }

func exploreSettings() []string {
	return append([]string{"api-url", "audience", "org", "token-file"}, uiSettings()...)
}

// parse parses flags, printing usage to stdout for -h; done is true when the
// command should stop with code. The command takes no arguments.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, done bool) {
	pos, code, done := parseArgs(fs, args, stdout)
	if !done && len(pos) > 0 {
		sayf(fs.Output(), "%s: unexpected argument %q", fs.Name(), pos[0])
		sayf(fs.Output(), "Run '%s -h' for usage.", fs.Name())
		return exitUsage, true
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
				return nil, exitOK, true
			}
			first, _, _ := strings.Cut(msgs.String(), "\n")
			sayf(stderr, "%s: %s", fs.Name(), hideFlagURL(first))
			sayf(stderr, "Run '%s -h' for usage.", fs.Name())
			return nil, exitUsage, true
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
// -api-url: ..."), also one without a scheme, which sayf cannot tell from
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
	return msg[:m[2]] + strconv.Quote(shownURL(v)) + msg[m[3]:]
}

var invalidURLFlag = regexp.MustCompile(`^invalid value (".*") for flag -api-url: `)

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

// runDemo opens the UI on the built-in emulator, served in-process on a
// loopback port: no flags, no set-up, no network.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	uf := uiFlags{settings: uiSettings()}
	uf.register(fs)
	seed := fs.Int64("seed", 1, "seed of the demo data")
	size := fs.String("size", "small", "demo size: small, medium (~100k tags) or large (~1M tags)")
	latency := fs.Duration("latency", 0, "delay added to every request, e.g. 50ms")
	failRate := fs.Float64("fail-rate", 0, "share of requests (0..1) that fail with 503 or 429")
	hostile := fs.Bool("hostile", false, "add hostile data: escape sequences, control, bidi and zero-width characters, wide text, very long strings")
	strict := fs.Bool("strict", false, "serve the demo as the real service may: undocumented sort orders refused, no list totals, built-in roles only in unfiltered role lists")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: canopy demo [flags]\n\nExplore a built-in demo organization served by the emulator in this process.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	cfg, to, keys, err := uf.load(ctx, os.Getenv)
	if err != nil {
		return fail(ctx, stderr, "canopy demo", "reading the config", err, exitUsage)
	}
	// A large demo takes seconds to build: a signal must not wait for it.
	srv, err := stepSaying(ctx, stderr, "canopy demo: building the demo data…", func() (*emulator.Server, error) {
		return emulator.New(emulator.Options{Seed: *seed, Size: *size, Latency: *latency, FailRate: *failRate, Hostile: *hostile, Strict: *strict})
	})
	if err != nil {
		return fail(ctx, stderr, "canopy demo", "building the demo data", err, exitUsage)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		sayf(stderr, "canopy demo: %v", err)
		return exitFailure
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	base := "http://" + ln.Addr().String()
	changes := &ui.ChangeLog{}
	logger, closeLog := uf.debugLogger(os.Getenv, stderr)
	defer closeLog()
	client, err := api.New(api.Options{BaseURL: base, TokenSource: api.StaticToken(srv.AdminToken(), "demo"), Observe: changes.Record,
		Logger: logger, PageSize: cfg.pageSize()})
	if err != nil {
		sayf(stderr, "canopy demo: %v", err)
		return exitFailure
	}
	return uf.prof.profiled(ctx, stderr, "canopy demo", func() int {
		return runUI(ctx, ui.Options{Client: client, Org: srv.OrgUID(), Host: "demo emulator " + ln.Addr().String(),
			Identity: "admin (demo)", Theme: to, Keys: keys, ReadOnly: cfg.flag("read-only"), Changes: changes}, displayOf(to, cfg), stderr)
	})
}

// passedOver says on stderr which token sources the chain passed over
// because their token had expired, and returns the same as one line for
// the status line ("" when none was).
func passedOver(stderr io.Writer, name string, tokens *api.TokenSource) string {
	skipped := tokens.Skipped()
	if len(skipped) == 0 {
		return ""
	}
	line := strings.Join(skipped, "; ") + "; using the token from " + tokens.Origin()
	sayf(stderr, "%s: %s", name, line)
	return line
}

// runExplore opens the UI on an API found by flags and environment.
func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	uf := uiFlags{settings: exploreSettings()}
	uf.register(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `canopy: a terminal explorer for Platform API v2

Usage:
  canopy [flags]            explore an API
  canopy demo [flags]       explore the built-in demo organization, no set-up
  canopy emulator [flags]   serve the API emulator over HTTP
  canopy list KIND [flags]  print repos, tags, groups, identities, bindings,
                            roles or advisories as a table or JSON
  canopy config [flags]     print the effective settings and where each came from
  canopy info               print the config, state, log and cache paths
  canopy completion SHELL   print a completion script (bash, zsh, fish)
  canopy version            print the version (also --version)

Run 'canopy COMMAND -h' for a command's flags. Settings come from flags, then
CANOPY_* environment variables, then $XDG_CONFIG_HOME/canopy/config.yaml.
Exit codes: 0 ok, 1 failure (a refused token included), 2 usage or config
error, 3 the API could not be connected to; 130, 143 or 129 interrupted by
SIGINT, SIGTERM or SIGHUP before the screen switched.

Flags:
`)
		fs.PrintDefaults()
	}
	pos, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	if len(pos) > 0 {
		return unknownCommand(stderr, pos[0])
	}
	cfg, to, keys, err := uf.load(ctx, os.Getenv)
	if err != nil {
		return fail(ctx, stderr, "canopy", "reading the config", err, exitUsage)
	}
	apiURL := cfg.get("api-url")
	shown := api.RedactUserinfo(apiURL) // the URL as messages show it: no password
	tokens := cfg.tokenSource(ctx)
	changes := &ui.ChangeLog{}
	logger, closeLog := uf.debugLogger(os.Getenv, stderr)
	defer closeLog()
	client, err := api.New(api.Options{BaseURL: apiURL, TokenSource: tokens, Observe: changes.Record, Logger: logger, PageSize: cfg.pageSize()})
	if err != nil {
		sayf(stderr, "canopy: %v", err)
		return exitUsage
	}
	// Fail fast, before the screen switches, on the two things a user must
	// fix outside canopy: an unreachable API and a missing token. A token
	// file given is read first: its mode or content is to fix whatever the
	// network does. The token chain sees no context (a FIFO, chainctl
	// waiting on the network): it runs as a step a signal ends.
	if cfg.get("token-file") != "" {
		if _, err := step(ctx, tokens.Token); err != nil {
			return fail(ctx, stderr, "canopy", "reading the token file", err, exitFailure)
		}
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	_, err = client.Ping(pingCtx)
	cancel()
	if code, ok := interrupted(ctx, stderr, "canopy", "connecting to "+shown); ok {
		return code
	}
	var te *api.TransportError
	switch {
	case unreachable(err):
		errors.As(err, &te)
		sayf(stderr, "canopy: cannot reach %s: %v", shown, te.Err)
		return exitNoServer
	case errors.As(err, &te):
		// Connected, but no usable answer: a redirect elsewhere, a body cut short.
		sayf(stderr, "canopy: %s: %v", shown, te.Err)
		return exitFailure
	}
	tok, err := stepSaying(ctx, stderr, "canopy: getting a token…", tokens.Token)
	if err != nil {
		return fail(ctx, stderr, "canopy", "getting a token", err, exitFailure)
	}
	notice := passedOver(stderr, "canopy", tokens)
	host := shown
	if u, err := url.Parse(apiURL); err == nil {
		host = u.Host
	}
	return uf.prof.profiled(ctx, stderr, "canopy", func() int {
		return runUI(ctx, ui.Options{Client: client, Org: cfg.get("org"), Host: host, Identity: whoIs(tok.AccessToken, tokens.Origin()),
			Theme: to, Keys: keys, ReadOnly: cfg.flag("read-only"), Changes: changes, Notice: notice}, displayOf(to, cfg), stderr)
	})
}

// whoIs names the caller from the token's claims (email, else subject),
// never printing the token itself.
func whoIs(token, origin string) string {
	parts := strings.Split(token, ".")
	if len(parts) == 3 {
		if b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "=")); err == nil {
			var c struct{ Email, Sub string }
			if json.Unmarshal(b, &c) == nil {
				if c.Email != "" {
					return c.Email
				}
				if c.Sub != "" {
					return c.Sub
				}
			}
		}
	}
	return "token from " + origin
}

// runUI runs the Bubble Tea program until the user quits; a signal that
// came before it starts ends canopy without a frame. The terminal is read
// ahead of the program, so that ctrl+c ends it at once however many keys
// wait before it (see keyscan.go).
func runUI(ctx context.Context, opts ui.Options, d display, stderr io.Writer) int {
	if code, ok := interrupted(ctx, stderr, "canopy", "starting"); ok {
		return code
	}
	ctx, interrupt := context.WithCancel(ctx)
	defer interrupt()
	m := ui.New(opts)
	defer m.Close()
	defer keepTitle(os.Stdout)() // Bubble Tea writes to stdout
	popts := d.options()
	if keys := openKeys(interrupt); keys != nil {
		defer keys.Close()
		popts = append(popts, tea.WithInput(keys))
	}
	return runProgram(ctx, &pacer{inner: &displayModel{inner: m, d: d}}, defaultPaths().State, stderr, popts...)
}
