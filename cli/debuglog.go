package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"canopy/api"
	"canopy/cli/config"
	"canopy/cli/exit"
	"canopy/files"
)

// openDebugLog opens the --debug log at p.Log for appending: its directory
// is made 0700 and a new file 0600 (a log of what someone browsed is theirs
// alone). The api client writes one line per request to it — method, path,
// status, size, duration — and never a header or a token (api.Options.Logger).
func openDebugLog(p config.Paths) (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(filepath.Dir(p.Log), 0o700); err != nil {
		return nil, nil, fmt.Errorf("debug log: %w", err)
	}
	f, err := openLogFile(p.Log)
	if err != nil {
		return nil, nil, fmt.Errorf("debug log: %w", err)
	}
	log := slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
	log.Info("canopy started", "version", api.Version, "pid", os.Getpid(), "time", time.Now().UTC().Format(time.RFC3339))
	return log, f, nil
}

// openLogFile opens a log to append to, never through a symbolic link (a
// link there would have canopy write, and make private, a file it does not
// own), nor into a file with other names (hard links), nor into what is
// not a regular file (a FIFO would block). A new log is made 0600; a log
// from before is appended to with the mode its owner gave it.
func openLogFile(path string) (*os.File, error) {
	const write = os.O_WRONLY | os.O_APPEND | files.NoFollow
	// O_EXCL: a link, even a dangling one, is never followed to create.
	f, err := files.Open(path, write|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		f, err = files.Open(path, write, 0)
		if err == nil && files.Linked(f) {
			_ = f.Close()
			return nil, fmt.Errorf("%s has other names (hard links): canopy writes its log only to a file of its own", path)
		}
	}
	if err != nil {
		if info, lerr := os.Lstat(path); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symbolic link: canopy writes its log only to a file of its own", path)
		}
		return nil, err
	}
	return f, nil
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
