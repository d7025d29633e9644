//go:build !unix

package files

import (
	"context"
	"io/fs"
	"os"
	"time"
)

const (
	nonblock = 0
	noFollow = 0
)

// lockDir has no lock to take where flock is missing.
func lockDir(context.Context, string, time.Duration) (func(), error) { return func() {}, nil }

// writable leaves the check to the write.
func writable(string) error { return nil }

// owner is who owns a file, where ownership cannot be given.
type owner struct{}

func ownerOf(fs.FileInfo) owner { return owner{} }

func (owner) keep(*os.File) error { return nil }

// Linked cannot tell hard links here.
func Linked(*os.File) bool { return false }
