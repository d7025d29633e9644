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
	for range 2 * hardPending / len(big) {
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
// restored, and the process ends, within stuckAfter+killAfter.
func TestAStuckProgramIsEndedWhenAsked(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	m := stuck{stuck: make(chan struct{}), release: make(chan struct{})}
	exited := make(chan int, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		runProgramWith(ctx, m, t.TempDir(), io.Discard, func(code int) { exited <- code; close(m.release) },
			tea.WithInput(nil), tea.WithOutput(&bytes.Buffer{}))
	}()
	select {
	case <-m.stuck:
	case <-time.After(5 * time.Second):
		t.Fatal("the program never got its first message")
	}
	t0 := time.Now()
	cancel()
	select {
	case code := <-exited:
		// The design's bound is stuckAfter+killAfter; a loaded machine
		// gets slack here.
		if d := time.Since(t0); d > 3*time.Second || code != exit.OK {
			t.Errorf("ended after %v with %d", d, code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a stuck program was not ended")
	}
	<-done
}
