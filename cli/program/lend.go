package program

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/muesli/cancelreader"

	"canopy/cli/exit"
)

// Lends reports whether the terminal can be lent: stdin is the terminal
// (else a program run "in the foreground" would read what canopy was
// given, not the keys).
func (t *Terminal) Lends() bool { return t.keys != nil }

// Lend is the command that hands the terminal to run (a plugin in the
// foreground) and takes it back: canopy's screen goes, its key reading
// pauses (the program reads the keys itself) and ctrl+c, a signal again in
// the terminal's own mode, goes to the program and not to canopy. When
// run returns, canopy asks for enter (what the program printed stays
// until then) and comes back. done's message tells how it went.
func (t *Terminal) Lend(run func(ctx context.Context, in, out, errOut *os.File) error, done func(error) tea.Msg) tea.Cmd {
	return t.lend(run, done, false)
}

// LendQuiet is Lend without asking for enter once run returns: canopy
// comes back at once. For a program whose screen is nothing to read
// after it ends (an editor).
func (t *Terminal) LendQuiet(run func(ctx context.Context, in, out, errOut *os.File) error, done func(error) tea.Msg) tea.Cmd {
	return t.lend(run, done, true)
}

func (t *Terminal) lend(run func(ctx context.Context, in, out, errOut *os.File) error, done func(error) tea.Msg, quiet bool) tea.Cmd {
	pause := func() tea.Msg {
		if t.keys != nil {
			t.keys.Pause()
		}
		return nil
	}
	return tea.Sequence(pause, tea.Exec(&handover{t: t, run: run, quiet: quiet}, func(err error) tea.Msg { return lentBack{done(err)} }))
}

// handover is the lent terminal as Bubble Tea runs it (tea.ExecCommand):
// the program gets the terminal's own files, not canopy's key reader.
type handover struct {
	t     *Terminal
	run   func(ctx context.Context, in, out, errOut *os.File) error
	quiet bool // no "press enter" once run returns
}

func (h *handover) SetStdin(io.Reader)  {}
func (h *handover) SetStdout(io.Writer) {}
func (h *handover) SetStderr(io.Writer) {}

// Run runs the program with ctrl+c left to it, then waits for enter.
func (h *handover) Run() error {
	interrupts, release := exit.HoldInterrupts(h.t.ctx)
	// ctrl+\ is the program's too: caught here (not ignored, which the
	// program would inherit), it does not dump and end canopy.
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, syscall.SIGQUIT)
	defer func() {
		signal.Stop(quit)
		release()
		if h.t.keys != nil {
			h.t.keys.Resume()
		}
	}()
	err := h.run(h.t.ctx, os.Stdin, os.Stdout, os.Stderr)
	if h.t.ctx.Err() == nil && !h.quiet {
		fmt.Fprint(os.Stdout, "press enter to go back to canopy ")
		waitForEnter(h.t.ctx, interrupts)
		fmt.Fprint(os.Stdout, "\r\n")
	}
	return err
}

// lateInterrupt is how long after the program ended a ctrl+c is still
// taken as the one that ended it (it reaches canopy as it reaches the
// program), not as one typed at the prompt.
const lateInterrupt = 100 * time.Millisecond

// waitForEnter reads a line of the terminal (in its own mode: enter ends
// it), or returns on ctrl+c or when ctx ends.
func waitForEnter(ctx context.Context, interrupts <-chan struct{}) {
	r, err := cancelreader.NewReader(os.Stdin)
	if err != nil {
		return
	}
	defer r.Close()
	read := make(chan struct{})
	go func() {
		defer close(read)
		b := make([]byte, 256)
		for {
			n, err := r.Read(b)
			if err != nil || n > 0 && b[n-1] == '\n' {
				return
			}
		}
	}()
	start := time.Now()
	for waiting := true; waiting; {
		select {
		case <-read:
			return
		case <-interrupts:
			// One that came with the program's end ended the program;
			// one typed at the prompt goes back to canopy.
			waiting = time.Since(start) < lateInterrupt
		case <-ctx.Done():
			waiting = false
		}
	}
	r.Cancel()
	<-read
}
