package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"golang.org/x/oauth2"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/cli/exit"
	"canopy/ui"
)

// demoFlags are canopy demo's flags: the UI's, and the emulator options
// that make the demo's data and behaviour.
type demoFlags struct {
	ui    uiFlags
	start startFlags
	data  emulator.Options
	as    string // a seeded person to act as, "" for the admin
}

func (f *demoFlags) register(fs *flag.FlagSet) {
	f.ui.settings = uiSettings()
	f.ui.register(fs)
	f.start.register(fs, true)
	fs.Int64Var(&f.data.Seed, "seed", 1, "seed of the demo data")
	fs.StringVar(&f.data.Size, "size", "small", "demo size: small, medium (~100k tags) or large (~1M tags)")
	fs.DurationVar(&f.data.Latency, "latency", 0, "delay added to every request, e.g. 50ms")
	fs.Float64Var(&f.data.FailRate, "fail-rate", 0, "share of requests (0..1) that fail with 503 or 429")
	fs.BoolVar(&f.data.Hostile, "hostile", false, "add hostile data: escape sequences, control, bidi and zero-width characters, wide text, very long strings")
	fs.StringVar(&f.as, "as", "", asUsage())
	fs.BoolVar(&f.data.Strict, "strict", false, "serve the demo as the real service may: undocumented sort orders refused, no list totals, built-in roles only in unfiltered role lists")
}

// demoTimeout bounds each request to the demo's emulator. The first list
// of every tag of the large size makes a million of them (lazy.go in
// api/emulator): seconds, but over the client's usual 30 s on a loaded
// machine, and the emulator is in this process, so nothing is lost by
// waiting for it (ctrl+c ends the wait, as any).
const demoTimeout = 5 * time.Minute

// runDemo opens the UI on the built-in emulator, served in-process on a
// loopback port: no flags, no set-up, no network. The emulator seeds its
// data in the background (under a second at the large size, whose
// generated repos' tags are made when first asked for): the first frame
// comes at once, its status line saying how far the data is, and the
// organization opens once the data is in.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var df demoFlags
	df.register(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: canopy demo [flags]\n\nExplore a built-in demo organization served by the emulator in this process.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	// The data is seeded first, in the background, while the config is
	// read and the UI set up: the organization is asked for as soon as
	// the first frame is drawn.
	began := time.Now()
	srv, err := emulator.Start(df.data)
	if err != nil {
		exit.Sayf(stderr, "canopy demo: %v", err)
		return exit.Usage
	}
	seeded := newSeeding(srv, began, "building the demo", "built the demo")
	if df.data.Size != "large" {
		// Until the organization's first screen has its rows. The large
		// size's seeding allocates ≈ 55 MB: held, its RSS would nearly
		// double (82 MB against 45 when its tree shows).
		holdGC(seeded.Started())
	}
	defer seeded.Opened() // if the UI never says so: a failed start, a test
	cfg, to, keys, err := df.ui.load(ctx, os.Getenv)
	if err != nil {
		return exit.Fail(ctx, stderr, "canopy demo", "reading the config", err, exit.Usage)
	}
	start, err := df.start.start(cfg)
	if err == nil {
		err = checkAs(df.as)
	}
	if err != nil {
		exit.Sayf(stderr, "canopy demo: %v", err)
		return exit.Usage
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		exit.Sayf(stderr, "canopy demo: %v", err)
		return exit.Failure
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	base := "http://" + ln.Addr().String()
	changes := &ui.ChangeLog{}
	logger, closeLog := df.ui.debugLogger(os.Getenv, stderr)
	defer closeLog()
	var tokens oauth2.TokenSource = api.StaticToken(srv.AdminToken(), "demo")
	org, who := srv.OrgUID(), "admin (demo)"
	if df.as != "" {
		// A person sees what their bindings give them: no organization is
		// chosen for them.
		tokens, org, who = &personToken{srv: srv, name: df.as}, "", df.as+" (demo)"
	}
	client, err := api.New(api.Options{BaseURL: base, TokenSource: tokens, Observe: changes.Record,
		Logger: logger, PageSize: cfg.PageSize(), Timeout: demoTimeout})
	if err != nil {
		exit.Sayf(stderr, "canopy demo: %v", err)
		return exit.Failure
	}
	return df.ui.prof.profiled(ctx, stderr, "canopy demo", func() int {
		return runUI(ctx, ui.Options{Client: client, Org: org, Host: "demo emulator " + ln.Addr().String(),
			Identity: who, Theme: to, Keys: keys, ReadOnly: cfg.Flag("read-only"), Changes: changes, Plugins: cfg.Plugins, Views: cfg.Views, SaveView: viewSaver(cfg, os.Getenv), Start: start,
			Stale: cfg.Stale(), Refresh: cfg.Refresh(),
			Preparing: seeded}, displayOf(to, cfg),
			fmt.Sprintf("demo seed=%d size=%s", df.data.Seed, df.data.Size), cfg.Flag("resume"), stderr)
	})
}
