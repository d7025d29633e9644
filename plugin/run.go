package plugin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Job is one run: the resource it is on (as the user knows it) and the
// argument vector, program first.
type Job struct {
	On   string
	Argv []string
	// from is the plugin Plugin.Job expanded it from: a job with a server
	// value in it. A job made otherwise is started as it is.
	from *Plugin
}

// Line is the job's command line as a person reads it, each argument
// quoted where it holds a space or a quote (for the confirmation and the
// headers; nothing parses it).
func (j Job) Line() string {
	out := make([]string, len(j.Argv))
	for i, a := range j.Argv {
		out[i] = quoted(a)
	}
	return strings.Join(out, " ")
}

// quoted is an argument as a person reads it: in quotes when it holds a
// space or a quote, or is empty.
func quoted(a string) string {
	if a == "" || strings.ContainsAny(a, " \t'\"\\$`") {
		return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return a
}

// Locate says whether the plugin's program is there to run: a name is
// looked up in PATH, a path must be an executable file.
func (p Plugin) Locate() error {
	if _, err := exec.LookPath(p.Command); err != nil {
		return fmt.Errorf("%s is not found: install it, or give its path as command (canopy config lists the plugins)", p.Command)
	}
	return nil
}

// Status is how a run ended.
type Status struct {
	Code   int   // the exit code; -1 when it did not exit by itself
	Err    error // why it did not start, or what ended it; nil for an exit
	signal syscall.Signal
}

// Interrupted reports whether ctrl+c ended the run: SIGINT, or the exit
// status a shell gives a command SIGINT ended.
func (s Status) Interrupted() bool { return s.signal == syscall.SIGINT || s.Code == 130 }

// OK reports whether the run exited 0.
func (s Status) OK() bool { return s.Err == nil && s.Code == 0 }

func (s Status) String() string {
	if s.Err != nil {
		return s.Err.Error()
	}
	return fmt.Sprintf("exit %d", s.Code)
}

// statusOf is what exec's error says of a run.
func statusOf(ctx context.Context, err error) Status {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return Status{}
	case ctx.Err() != nil:
		return Status{Code: -1, Err: errors.New("stopped")}
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return Status{Code: exit.ExitCode()}
	case errors.As(err, &exit):
		st := Status{Code: -1, Err: fmt.Errorf("ended by %s", exit.ProcessState.String())}
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			st.signal = ws.Signal()
		}
		return st
	}
	return Status{Code: -1, Err: fmt.Errorf("did not start: %w", err)}
}

// Event is what a background batch tells of its runs, one at a time.
type Event struct {
	// Start: job Index begins. Output: bytes it wrote (stdout and
	// stderr, as they came). End: it ended, with Status. Done: every job
	// has ended (nothing follows).
	Index  int
	Start  bool
	Output []byte
	End    bool
	Status Status
	Done   bool
}

// chunk bounds one Output event.
const chunk = 32 << 10

// BatchOptions are a batch's limits; a zero field is canopy's default.
type BatchOptions struct {
	// GraceAfterExit is how long a run's output is still waited for once
	// its program has exited: a child it started may hold the pipe open,
	// and is ended with the run after that. Only time spent waiting on
	// the pipe counts, not time spent waiting for Next to take what was
	// read. 0 means 1 s.
	GraceAfterExit time.Duration
}

func (o BatchOptions) withDefaults() BatchOptions {
	if o.GraceAfterExit <= 0 {
		o.GraceAfterExit = time.Second
	}
	return o
}

// Batch runs jobs in the background, one after another, and tells what
// happens as Events. Output is read only as fast as Next is called, so
// memory stays bounded by whoever keeps it; a cancelled context stops the
// run under way and every one after it.
type Batch struct {
	events chan Event
	opts   BatchOptions
}

// StartBatch starts running jobs with canopy's limits; Next gives their
// events.
func StartBatch(ctx context.Context, jobs []Job) *Batch {
	return StartBatchWith(ctx, jobs, BatchOptions{})
}

// StartBatchWith is StartBatch with the limits given.
func StartBatchWith(ctx context.Context, jobs []Job, opts BatchOptions) *Batch {
	b := &Batch{events: make(chan Event), opts: opts.withDefaults()}
	go b.run(ctx, jobs)
	return b
}

// Next is the next event; false once the batch is over (after Done, or
// when ctx was cancelled).
func (b *Batch) Next(ctx context.Context) (Event, bool) {
	select {
	case e, ok := <-b.events:
		return e, ok
	case <-ctx.Done():
		return Event{}, false
	}
}

func (b *Batch) run(ctx context.Context, jobs []Job) {
	defer close(b.events)
	send := func(e Event) bool {
		select {
		case b.events <- e:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for i, j := range jobs {
		if !send(Event{Index: i, Start: true}) {
			return
		}
		st := runOne(ctx, j, b.opts.GraceAfterExit, func(p []byte) bool { return send(Event{Index: i, Output: p}) })
		if !send(Event{Index: i, End: true, Status: st}) {
			return
		}
	}
	send(Event{Done: true})
}

// runOne runs a job with no input, its output given to emit a chunk at a
// time (a fresh slice each). Once the program has exited, what it wrote is
// still read until the pipe closes, or until it has stayed open with
// nothing in it for grace (a child holds it: the child is ended).
func runOne(ctx context.Context, j Job, grace time.Duration, emit func([]byte) bool) Status {
	pr, pw, err := os.Pipe()
	if err != nil {
		return Status{Code: -1, Err: fmt.Errorf("did not start: %w", err)}
	}
	defer pr.Close()
	cmd, err := command(ctx, j)
	if err != nil {
		pw.Close()
		return Status{Code: -1, Err: fmt.Errorf("did not start: %w", err)}
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	detach(cmd)
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return statusOf(ctx, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	read := make(chan struct{})
	waiting := make(chan bool, 1) // the reader's latest state: waiting on the pipe, or on emit
	say := func(w bool) {
		select {
		case <-waiting:
		default:
		}
		waiting <- w // the one sender: there is room now
	}
	go func() {
		defer close(read)
		for {
			buf := make([]byte, chunk)
			say(true)
			n, err := pr.Read(buf)
			say(false)
			if n > 0 && !emit(buf[:n]) {
				return
			}
			if err != nil {
				return
			}
		}
	}()
	werr := <-exited
	// The grace runs while the reader waits on the pipe, and stops while
	// it waits for its output to be taken.
	open := time.NewTimer(grace)
	open.Stop()
	defer open.Stop()
	for {
		select {
		case <-read:
			return statusOf(ctx, werr)
		case w := <-waiting:
			if w {
				open.Reset(grace)
			} else {
				open.Stop()
			}
		case <-open.C:
			// Something it started holds the pipe: it ends with the run.
			_ = killGroup(cmd)
			pr.Close()
			<-read
			return statusOf(ctx, werr)
		}
	}
}

// RunForeground runs jobs one after another on the terminal's files,
// writing a line before each (when there are several) and a summary after;
// it returns each run's status.
func RunForeground(ctx context.Context, name string, jobs []Job, in, out, errOut *os.File) []Status {
	var statuses []Status
	for i, j := range jobs {
		if len(jobs) > 1 {
			fmt.Fprintf(out, "── canopy: %s on %s (%d of %d) ──\r\n", name, j.On, i+1, len(jobs))
		} else {
			fmt.Fprintf(out, "── canopy: %s on %s ──\r\n", name, j.On)
		}
		var st Status
		if cmd, err := command(ctx, j); err != nil {
			st = Status{Code: -1, Err: fmt.Errorf("did not start: %w", err)} // the summary says it
		} else {
			cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, errOut
			st = statusOf(ctx, cmd.Run())
		}
		statuses = append(statuses, st)
		if ctx.Err() != nil || st.Interrupted() {
			if left := len(jobs) - i - 1; left > 0 {
				fmt.Fprintf(out, "\r\n── canopy: ctrl+c: the %d runs left do not run ──", left)
			}
			break
		}
		fmt.Fprint(out, "\r\n")
	}
	fmt.Fprintf(out, "\r\n── canopy: %s: %s ──\r\n", name, Summary(statuses))
	return statuses
}

// Summary says how runs ended: "exit 0", "3 runs: 2 ok, 1 exit 1".
func Summary(st []Status) string {
	if len(st) == 1 {
		return st[0].String()
	}
	ok, bad := 0, map[string]int{}
	var order []string
	for _, s := range st {
		if s.OK() {
			ok++
			continue
		}
		k := s.String()
		if bad[k] == 0 {
			order = append(order, k)
		}
		bad[k]++
	}
	parts := []string{fmt.Sprintf("%d ok", ok)}
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%d %s", bad[k], k))
	}
	return fmt.Sprintf("%d runs: %s", len(st), strings.Join(parts, ", "))
}
