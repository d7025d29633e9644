package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"canopy/api/emulator"
	"canopy/cli/exit"
)

// emulatorFlags are canopy emulator's flags: where to listen, the
// emulator's options, and the clock's start (--now).
type emulatorFlags struct {
	addr, now string
	data      emulator.Options
}

func (f *emulatorFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "listen address (host:port; port 0 picks a free one)")
	fs.StringVar(&f.data.AdminToken, "token", "", "admin token (owner of every seeded organization); empty: make one up and print it as token=<t> on the line after the listening line")
	fs.Int64Var(&f.data.Seed, "seed", 1, "seed of the generated data: the same seed and size give the same organizations, uids included")
	fs.StringVar(&f.data.Size, "size", "small", "organization size: small (the demo), medium (~100k tags) or large (~1M tags)")
	fs.DurationVar(&f.data.Latency, "latency", 0, "delay added to every request, e.g. 50ms")
	fs.Float64Var(&f.data.FailRate, "fail-rate", 0, "share of requests (0..1, ping excluded) answered 503 UNAVAILABLE or 429 RESOURCE_EXHAUSTED")
	fs.DurationVar(&f.data.PageTokenLifetime, "page-token-lifetime", 72*time.Hour, "how long a nextPageToken stays valid; expired tokens restart from the first page")
	fs.StringVar(&f.now, "now", "", "the emulator's clock starts at this RFC 3339 time (e.g. 2026-06-01T12:00:00Z) instead of now, and runs on from it: the same seed, size and --now give the same times too, for golden files")
	fs.BoolVar(&f.data.Hostile, "hostile", false, "also seed hostile text (a \"hostile\" folder and more): escape sequences (clear screen, window title, clipboard, hyperlinks, DCS/APC), C0/C1 controls, bidi and zero-width characters, wide and combining text, very long strings; for testing clients")
	fs.BoolVar(&f.data.Strict, "strict", false, "answer as the real service may where its definitions are silent: refuse every order_by it does not document (INVALID_ARGUMENT on order_by), leave totalCount out of list answers, and list the built-in roles only without a uidp filter")
}

// runEmulator serves the Platform API v2 emulator until ctx is cancelled
// (SIGINT or SIGTERM), printing one "listening on" line once it answers:
// the large size seeds for a part of a second first (seconds on a busy
// machine), saying how far on stderr past a second, and a signal ends it
// at once.
func runEmulator(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ef emulatorFlags
	ef.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: canopy emulator [flags]\n\nServe an in-memory Platform API v2 with seeded organizations until interrupted.\nPrints one line when ready: listening on http://<addr> org=<root group uid>\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	clock, err := clockFrom(ef.now)
	if err != nil {
		exit.Sayf(stderr, "canopy emulator: --now: %v", err)
		return exit.Usage
	}
	ef.data.Now = clock
	began := time.Now()
	srv, err := emulator.Start(ef.data)
	if err != nil {
		exit.Sayf(stderr, "canopy emulator: %v", err)
		return exit.Usage
	}
	// The address is taken at once (a busy port is said before the
	// seeding, not after it); it is served once the data is in.
	ln, err := net.Listen("tcp", ef.addr)
	if err != nil {
		exit.Sayf(stderr, "canopy emulator: %v", err)
		return exit.Failure
	}
	defer ln.Close()
	if code, ok := awaitSeeding(ctx, newSeeding(srv, began, "seeding", "seeded"), stderr); !ok {
		return code
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	fmt.Fprintf(stdout, "listening on http://%s org=%s\n", ln.Addr(), srv.OrgUID())
	if ef.data.AdminToken == "" {
		fmt.Fprintf(stdout, "token=%s\n", srv.AdminToken())
	}
	select {
	case err := <-done:
		exit.Sayf(stderr, "canopy emulator: %v", err)
		return exit.Failure
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		exit.Sayf(stderr, "canopy emulator: shutdown: %v", err)
		return exit.Failure
	}
	return exit.OK
}

// seedingProgress is a seeding as awaitSeeding waits for it.
type seedingProgress interface {
	Ready() <-chan struct{}
	Progress() string
}

// awaitSeeding waits for the emulator's data, saying how far it is on
// stderr every second once it has taken a second (the large size may, on a
// busy machine); a signal ends the wait at once, with its exit status, and wins
// over data that is in by the time it is looked at.
func awaitSeeding(ctx context.Context, s seedingProgress, stderr io.Writer) (int, bool) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	said := false
	for {
		select {
		case <-s.Ready():
			if ctx.Err() != nil {
				return stopped(ctx, stderr)
			}
			if said {
				exit.Sayf(stderr, "canopy emulator: %s", s.Progress())
			}
			return 0, true
		case <-ctx.Done():
			return stopped(ctx, stderr)
		case <-tick.C:
			exit.Sayf(stderr, "canopy emulator: %s (ctrl+c stops)", s.Progress())
			said = true
		}
	}
}

// stopped is the status of a seeding ctx ended: a signal's, said on
// stderr, else 0.
func stopped(ctx context.Context, stderr io.Writer) (int, bool) {
	if code, ok := exit.Interrupted(ctx, stderr, "canopy emulator", "seeding"); ok {
		return code, false
	}
	return exit.OK, false
}

// clockFrom is a clock that starts at the RFC 3339 time given and runs on
// in real time from there; nil (the real clock) for "".
func clockFrom(start string) (func() time.Time, error) {
	if start == "" {
		return nil, nil
	}
	t0, err := time.Parse(time.RFC3339, start)
	if err != nil {
		return nil, fmt.Errorf("want an RFC 3339 time such as 2026-06-01T12:00:00Z: %w", err)
	}
	// The clock starts at its first reading (the seeding), which is then
	// t0 exactly: the API's times have milliseconds, and so has the clock.
	var once sync.Once
	var began time.Time
	return func() time.Time {
		once.Do(func() { began = time.Now() })
		return t0.Add(time.Since(began).Truncate(time.Millisecond))
	}, nil
}
