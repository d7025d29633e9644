package api

// Reading the files of the token chain (--token-file and the platform CLI's cache) so that no
// file can block or flood canopy before its first frame: a FIFO with no writer blocked in open
// forever, deaf to ctrl+c, and a 1 GB file gave its first MiB as a token.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"

	"canopy/files"
)

// errNotRegular is wrapped by the error of readRegular for a path that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// errTooLarge is wrapped by the error of readRegular for a file larger than a token can be.
var errTooLarge = fmt.Errorf("larger than a token can be (%d KiB)", maxTokenBytes>>10)

// readRegular reads the file at path when it is a regular file of at most maxTokenBytes, with
// what fstat says of it. Anything else is refused before a byte is read: its mode is checked
// before the open, and again on the opened file, which is opened without blocking so that a
// FIFO swapped in between cannot block the open (a read of it is never tried).
func readRegular(path string) ([]byte, fs.FileInfo, error) {
	info, err := os.Stat(path) // follows a symlink, as the open does
	if err != nil {
		return nil, nil, err
	}
	if err := regular(info); err != nil {
		return nil, info, err
	}
	f, err := files.Open(path, os.O_RDONLY, 0)
	var swapped *files.NotRegularError
	if errors.As(err, &swapped) {
		return nil, info, fmt.Errorf("%w (%s)", errNotRegular, files.Kind(swapped.Mode))
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return readOpened(f)
}

// openedFile is what readOpened needs of an opened file.
type openedFile interface {
	io.Reader
	Stat() (fs.FileInfo, error)
}

// readOpened reads an opened file as readRegular does: what fstat says of
// it is checked before a byte is read.
func readOpened(f openedFile) ([]byte, fs.FileInfo, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if err := regular(info); err != nil {
		return nil, info, err
	}
	if info.Size() > maxTokenBytes {
		return nil, info, errTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(f, maxTokenBytes+1))
	switch {
	case err != nil:
		return nil, info, err
	case len(b) > maxTokenBytes: // it grew since fstat
		return nil, info, errTooLarge
	}
	return b, info, nil
}

// regular refuses a file that is not a regular one, naming what it is.
func regular(info fs.FileInfo) error {
	m := info.Mode()
	var kind string
	switch {
	case m.IsRegular():
		return nil
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe, FIFO?"
	case m.IsDir():
		kind = "a directory"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	default:
		kind = "mode " + m.String()
	}
	return fmt.Errorf("%w (%s)", errNotRegular, kind)
}

// readTokenFile reads a --token-file, refusing one that others can read as ssh refuses a
// private key: a token is a credential, and a readable one has probably leaked already.
func readTokenFile(path string) (string, error) {
	b, info, err := readRegular(path)
	switch {
	case errors.Is(err, errNotRegular):
		return "", fmt.Errorf("token file %s is %v; write the token to a file and pass that", path, err)
	case errors.Is(err, errTooLarge):
		return "", fmt.Errorf("token file %s is %v: not a token file?", path, err)
	case err != nil:
		return "", fmt.Errorf("token file: %w", err) // *PathError names the path, not contents
	}
	// Windows has no Unix permission bits; Go reports 0666 or 0444 there whatever the ACLs say.
	if mode := info.Mode().Perm(); runtime.GOOS != "windows" && mode&0o077 != 0 {
		return "", fmt.Errorf("token file %s is accessible by others (mode %04o); run: chmod 600 %s", path, mode, path)
	}
	raw := strings.TrimSpace(string(b))
	switch {
	case raw == "":
		return "", fmt.Errorf("token file %s is empty", path)
	case !wellFormed(raw):
		return "", fmt.Errorf("token file %s holds a malformed token (it contains spaces or control characters)", path)
	}
	return raw, nil
}
