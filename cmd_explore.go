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
	"strings"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
	"canopy/ui"
)

// uiFlags are the flags every UI command shares.
type uiFlags struct {
	theme    string
	icons    bool
	readOnly bool
	debug    bool
}

func (f *uiFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.theme, "theme", theme.Auto, "color theme: "+strings.Join(theme.Names(), ", "))
	fs.BoolVar(&f.icons, "icons", false, "use Unicode icons instead of ASCII glyphs")
	fs.BoolVar(&f.readOnly, "read-only", false, "change nothing: every edit, create, delete and binding key is disabled")
	fs.BoolVar(&f.debug, "debug", false, "log every request (method, path, status, duration; never a token) to "+defaultPaths().Log)
}

func (f *uiFlags) themeOptions() (theme.Options, error) {
	known := false
	for _, n := range theme.Names() {
		known = known || n == f.theme
	}
	if !known {
		return theme.Options{}, fmt.Errorf("unknown theme %q (want one of %s)", f.theme, strings.Join(theme.Names(), ", "))
	}
	return theme.Options{Name: f.theme, Dark: true, NoColor: noColor(), Icons: f.icons}, nil
}

// noColor honours NO_COLOR for any non-empty value (no-color.org), and a
// dumb terminal.
func noColor() bool {
	return os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb"
}

// parse parses flags, printing usage to stdout for -h; done is true when the
// command should stop with code.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, done bool) {
	stderr := fs.Output()
	var msgs bytes.Buffer
	fs.SetOutput(&msgs)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return exitOK, true
		}
		first, _, _ := strings.Cut(msgs.String(), "\n")
		fmt.Fprintf(stderr, "%s: %s\nRun '%s -h' for usage.\n", fs.Name(), first, fs.Name())
		return exitUsage, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return exitUsage, true
	}
	return 0, false
}

// runDemo opens the UI on the built-in emulator, served in-process on a
// loopback port: no flags, no set-up, no network.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var uf uiFlags
	uf.register(fs)
	seed := fs.Int64("seed", 1, "seed of the demo data")
	size := fs.String("size", "small", "demo size: small, medium (~100k tags) or large (~1M tags)")
	latency := fs.Duration("latency", 0, "delay added to every request, e.g. 50ms")
	failRate := fs.Float64("fail-rate", 0, "share of requests (0..1) that fail with 503 or 429")
	hostile := fs.Bool("hostile", false, "add hostile data: escape sequences, control, bidi and zero-width characters, wide text, very long strings")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: canopy demo [flags]\n\nExplore a built-in demo organization served by the emulator in this process.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	to, err := uf.themeOptions()
	if err != nil {
		fmt.Fprintf(stderr, "canopy demo: %v\n", err)
		return exitUsage
	}
	srv, err := emulator.New(emulator.Options{Seed: *seed, Size: *size, Latency: *latency, FailRate: *failRate, Hostile: *hostile})
	if err != nil {
		fmt.Fprintf(stderr, "canopy demo: %v\n", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(stderr, "canopy demo: %v\n", err)
		return exitFailure
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	base := "http://" + ln.Addr().String()
	changes := &ui.ChangeLog{}
	logger, closeLog := uf.debugLogger(stderr)
	defer closeLog()
	client, err := api.New(api.Options{BaseURL: base, TokenSource: api.StaticToken(srv.AdminToken(), "demo"), Observe: changes.Record, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "canopy demo: %v\n", err)
		return exitFailure
	}
	return runUI(ctx, ui.Options{Client: client, Org: srv.OrgUID(), Host: "demo emulator " + ln.Addr().String(),
		Identity: "admin (demo)", Theme: to, ReadOnly: uf.readOnly, Changes: changes}, stderr)
}

// runExplore opens the UI on an API found by flags and environment.
func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var uf uiFlags
	uf.register(fs)
	apiURL := fs.String("api-url", envOr(api.DefaultBaseURL, "CANOPY_API_URL", "CHAINGUARD_PLATFORM_API"), "Platform API base URL (env CANOPY_API_URL, CHAINGUARD_PLATFORM_API)")
	audience := fs.String("audience", os.Getenv("CANOPY_AUDIENCE"), "token audience (default: the API URL)")
	org := fs.String("org", os.Getenv("CANOPY_ORG"), "organization uid; empty asks when the token sees several (env CANOPY_ORG)")
	tokenFile := fs.String("token-file", "", "read the token from this file (mode 0600); else CANOPY_TOKEN, CHAINGUARD_TOKEN, the platform CLI's cache, chainctl")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `canopy: a terminal explorer for Platform API v2

Usage:
  canopy [flags]            explore an API
  canopy demo [flags]       explore the built-in demo organization, no set-up
  canopy emulator [flags]   serve the API emulator over HTTP
  canopy version            print the version

Flags:
`)
		fs.PrintDefaults()
	}
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	to, err := uf.themeOptions()
	if err != nil {
		fmt.Fprintf(stderr, "canopy: %v\n", err)
		return exitUsage
	}
	aud := *audience
	if aud == "" {
		aud = *apiURL
	}
	tokens := api.NewTokenSource(api.TokenOptions{Audience: aud, TokenFile: *tokenFile})
	changes := &ui.ChangeLog{}
	logger, closeLog := uf.debugLogger(stderr)
	defer closeLog()
	client, err := api.New(api.Options{BaseURL: *apiURL, TokenSource: tokens, Observe: changes.Record, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "canopy: %v\n", err)
		return exitUsage
	}
	// Fail fast, before the screen switches, on the two things a user must
	// fix outside canopy: an unreachable API and a missing token.
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	_, err = client.Ping(pingCtx)
	cancel()
	var te *api.TransportError
	if errors.As(err, &te) {
		fmt.Fprintf(stderr, "canopy: cannot reach %s: %v\n", *apiURL, te.Err)
		return exitNoServer
	}
	tok, err := tokens.Token()
	if err != nil {
		fmt.Fprintf(stderr, "canopy: %v\n", err)
		return exitFailure
	}
	host := *apiURL
	if u, err := url.Parse(*apiURL); err == nil {
		host = u.Host
	}
	return runUI(ctx, ui.Options{Client: client, Org: *org, Host: host, Identity: whoIs(tok.AccessToken, tokens.Origin()), Theme: to, ReadOnly: uf.readOnly, Changes: changes}, stderr)
}

func envOr(def string, names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return def
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

// runUI runs the Bubble Tea program until the user quits.
func runUI(ctx context.Context, opts ui.Options, stderr io.Writer) int {
	m := ui.New(opts)
	defer m.Close()
	return runProgram(ctx, m, defaultPaths().State, stderr)
}
