//go:build unix

package files

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

const (
	nonblock = syscall.O_NONBLOCK
	noFollow = syscall.O_NOFOLLOW
)

// lockDir takes the lock of dir, which canopy takes to replace a file
// there: an advisory lock on the directory itself, so no lock file is left
// about. It waits up to wait for another canopy to finish.
func lockDir(ctx context.Context, dir string, wait time.Duration) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = d.Close() }, nil // closing it unlocks
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			_ = d.Close()
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		if time.Now().After(deadline) {
			_ = d.Close()
			return nil, fmt.Errorf("%s is locked by another program for longer than %v", dir, wait)
		}
		if err := pause(ctx, 5*time.Millisecond); err != nil { // another canopy saves in a few milliseconds
			_ = d.Close()
			return nil, err
		}
	}
}

// writable says why the person running canopy may not write path, nil
// when they may.
func writable(path string) error {
	const wOK = 2 // access(2)'s W_OK
	return syscall.Access(path, wOK)
}

// pause waits d, or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// owner is who owns a file: the user and group ids (known false for none).
type owner struct {
	uid, gid int
	known    bool
}

func ownerOf(info fs.FileInfo) owner {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{}
	}
	return owner{uid: int(st.Uid), gid: int(st.Gid), known: true}
}

// keep gives tmp the owner o, when it is not who runs canopy: root saving
// a user's config (sudo -E canopy) must not leave it root's. One who
// cannot give a file away is told, and nothing is replaced.
func (o owner) keep(tmp *os.File) error {
	if !o.known || o.uid == os.Geteuid() && o.gid == os.Getegid() {
		return nil
	}
	if err := tmp.Chown(o.uid, o.gid); err != nil {
		if o.uid != os.Geteuid() {
			return fmt.Errorf("it belongs to user %d: canopy would make it yours (%w)", o.uid, err)
		}
		return nil // a group canopy cannot give: the file stays the user's own
	}
	return nil
}

// Linked reports whether an open file has other names (hard links): a
// file canopy appends to through one of them writes another's file.
func Linked(f *os.File) bool {
	info, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
