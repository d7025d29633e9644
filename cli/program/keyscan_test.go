package program

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/cli/exit"
)

// ctrlCs counts the ctrl+c a scanner finds in s.
func ctrlCs(s string) int {
	var sc ctrlScanner
	n := 0
	for i := 0; i < len(s); i++ {
		if c, _ := sc.scan(s[i]); c {
			n++
		}
	}
	return n
}

// ctrl+c is found in every form a terminal sends it, and in nothing else:
// not in a bracketed paste, not with other modifiers, not released.
func TestCtrlCIsFoundInEveryForm(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"\x03", 1},
		{"abc\x03def", 1},
		{"\x1b[99;5u", 1},               // kitty
		{"\x1b[99;5:1u", 1},             // kitty, press
		{"\x1b[99;5:2u", 1},             // kitty, repeat
		{"\x1b[99:67;69u", 1},           // kitty, alternate key, caps lock
		{"\x1b[27;5;99~", 1},            // modifyOtherKeys
		{"\x1b[99;5:3u", 0},             // released
		{"\x1b[99;6u", 0},               // ctrl+shift+c
		{"\x1b[99;7u", 0},               // ctrl+alt+c
		{"\x1b[27;6;99~", 0},            // ctrl+shift+c
		{"\x1b[100;5u", 0},              // ctrl+d
		{"\x1b\x03", 0},                 // alt+ctrl+c
		{"\x1b[200~a\x03b\x1b[201~", 0}, // pasted
		{"\x1b[200~a\x1b[99;5ub\x1b[201~\x03", 1},
		{"\x1b]11;rgb:0000/0000/0000\x07\x03", 1},     // after a terminal's answer
		{"\x1b]52;c;\x03\x1b\\", 0},                   // inside one
		{"\x1bOA\x03", 1},                             // after an arrow key
		{"\x1b[<0;10;5M\x03", 1},                      // after a mouse click
		{"\x1b[" + strings.Repeat("9", 100) + "u", 0}, // too long
	} {
		if got := ctrlCs(tc.in); got != tc.want {
			t.Errorf("%q: %d ctrl+c, want %d", tc.in, got, tc.want)
		}
	}
}

// What is read ahead goes on unchanged and in order; ctrl+c calls the
// interrupt once, as soon as it is read, whatever waits before it.
func TestPendingGivesEverythingAndSeesCtrlCAtOnce(t *testing.T) {
	var calls atomic.Int32
	p := newPending(func() { calls.Add(1) })
	in := strings.Repeat("x", 100_000) + "\x1b[A\x03" + "more\x03"
	for i := 0; i < len(in); i += 4096 {
		p.add([]byte(in[i:min(i+4096, len(in))]))
	}
	if calls.Load() != 1 {
		t.Fatalf("interrupt called %d times before anything was taken, want 1", calls.Load())
	}
	p.fail(io.EOF)
	var out bytes.Buffer
	buf := make([]byte, 4096)
	for {
		n, err := p.read(buf)
		out.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if out.String() != in {
		t.Errorf("read %d bytes, want the %d given, in order", out.Len(), len(in))
	}
}

// A flood past softPending drops typed text (not sequences, not a paste,
// not ctrl+c), so what waits stays bounded; past hardPending everything.
func TestPendingIsBounded(t *testing.T) {
	t.Parallel() // tens of MB scanned a byte at a time: slow under -race
	var calls atomic.Int32
	p := newPending(func() { calls.Add(1) })
	chunk := []byte(strings.Repeat("y", 4096))
	for range (4 * softPending) / len(chunk) {
		p.add(chunk)
	}
	p.add([]byte("\x1b[A"))
	p.add([]byte("\x1b[200~pasted\x1b[201~"))
	p.add([]byte("\x03"))
	if n := len(p.buf); n > softPending+64 {
		t.Errorf("%d bytes pending after a flood of %d, want about %d", n, 4*softPending, softPending)
	}
	if tail := string(p.buf[softPending:]); tail != "\x1b[A\x1b[200~pasted\x1b[201~\x03" {
		t.Errorf("what came after the flood is %q", tail)
	}
	if calls.Load() != 1 {
		t.Errorf("interrupt called %d times", calls.Load())
	}
	big := make([]byte, 64<<10)
	for i := range big {
		big[i] = 0x1b
	}
	for range hardPending/len(big) + 1 { // past the bound, whatever was pending
		p.add(big)
	}
	if n := len(p.buf); n > hardPending {
		t.Errorf("%d bytes pending, more than %d", n, hardPending)
	}
}

// stuck is a model whose Update does not return once it gets "stick"
// (it closes stuck then) until release is closed.
type stuck struct{ stuck, release chan struct{} }

func (s stuck) Init() tea.Cmd { return func() tea.Msg { return "stick" } }
func (s stuck) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg == "stick" {
		close(s.stuck)
		<-s.release
	}
	return s, nil
}
func (s stuck) View() tea.View { return tea.NewView("") }

// When the context ends (ctrl+c, a signal) and the program does not end
// with it (an Update that does not return), it is killed, the terminal
// restored, and the process ends with the program's status. It is given no
// time to end on its own (it cannot) and the kill an hour: an exit within
// the test's patience is the kill's doing, not its bound's.
func TestAStuckProgramIsEndedWhenAsked(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	m := stuck{stuck: make(chan struct{}), release: make(chan struct{})}
	exited := make(chan int, 1)
	end := ending{stuckAfter: time.Nanosecond, killAfter: time.Hour, exit: func(code int) { exited <- code; close(m.release) }}
	returned := make(chan int, 1)
	go func() {
		returned <- runProgramWith(ctx, m, t.TempDir(), io.Discard, end, tea.WithInput(nil), tea.WithOutput(&bytes.Buffer{}))
	}()
	select {
	case <-m.stuck:
	case <-time.After(patience):
		t.Fatal("the program never got its first message")
	}
	cancel()
	select {
	case code := <-exited:
		if code != exit.OK {
			t.Errorf("the process was ended with %d, want %d", code, exit.OK)
		}
	case <-time.After(patience):
		t.Fatal("a stuck program was not ended")
	}
	select {
	case code := <-returned:
		if code != exit.OK {
			t.Errorf("the killed program returned %d, want %d", code, exit.OK)
		}
	case <-time.After(patience):
		t.Fatal("the killed program's run did not return once its Update did")
	}
}

// idle is a model that does nothing: only its context ends it.
type idle struct{}

func (idle) Init() tea.Cmd                         { return nil }
func (i idle) Update(tea.Msg) (tea.Model, tea.Cmd) { return i, nil }
func (idle) View() tea.View                        { return tea.NewView("") }

// A program that ends when the context does is not killed: the process is
// not ended from outside, and the run returns.
func TestAProgramThatEndsWhenAskedIsNotKilled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	var exits atomic.Int32
	end := ending{stuckAfter: time.Hour, exit: func(int) { exits.Add(1) }}
	returned := make(chan int, 1)
	go func() {
		returned <- runProgramWith(ctx, idle{}, t.TempDir(), io.Discard, end, tea.WithInput(nil), tea.WithOutput(&bytes.Buffer{}))
	}()
	cancel()
	select {
	case code := <-returned:
		if code != exit.OK || exits.Load() != 0 {
			t.Errorf("returned %d after %d exits from outside, want %d and none", code, exits.Load(), exit.OK)
		}
	case <-time.After(patience):
		t.Fatal("the program did not end with its context")
	}
}
