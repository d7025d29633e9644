package files

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// waitWriters waits, up to wait, until no process has f's file open for
// writing, so that what a program that opened it before it was replaced
// writes is in it before canopy reads it. It asks the kernel for a read
// lease, which is refused while the file is open for writing, and lets it
// go at once. It ends with ctx. It reports false when it cannot tell (no leases here, a
// file of another owner) or the wait ran out.
func waitWriters(ctx context.Context, f *os.File, wait time.Duration) bool {
	fd := f.Fd()
	deadline := time.Now().Add(wait)
	for {
		_, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETLEASE, syscall.F_RDLCK)
		if errno == 0 {
			// Let it go: a lease broken by an open for writing would
			// signal canopy (SIGIO, which Go ignores) and hold that open.
			_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETLEASE, syscall.F_UNLCK)
			return true
		}
		if !errors.Is(errno, syscall.EAGAIN) || time.Now().After(deadline) {
			return false
		}
		if pause(ctx, time.Millisecond) != nil { // a program's append takes microseconds
			return false
		}
	}
}
