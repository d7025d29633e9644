package ui

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	bubbletable "charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// The whole key path as a user feels it: a key sent to a running Bubble Tea
// program (the real one: its input loop, Update, View, and the renderer
// diffing the frame into the bytes a terminal gets), until the frame the
// key changed is written. canopy's shell on a tags table, and bubbles'
// table in a program of its own, run the same way at the same size.

const (
	keyPathWidth, keyPathHeight = 200, 60
	keyPathMoves                = 200 // j then k over this many rows, so every key moves the view
)

// frames counts the writes of a program's renderer: one per frame flushed.
type frames struct {
	n     atomic.Int64
	bytes atomic.Int64
	wake  chan struct{}
}

func newFrames() *frames { return &frames{wake: make(chan struct{}, 1)} }

func (f *frames) Write(p []byte) (int, error) {
	f.n.Add(1)
	f.bytes.Add(int64(len(p)))
	select {
	case f.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

// after waits until a frame after n is written.
func (f *frames) after(tb testing.TB, n int64) {
	deadline := time.After(5 * time.Second)
	for f.n.Load() <= n {
		select {
		case <-f.wake:
		case <-deadline:
			tb.Fatalf("no frame written within 5 s of a key")
		}
	}
}

// probed lets the benchmark read the model inside the program's loop.
type probed struct{ tea.Model }

type probeMsg struct {
	look func(tea.Model)
	done chan struct{}
}

func (p probed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if pm, ok := msg.(probeMsg); ok {
		pm.look(p.Model)
		close(pm.done)
		return p, nil
	}
	m, cmd := p.Model.Update(msg)
	return probed{m}, cmd
}

// running is a program under the benchmark.
type running struct {
	p      *tea.Program
	frames *frames
	done   chan struct{}
}

func runProgram(tb testing.TB, m tea.Model) *running {
	r := &running{frames: newFrames(), done: make(chan struct{})}
	r.p = tea.NewProgram(probed{m}, tea.WithInput(nil), tea.WithOutput(r.frames), tea.WithWindowSize(keyPathWidth, keyPathHeight),
		tea.WithoutSignals(), tea.WithFPS(120), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	go func() {
		defer close(r.done)
		_, _ = r.p.Run()
	}()
	tb.Cleanup(func() {
		r.p.Quit()
		<-r.done
	})
	return r
}

// screen is the program's frame as text, read in its loop.
func (r *running) screen() string {
	var s string
	done := make(chan struct{})
	r.p.Send(probeMsg{look: func(m tea.Model) { s = ansi.Strip(m.View().Content) }, done: done})
	<-done
	return s
}

// waitScreen waits until the frame shows every text, and no row loading.
func (r *running) waitScreen(tb testing.TB, texts ...string) {
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := r.screen()
		ok := !strings.Contains(s, "loading")
		for _, t := range texts {
			ok = ok && strings.Contains(s, t)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the screen never showed %q:\n%s", texts, s)
		}
		// The screen changes with a frame written: wait for one (or look
		// again soon, for a change the renderer has not flushed yet).
		select {
		case <-r.frames.wake:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (r *running) keys(tb testing.TB, text string) {
	for _, c := range text {
		r.p.Send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
}

var (
	keyJ = tea.KeyPressMsg{Code: 'j', Text: "j"}
	keyK = tea.KeyPressMsg{Code: 'k', Text: "k"}
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measureKeys sends b.N keys, each once the frame of the one before is
// written, and reports CPU and wall time per key and bytes per frame.
func measureKeys(b *testing.B, r *running) {
	b.Helper()
	cpu0, bytes0 := cpuNow(), r.frames.bytes.Load()
	b.ResetTimer()
	for i := range b.N {
		key := keyJ
		if i/keyPathMoves%2 == 1 {
			key = keyK
		}
		n := r.frames.n.Load()
		r.p.Send(key)
		r.frames.after(b, n)
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuNow()-cpu0)/float64(b.N)/1e3, "cpu-µs/key")
	b.ReportMetric(float64(r.frames.bytes.Load()-bytes0)/float64(b.N), "bytes/key")
}

// keyPathServers are the emulators of the benchmark, seeded once per size.
var keyPathServers = struct {
	sync.Mutex
	m map[string]*emulator.Server
}{m: map[string]*emulator.Server{}}

func keyPathServer(b *testing.B, size string) *emulator.Server {
	keyPathServers.Lock()
	defer keyPathServers.Unlock()
	if s, ok := keyPathServers.m[size]; ok {
		return s
	}
	srv, err := emulator.New(emulator.Options{Seed: 1, Size: size, AdminToken: "bench-admin-token"})
	if err != nil {
		b.Fatal(err)
	}
	keyPathServers.m[size] = srv
	return srv
}

// BenchmarkKeyPath: j and k on a table of tags, key to frame written.
// canopy: the shell on :tags of the small demo (10³ tags) and of the large
// one (10⁶), the cursor in the middle; bubbles: its table in a program of
// its own, over 10³ and 10⁶ rows of the same width.
func BenchmarkKeyPath(b *testing.B) {
	for _, c := range []struct {
		size string
		rows string
	}{{"small", "1e3"}, {"large", "1e6"}} {
		b.Run("canopy/"+c.rows, func(b *testing.B) {
			srv := keyPathServer(b, c.size)
			hs := httptest.NewServer(srv)
			defer hs.Close()
			client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "bench")})
			if err != nil {
				b.Fatal(err)
			}
			m := New(Options{Client: client, Org: srv.OrgUID(), Host: "bench", Identity: "admin (bench)",
				Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }})
			defer m.Close()
			r := runProgram(b, m)
			r.waitScreen(b, "platform")
			r.keys(b, ":tags")
			r.p.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
			r.waitScreen(b, "TAG")
			// The middle of the list, rows loaded around it.
			r.keys(b, ":50%")
			r.p.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
			for range keyPathMoves {
				r.p.Send(keyJ)
			}
			for range keyPathMoves {
				r.p.Send(keyK)
			}
			r.waitScreen(b, "TAG")
			measureKeys(b, r)
		})
	}
	for _, n := range []int{1_000, 1_000_000} {
		b.Run(fmt.Sprintf("bubbles/%.0e", float64(n)), func(b *testing.B) {
			r := runProgram(b, newBubblesTable(n))
			r.waitScreen(b, "TAG", fmt.Sprintf("row-%07d", n/2-5))
			measureKeys(b, r)
		})
	}
}

// bubblesTable is bubbles' table as a program: keys move it, View draws it.
type bubblesTable struct{ t bubbletable.Model }

func newBubblesTable(n int) bubblesTable {
	cols := []bubbletable.Column{{Title: "TAG", Width: 40}, {Title: "DIGEST", Width: 80}, {Title: "UPDATED", Width: 14},
		{Title: "STATUS", Width: 12}}
	rows := make([]bubbletable.Row, n)
	for i := range rows {
		rows[i] = bubbletable.Row{fmt.Sprintf("row-%07d", i), fmt.Sprintf("sha256:%064x", i*2654435761), "3 days ago", ""}
	}
	t := bubbletable.New(bubbletable.WithColumns(cols), bubbletable.WithRows(rows), bubbletable.WithFocused(true),
		bubbletable.WithHeight(keyPathHeight-2), bubbletable.WithWidth(keyPathWidth))
	t.SetCursor(n / 2) // the middle, as canopy's
	return bubblesTable{t}
}

func (m bubblesTable) Init() tea.Cmd { return nil }

func (m bubblesTable) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.t, cmd = m.t.Update(msg)
	return m, cmd
}

func (m bubblesTable) View() tea.View {
	v := tea.NewView(m.t.View())
	v.AltScreen = true
	return v
}

var _ io.Writer = (*frames)(nil)
