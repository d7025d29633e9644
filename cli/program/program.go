// Package program runs canopy's Bubble Tea program in the user's terminal:
// under a guard that turns a panic into a crash report (crash.go), drawing
// at most one frame per refresh (pace.go), with the display the settings
// ask for (display.go), and with the terminal read ahead so that ctrl+c
// ends it at once however many keys wait before it (keyscan.go). A signal
// (the context's cancellation) ends it with the signal's exit status.
package program

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/cli/exit"
	"canopy/safe"
)

// Terminal is the user's terminal as canopy runs in it: its keys read
// ahead of the program (ctrl+c cancels it at once), and lent to another
// program on request (lend.go).
type Terminal struct {
	ctx       context.Context
	interrupt context.CancelFunc
	keys      *keyReader // nil when stdin is not a terminal
}

// Open takes the terminal; ctx's end (a signal) ends what runs in it.
// Close it once the program has run.
func Open(ctx context.Context) *Terminal {
	// The first rune past ASCII that Bubble Tea's renderer measures has
	// go-runewidth build its width table (about 10 ms of CPU): built now,
	// beside the program's start and its first requests, it is not in the
	// flush of the first frame that holds one (the organization's tree).
	go ansi.StringWidthWc("│")
	ctx, interrupt := context.WithCancel(ctx)
	return &Terminal{ctx: ctx, interrupt: interrupt, keys: openKeys(interrupt)}
}

// Close stops reading the keys.
func (t *Terminal) Close() {
	if t.keys != nil {
		t.keys.Close()
	}
	t.interrupt()
}

// Run runs the root model m in the terminal until the user quits, and
// returns the exit status: the terminal's title is kept, the keys are read
// ahead of the program (ctrl+c cancels it at once) and frames are paced
// and drawn as d says. A crash report goes under stateDir.
func (t *Terminal) Run(m tea.Model, d Display, stateDir string, stderr io.Writer) int {
	defer keepTitle(os.Stdout)() // Bubble Tea writes to stdout
	popts := d.options()
	if t.keys != nil {
		popts = append(popts, tea.WithInput(t.keys))
	}
	return runProgram(t.ctx, &pacer{inner: &displayModel{inner: m, d: d}}, stateDir, stderr, popts...)
}

// runProgram runs the model under a guard until the user quits. A panic
// ends it with the terminal restored, a report under stateDir whose path is
// printed to stderr, and exit code 1. When ctx ends (ctrl+c seen ahead of
// the queue, SIGINT, SIGTERM, SIGHUP) the program ends at its next message
// (see endProgram), with the status endStatus gives.
func runProgram(ctx context.Context, m tea.Model, stateDir string, stderr io.Writer, opts ...tea.ProgramOption) int {
	return runProgramWith(ctx, m, stateDir, stderr, ending{}, opts...)
}

// runProgramWith is runProgram with the ending of a program stuck past its
// deadline given: its times and the process's exit (tests stand in for
// os.Exit, and set the times they need).
func runProgramWith(ctx context.Context, m tea.Model, stateDir string, stderr io.Writer, end ending,
	opts ...tea.ProgramOption) int {
	g := &guard{inner: m}
	// Bubble Tea's own signal handler is off: it sends its quit through
	// the queue of messages (behind every key waiting), and ctx already
	// carries the signals.
	p := tea.NewProgram(g, append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler(), tea.WithFPS(fps)}, opts...)...)
	g.quit = p.Quit
	done := make(chan struct{})
	defer close(done)
	go endProgram(ctx, done, p, end.withDefaults())
	_, err := p.Run()
	if c := g.crashed(); c != nil {
		path, werr := writeCrashReport(stateDir, c, time.Now())
		if werr != nil {
			exit.Sayf(stderr, "canopy crashed: %v", c.value)
			exit.Sayf(stderr, "(the report could not be written: %v)", werr)
			fmt.Fprint(stderr, safe.Lines(string(c.stack)))
			return exit.Failure
		}
		exit.Sayf(stderr, "canopy crashed: %v", c.value)
		exit.Sayf(stderr, "report: %s", path)
		return exit.Failure
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, tea.ErrInterrupted) {
		exit.Sayf(stderr, "canopy: %v", err)
		return exit.Failure
	}
	if status, ok := exit.Signalled(ctx); ok {
		return status
	}
	if f, ok := inner(m).(failed); ok {
		if err := f.Failed(); err != nil {
			// Quit on the screen that said it: the shell is told too.
			exit.Sayf(stderr, "canopy: %s", safe.String(err.Error()))
			return exit.Failure
		}
	}
	return endStatus(ctx)
}

// failed is a model that can end without doing what it was started for
// (the explorer that never opened an organization).
type failed interface{ Failed() error }

// inner is the model the program's wrappers (pacing, display) hold.
func inner(m tea.Model) tea.Model {
	for {
		switch w := m.(type) {
		case *pacer:
			m = w.inner
		case *displayModel:
			m = w.inner
		default:
			return m
		}
	}
}

// endStatus is the exit status of a program that ended without a crash: a
// signal's, as a shell gives it (128+signal), or 0 for a quit (ctrl+c
// included: it is a key in the program, not a signal).
func endStatus(ctx context.Context) int {
	if status, ok := exit.Signalled(ctx); ok {
		return status
	}
	return exit.OK
}

// ending is how a program is ended that does not end when ctx does: it
// has stuckAfter to end on its own (Bubble Tea stops at its next message:
// only an Update or View that does not return keeps it), then it is killed
// (the terminal restored from here) and the process exits; killAfter
// bounds the kill itself. A zero field is canopy's default.
type ending struct {
	stuckAfter time.Duration // 0 means 500 ms
	killAfter  time.Duration // 0 means 300 ms
	exit       func(int)     // nil means os.Exit
}

func (e ending) withDefaults() ending {
	if e.stuckAfter <= 0 {
		e.stuckAfter = 500 * time.Millisecond
	}
	if e.killAfter <= 0 {
		e.killAfter = 300 * time.Millisecond
	}
	if e.exit == nil {
		e.exit = os.Exit
	}
	return e
}

// endProgram ends the process when ctx has ended and the program has not
// within e.stuckAfter (done closes when it has).
func endProgram(ctx context.Context, done <-chan struct{}, p *tea.Program, e ending) {
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	stuck := time.NewTimer(e.stuckAfter)
	defer stuck.Stop()
	select {
	case <-done:
		return
	case <-stuck.C:
	}
	killed := make(chan struct{})
	go func() { p.Kill(); close(killed) }()
	bound := time.NewTimer(e.killAfter)
	defer bound.Stop()
	select {
	case <-killed:
	case <-bound.C:
	}
	e.exit(endStatus(ctx))
}
