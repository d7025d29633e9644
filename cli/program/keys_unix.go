//go:build unix

package program

import (
	"io"
	"os"
	"sync"

	"github.com/charmbracelet/x/term"
)

// keyReader is the terminal as Bubble Tea reads it, read ahead (see
// keyscan.go). Bubble Tea sets the terminal's modes through its Fd
// (stdin's) as it would on stdin itself.
type keyReader struct {
	in    *os.File
	p     *pending
	start sync.Once
}

// openKeys reads the terminal ahead of Bubble Tea, calling interrupt on
// ctrl+c; nil when stdin is not a terminal (Bubble Tea then opens the
// terminal itself, and ctrl+c waits its turn there).
func openKeys(interrupt func()) *keyReader {
	if !term.IsTerminal(os.Stdin.Fd()) {
		return nil
	}
	return &keyReader{in: os.Stdin, p: newPending(interrupt)}
}

// Read gives Bubble Tea what was read ahead, starting the reading on the
// first call: by then Bubble Tea has put the terminal in raw mode.
func (k *keyReader) Read(b []byte) (int, error) {
	k.start.Do(func() { go k.p.pump(k.in) })
	return k.p.read(b)
}

// Write is never used by Bubble Tea on its input; it is part of what a
// terminal file is (term.File).
func (k *keyReader) Write(b []byte) (int, error) { return k.in.Write(b) }

// Fd is stdin's descriptor: Bubble Tea sets raw mode with it and restores
// the modes it found.
func (k *keyReader) Fd() uintptr { return k.in.Fd() }

// Close ends the input Bubble Tea reads (Read gives io.EOF). A read of the
// terminal in progress cannot be interrupted: it is left to end with the
// process, which exits once the program has.
func (k *keyReader) Close() error {
	k.p.fail(io.EOF)
	return nil
}
