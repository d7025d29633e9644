package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"canopy/api"
	"canopy/cli/config"
	"canopy/cli/exit"
)

// openDebugLog opens the --debug log at p.Log for appending: its directory
// is made 0700 and the file 0600 (a log of what someone browsed is theirs
// alone). The api client writes one line per request to it — method, path,
// status, size, duration — and never a header or a token (api.Options.Logger).
func openDebugLog(p config.Paths) (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(filepath.Dir(p.Log), 0o700); err != nil {
		return nil, nil, fmt.Errorf("debug log: %w", err)
	}
	// A FIFO there would block the open until something reads it.
	f, err := config.OpenRegular(p.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("debug log: %w", err)
	}
	// A file left from before, or made under another umask, may be wider.
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return nil, nil, fmt.Errorf("debug log: %w", err)
	}
	log := slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
	log.Info("canopy started", "version", api.Version, "pid", os.Getpid(), "time", time.Now().UTC().Format(time.RFC3339))
	return log, f, nil
}

// debugLogger is the api client's logger for --debug (nil without it, which
// discards) and what closes it. A log that cannot be opened is reported on
// stderr and canopy goes on without it: the log is an aid, not the job.
func (f *uiFlags) debugLogger(getenv func(string) string, stderr io.Writer) (*slog.Logger, func()) {
	if !f.debug {
		return nil, func() {}
	}
	log, c, err := openDebugLog(config.PathsFrom(getenv))
	if err != nil {
		exit.Sayf(stderr, "canopy: %v (going on without it)", err)
		return nil, func() {}
	}
	return log, func() { _ = c.Close() }
}
