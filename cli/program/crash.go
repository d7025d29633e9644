package program

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/files"
	"canopy/safe"
)

// crash is a panic caught in the program: its value and where it happened.
type crash struct {
	value any
	stack []byte
}

// panicMsg carries a panic from a command back to the event loop.
type panicMsg crash

// guard wraps the root model so that a panic anywhere in it — Init, Update,
// View, or a command running in its own goroutine — ends the program
// cleanly (Bubble Tea restores the terminal) and is kept for a crash report,
// instead of a stack trace over the user's screen.
type guard struct {
	inner tea.Model
	quit  func() // asks the program to stop, from any goroutine

	mu     sync.Mutex
	caught *crash // the first panic
}

func (g *guard) record(r any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.caught == nil {
		g.caught = &crash{value: r, stack: debug.Stack()}
	}
}

// crashed is the first panic caught, nil when none.
func (g *guard) crashed() *crash {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.caught
}

func (g *guard) Init() (cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			g.record(r)
			cmd = tea.Quit
		}
	}()
	return g.wrap(g.inner.Init())
}

func (g *guard) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	if p, ok := msg.(panicMsg); ok {
		g.mu.Lock()
		if g.caught == nil {
			c := crash(p)
			g.caught = &c
		}
		g.mu.Unlock()
		return g, tea.Quit
	}
	defer func() {
		if r := recover(); r != nil {
			g.record(r)
			model, cmd = g, tea.Quit
		}
	}()
	m, cmd := g.inner.Update(msg)
	g.inner = m
	return g, g.wrap(cmd)
}

func (g *guard) View() (v tea.View) {
	defer func() {
		if r := recover(); r != nil {
			g.record(r)
			// View returns no command: stop from outside the event loop.
			go g.quit()
			v = tea.NewView("")
		}
	}()
	return g.inner.View()
}

// wrap makes a command report a panic as a panicMsg, and wraps the commands
// inside the batches and sequences it returns, which Bubble Tea runs in
// goroutines of its own.
func (g *guard) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = panicMsg{value: r, stack: debug.Stack()}
			}
		}()
		return g.wrapMsg(cmd())
	}
}

func (g *guard) wrapMsg(msg tea.Msg) tea.Msg {
	if b, ok := msg.(tea.BatchMsg); ok {
		out := make(tea.BatchMsg, len(b))
		for i, c := range b {
			out[i] = g.wrap(c)
		}
		return out
	}
	// tea.Sequence's message is an unexported []tea.Cmd: rebuilt by
	// reflection with the same type, so Bubble Tea still runs it in order.
	v := reflect.ValueOf(msg)
	cmdType := reflect.TypeFor[tea.Cmd]()
	if v.Kind() == reflect.Slice && v.Type().Elem() == cmdType && v.Type() != reflect.TypeFor[[]tea.Cmd]() {
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c, _ := v.Index(i).Interface().(tea.Cmd)
			out.Index(i).Set(reflect.ValueOf(g.wrap(c)).Convert(cmdType))
		}
		return out.Interface()
	}
	return msg
}

// writeCrashReport writes version, time, panic value and stack to
// dir/crash-<time>.txt (dir 0700, file 0600) and returns its path.
func writeCrashReport(dir string, c *crash, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("crash report: %w", err)
	}
	path := filepath.Join(dir, "crash-"+now.UTC().Format("20060102T150405.000Z")+".txt")
	// The panic value may hold server text (the report is read with cat)
	// or a URL with a password.
	report := fmt.Sprintf("canopy %s crashed at %s\n\npanic: %s\n\n%s", api.Version, now.UTC().Format(time.RFC3339Nano),
		safe.String(api.RedactUserinfo(fmt.Sprint(c.value))), safe.Lines(string(c.stack)))
	// A new file only: never through a link, never over a file there.
	f, err := files.Open(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|files.NoFollow, 0o600)
	if err != nil {
		return "", fmt.Errorf("crash report: %w", err)
	}
	if _, err := f.WriteString(report); err != nil {
		_ = f.Close()
		return "", fmt.Errorf("crash report: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("crash report: %w", err)
	}
	return path, nil
}
