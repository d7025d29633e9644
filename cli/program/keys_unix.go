//go:build unix

package program

import (
	"io"
	"os"
	"sync"

	"github.com/charmbracelet/x/term"
	"github.com/muesli/cancelreader"
)

// keyReader is the terminal as Bubble Tea reads it, read ahead (see
// keyscan.go). Bubble Tea sets the terminal's modes through its Fd
// (stdin's) as it would on stdin itself.
type keyReader struct {
	in    *os.File
	p     *pending
	start sync.Once
	// mu guards the pump: its reader (cancelled to pause it) and the
	// channel closed when it has stopped.
	mu     sync.Mutex
	cr     cancelreader.CancelReader
	pumped chan struct{}
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
	k.start.Do(k.pump)
	return k.p.read(b)
}

// pump starts reading the terminal, through a reader a pause can cancel
// where the system allows it.
func (k *keyReader) pump() {
	k.mu.Lock()
	defer k.mu.Unlock()
	var r io.Reader = k.in
	if cr, err := cancelreader.NewReader(k.in); err == nil {
		r, k.cr = cr, cr
	}
	done := make(chan struct{})
	k.pumped = done
	go func() {
		defer close(done)
		k.p.pump(r)
	}()
}

// Pause stops reading the terminal (another program reads it now): the
// read in progress is cancelled, and Bubble Tea's reads return empty
// until it stops reading too.
func (k *keyReader) Pause() {
	k.p.pause(true)
	k.mu.Lock()
	cr, done := k.cr, k.pumped
	k.cr, k.pumped = nil, nil
	k.mu.Unlock()
	if cr != nil && cr.Cancel() {
		<-done
		cr.Close()
	}
}

// Resume reads the terminal again after a Pause.
func (k *keyReader) Resume() {
	k.mu.Lock()
	stopped := k.pumped == nil
	k.mu.Unlock()
	k.p.pause(false)
	if stopped {
		k.pump()
	}
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
