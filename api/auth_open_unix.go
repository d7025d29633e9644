//go:build unix

package api

import "syscall"

// openNonblock opens a FIFO without waiting for a writer (see readRegular); a regular file
// ignores it.
const openNonblock = syscall.O_NONBLOCK
