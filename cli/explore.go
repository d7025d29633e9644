package cli

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"canopy/api"
	"canopy/cli/config"
	"canopy/cli/exit"
	"canopy/cli/program"
	"canopy/state"
	"canopy/theme"
	"canopy/ui"
)

// passedOver says on stderr which token sources the chain passed over
// because their token had expired, and returns the same as one line for
// the status line ("" when none was).
func passedOver(stderr io.Writer, name string, tokens *api.TokenSource) string {
	skipped := tokens.Skipped()
	if len(skipped) == 0 {
		return ""
	}
	line := strings.Join(skipped, "; ") + "; using the token from " + tokens.Origin()
	exit.Sayf(stderr, "%s: %s", name, line)
	return line
}

// runExplore opens the UI on an API found by flags and environment.
func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return exploreAs(ctx, "canopy", args, stdout, stderr)
}

// exploreAs is canopy (name "canopy") and canopy open (name "canopy open",
// which takes the resource to show as its argument).
func exploreAs(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	uf := exploreFlags(fs)
	var sf startFlags
	sf.register(fs, false)
	fs.Usage = func() {
		if name != "canopy" {
			fmt.Fprint(fs.Output(), openUsage)
			fs.PrintDefaults()
			return
		}
		fmt.Fprint(fs.Output(), "canopy: a terminal explorer for Platform API v2\n\nUsage:\n"+commandList()+`
Run 'canopy COMMAND -h' for a command's flags. Settings come from flags, then
CANOPY_* environment variables, then $XDG_CONFIG_HOME/canopy/config.yaml.
Exit codes: 0 ok, 1 failure (a refused token included), 2 usage or config
error, 3 the API could not be connected to; 130, 143 or 129 ended by
SIGINT, SIGTERM or SIGHUP.

Flags:
`)
		fs.PrintDefaults()
	}
	pos, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	switch {
	case name != "canopy":
		target, code, ok := wantTarget(stderr, pos)
		if !ok {
			return code
		}
		sf.open = target
	case len(pos) > 0:
		if _, isCommand := commandNamed(pos[0]); isCommand {
			// Only after "--" (Run takes a command after canopy's flags).
			exit.Sayf(stderr, "canopy: the command %q comes after \"--\", the end of canopy's flags: a command comes first (canopy %s [flags])", pos[0], pos[0])
			return exit.Usage
		}
		return unknownCommand(stderr, pos[0])
	}
	cfg, to, keys, err := uf.load(ctx, os.Getenv)
	if err != nil {
		return exit.Fail(ctx, stderr, name, "reading the config", err, exit.Usage)
	}
	start, err := sf.start(cfg)
	if err != nil {
		if errors.As(err, new(blankFlag)) {
			exit.Sayf(stderr, "%s: %v", name, err) // it names its flag
		} else {
			exit.Sayf(stderr, "%s: -c: %v", name, err)
		}
		return exit.Usage
	}
	apiURL := cfg.Get("api-url")
	shown := api.RedactUserinfo(apiURL) // the URL as messages show it: no password
	tokens := cfg.TokenSource(ctx)
	changes := &ui.ChangeLog{}
	logger, closeLog := uf.debugLogger(os.Getenv, stderr)
	defer closeLog()
	client, err := api.New(api.Options{BaseURL: apiURL, TokenSource: tokens, Observe: changes.Record, Logger: logger, PageSize: cfg.PageSize(),
		Retry: retryIn(ctx, api.DefaultRetry()), AllowInsecureHTTP: cfg.Flag("allow-insecure-http")})
	if err != nil {
		return clientRefused(stderr, name, err)
	}
	// Fail fast, before the screen switches, on the two things a user must
	// fix outside canopy: an unreachable API and a missing token. A token
	// file given is read first: its mode or content is to fix whatever the
	// network does. The token chain sees no context (a FIFO, chainctl
	// waiting on the network): it runs as a step a signal ends.
	if cfg.Get("token-file") != "" {
		if _, err := exit.Step(ctx, tokens.Token); err != nil {
			return exit.Fail(ctx, stderr, "canopy", "reading the token file", err, exit.Failure)
		}
	}
	pingCtx, cancel := context.WithTimeout(ctx, pingWait)
	_, err = exit.StepSaying(ctx, stderr, "canopy: connecting to "+shown+"…", func() (string, error) { return client.Ping(pingCtx) })
	cancel()
	if code, ok := exit.Interrupted(ctx, stderr, "canopy", "connecting to "+shown); ok {
		return code
	}
	var te *api.TransportError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		exit.Sayf(stderr, "canopy: %s did not answer within %v", shown, pingWait)
		return exit.NoServer
	case unreachable(err):
		errors.As(err, &te)
		exit.Sayf(stderr, "canopy: cannot reach %s: %v", shown, te.Err)
		return exit.NoServer
	case errors.As(err, &te):
		// Connected, but no usable answer: a redirect elsewhere, a body cut short.
		exit.Sayf(stderr, "canopy: %s: %v", shown, te.Err)
		return exit.Failure
	}
	tok, err := exit.StepSaying(ctx, stderr, "canopy: getting a token…", tokens.Token)
	if err != nil {
		return exit.Fail(ctx, stderr, "canopy", "getting a token", err, exit.Failure)
	}
	notice := passedOver(stderr, "canopy", tokens)
	host := shown
	if u, err := url.Parse(apiURL); err == nil {
		host = u.Host
	}
	return uf.prof.profiled(ctx, stderr, "canopy", func() int {
		return runUI(ctx, ui.Options{Client: client, Org: cfg.Get("org"), Host: host, Identity: whoIs(tok.AccessToken, tokens.Origin()),
			Theme: to, Keys: keys, ReadOnly: cfg.Flag("read-only"), Changes: changes, Plugins: cfg.Plugins, Views: cfg.Views, SaveView: viewSaver(cfg, os.Getenv), Notice: notice, Start: start,
			Stale: cfg.Stale(), Refresh: cfg.Refresh()}, displayOf(to, cfg), shown, cfg.Flag("resume"), stderr)
	})
}

// pingWait is how long canopy waits for the server's first answer before
// giving up: a server that takes the connection and says nothing would
// otherwise hold the blank terminal for ever.
const pingWait = 10 * time.Second

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

// runUI runs the UI until the user quits; a signal that came before it
// starts ends canopy without a frame. The session is kept under the
// state directory by apiKey (the API), and offered at the next start
// (when resume is on).
func runUI(ctx context.Context, opts ui.Options, d program.Display, apiKey string, resume bool, stderr io.Writer) int {
	if code, ok := exit.Interrupted(ctx, stderr, "canopy", "starting"); ok {
		return code
	}
	if code, ok := drawsOn(stderr, "canopy", os.Stdout); !ok {
		// After the config, the token and the API: a run that cannot
		// draw still has them to fix, and the waits before a frame
		// (chainctl, a server slow to answer) are the same with or
		// without a terminal.
		return code
	}
	stateDir := config.DefaultPaths().State
	store := state.Open(stateDir)
	if resume {
		// A file that cannot be read is no reason not to start: it is
		// replaced at the end.
		opts.Resume, _ = store.Load(apiKey)
	}
	t := program.Open(ctx)
	defer t.Close()
	if t.Lends() {
		opts.Terminal = t
	}
	// The editor a readme is edited in: $VISUAL, as for a full-screen
	// editor, else $EDITOR.
	opts.Editor = cmp.Or(strings.TrimSpace(os.Getenv("VISUAL")), strings.TrimSpace(os.Getenv("EDITOR")))
	m := ui.New(opts)
	defer m.Close()
	code := t.Run(m, d, stateDir, stderr)
	if _, signalled := exit.Signalled(ctx); signalled || !resume {
		// Ended by a signal (the terminal closed): no time for more; or
		// sessions are off: the one kept stays as it was.
		return code
	}
	if s, ok := m.Session(); ok {
		if err := store.Save(ctx, apiKey, s); err != nil {
			exit.Sayf(stderr, "canopy: %v", err)
		}
	}
	return code
}

// displayOf is the display for the theme options and settings.
func displayOf(to theme.Options, s *config.Settings) program.Display {
	return program.Display{Mono: to.NoColor || to.Name == theme.Mono, ASCII: to.ASCII, Mouse: s.Flag("mouse")}
}
