// Package files is how canopy opens, reads and replaces the files of the
// person running it (the config, the token file, the session file, the
// debug log, crash reports): one way for all of them, so that none can
// block canopy, flood it, or lose what another program wrote.
package files

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// NoFollow, or'ed into Open's flag, refuses a symbolic link as the last
// element of the path (0 where the system has no such flag).
const NoFollow = noFollow

// Open opens path, refusing anything but a regular file. The open never
// waits: a FIFO with no writer (or, opened to write, no reader) would
// block it where no signal is seen, and a device would be read without
// end. The check is made on the opened file, so a swap after a check of
// the path cannot slip through.
func Open(path string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|nonblock, perm)
	if err != nil {
		// A FIFO opened to write with no reader fails (ENXIO): say what
		// it is rather than "no such device or address".
		if info, serr := os.Stat(path); serr == nil && !info.Mode().IsRegular() {
			return nil, &NotRegularError{Path: path, Mode: info.Mode()}
		}
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return f, nil
}

// NotRegularError is a path that is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Kind(e.Mode))
}

// Kind names what a file that is not regular is.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a plain file (" + m.Type().String() + ")"
}

// TooLargeError is a file larger than canopy reads (or would write).
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s", e.Path, Size(e.Limit))
}

// Size says a limit in the unit it is a whole number of.
func Size(n int64) string {
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read reads the regular file at path, of at most limit bytes.
func Read(path string, limit int64) ([]byte, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, limit)
}

// readAll reads an opened file from its start, of at most limit bytes.
func readAll(f *os.File, path string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.NewSectionReader(f, 0, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return b, nil
}

// Target is where path leads through symbolic links: the file a link
// names, even one not made yet (a dotfiles link to a config to come), so
// that replacing it writes there instead of over the link.
func Target(path string) string {
	for range 40 { // the kernel's own bound on links in a row
		to, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return path
}
