package exit

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// Interruption is the cause of a run's context cancelled by a signal
// (context.Cause).
type Interruption struct{ Signal os.Signal }

func (i Interruption) Error() string { return "interrupted by " + signalName(i.Signal) }

// code is the exit status a shell gives a command a signal ended: 128 plus
// the signal's number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
func (i Interruption) code() int {
	if s, ok := i.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return Failure
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// SignalContext is a context that SIGINT (ctrl+c before the UI has the
// terminal), SIGTERM and SIGHUP (the terminal closed) cancel, with the
// signal as its cause (context.Cause). Once one has come canopy stops
// listening, so that a second signal ends a canopy that is somehow still
// there the way it would end any program. stop releases the signals.
func SignalContext(parent context.Context) (ctx context.Context, stop func()) {
	h := &holder{}
	ctx, cancel := context.WithCancelCause(context.WithValue(parent, holderKey{}, h))
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-ch:
				if s == os.Interrupt && h.held() {
					continue // the program lent the terminal takes it
				}
				signal.Stop(ch)
				cancel(Interruption{Signal: s})
			case <-done:
			}
			return
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// holder counts the holds on SIGINT and tells each one that comes.
type holder struct {
	mu    sync.Mutex
	n     int
	heard chan struct{}
}

type holderKey struct{}

// held reports whether SIGINT is held, and tells the holders it came.
func (h *holder) held() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n == 0 {
		return false
	}
	select {
	case h.heard <- struct{}{}:
	default:
	}
	return true
}

// HoldInterrupts keeps SIGINT from ending ctx (a SignalContext) until
// release: ctrl+c in the terminal then belongs to the program canopy lent
// it to. Each SIGINT that comes meanwhile is told on the channel. Other
// signals end ctx as ever.
func HoldInterrupts(ctx context.Context) (heard <-chan struct{}, release func()) {
	h, ok := ctx.Value(holderKey{}).(*holder)
	if !ok {
		return make(chan struct{}), func() {}
	}
	h.mu.Lock()
	h.n++
	if h.heard == nil {
		h.heard = make(chan struct{}, 1)
	}
	ch := h.heard
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		h.n--
		h.mu.Unlock()
	}
}

// Signalled reports whether ctx was cancelled by a signal, and if so the
// exit status it gives.
func Signalled(ctx context.Context) (status int, ok bool) {
	var in Interruption
	if !errors.As(context.Cause(ctx), &in) {
		return 0, false
	}
	return in.code(), true
}

// Interrupted reports whether ctx was cancelled by a signal; if so it says
// on stderr what command name was doing and returns the exit status.
func Interrupted(ctx context.Context, stderr io.Writer, name, doing string) (int, bool) {
	var in Interruption
	if !errors.As(context.Cause(ctx), &in) {
		return 0, false
	}
	Sayf(stderr, "%s: %v while %s; stopped", name, in, doing)
	return in.code(), true
}

// Step runs fn, one of the steps before the first frame that may block
// where no context reaches (reading a FIFO or a file on a hung mount,
// waiting for chainctl, building a large demo), in a goroutine of its own,
// and returns as soon as ctx is cancelled, with the cause: a signal must
// end canopy at once, whatever the step is waiting for. The abandoned
// goroutine ends with the process, which is about to exit.
func Step[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := fn()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		// A step that can end (chainctl, killed by the same cancel) is
		// given a moment to, so that nothing it started outlives canopy;
		// one that cannot (a read of a FIFO) is left to end with the process.
		select {
		case <-ch:
		case <-time.After(abandonAfter):
		}
		var zero T
		return zero, context.Cause(ctx)
	}
}

// abandonAfter is how long an interrupted step is waited for.
const abandonAfter = 300 * time.Millisecond

// slowAfter is how long a step before the first frame runs before canopy
// says what it is waiting for: a blank terminal says nothing.
const slowAfter = time.Second

// StepSaying is Step, saying note on stderr (once, and only if the step
// is still running after slowAfter): "canopy: waiting for chainctl…".
func StepSaying[T any](ctx context.Context, stderr io.Writer, note string, fn func() (T, error)) (T, error) {
	done := make(chan struct{})
	said := make(chan struct{})
	go func() {
		defer close(said)
		t := time.NewTimer(slowAfter)
		defer t.Stop()
		select {
		case <-t.C:
			Sayf(stderr, "%s (ctrl+c stops)", note)
		case <-done:
		}
	}()
	v, err := Step(ctx, fn)
	close(done)
	<-said // nothing is written after the step has returned
	return v, err
}

// Fail reports err of command name and returns the exit status code; when
// a signal interrupted the run it says so instead, with what was under way
// (doing), and returns the signal's status.
func Fail(ctx context.Context, stderr io.Writer, name, doing string, err error, code int) int {
	if c, ok := Interrupted(ctx, stderr, name, doing); ok {
		return c
	}
	Sayf(stderr, "%s: %v", name, err)
	return code
}
