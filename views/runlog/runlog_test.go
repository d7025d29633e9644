package runlog

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
	"canopy/views/viewstest"
)

// feed makes a run log whose runs tell events, in order.
func feed(events ...Event) *Model {
	i := 0
	next := func(context.Context) (Event, bool) {
		if i == len(events) {
			return Event{}, false
		}
		i++
		return events[i-1], true
	}
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	m := New(context.Background(), common, Config{Title: "dump on 2 tags", Intro: []safe.Text{"x: not run: {{.Name}} is empty"}, Next: next})
	m.SetSize(60, 12)
	viewstest.Drive(m.Init(), func(tea.Msg) bool { return true }, m.Update)
	return m
}

func screen(m *Model) string { return ansi.Strip(m.View()) }

// TestRunLogShowsOutputSafely: output is made safe (an escape sequence is
// dropped, a control shown), a carriage return starts its line over (a
// progress bar), and each run's header and end are there.
func TestRunLogShowsOutputSafely(t *testing.T) {
	m := feed(
		Event{Header: "$ dump a"},
		Event{Output: []byte("\x1b[31mred\x1b[0m and \x1b]0;title\x07 ok\r\nprog 10%\rprog 100%\n")},
		Event{Output: []byte("no newline \x07 at the end")},
		Event{End: "dump: exit 0"},
		Event{Header: "$ dump b"},
		Event{End: "dump: exit 3", Bad: true},
		Event{Done: true, Summary: "2 runs: 1 ok, 1 exit 3", Bad: true},
	)
	s := screen(m)
	for _, want := range []string{"x: not run:", "$ dump a", "red and  ok", "prog 100%", "no newline ␇ at the end", "dump: exit 0", "dump: exit 3"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "prog 10%\n") || strings.Contains(m.View(), "\x1b]") || strings.Contains(m.View(), "\x07") {
		t.Errorf("not safe, or the progress line kept:\n%q", m.View())
	}
	if got := m.Title(); got != "dump on 2 tags · 2 runs: 1 ok, 1 exit 3" || m.Busy() {
		t.Errorf("title %q busy %v", got, m.Busy())
	}
}

// TestRunLogKeepsABoundedOutput: past maxKept, output is counted, not kept,
// and a line without an end is cut at maxLine.
func TestRunLogKeepsABoundedOutput(t *testing.T) {
	line := strings.Repeat("x", 1000) + "\n"
	var evs []Event
	for run := range maxKept/maxRun + 2 {
		evs = append(evs, Event{Header: safe.Text(fmt.Sprint("$ run ", run))})
		for range (maxRun / len(line)) + 100 {
			evs = append(evs, Event{Output: []byte(line)})
		}
		evs = append(evs, Event{End: "exit 0"})
	}
	evs = append(evs, Event{Output: []byte(strings.Repeat("y", 3*maxLine))}, Event{Done: true, Summary: "exit 0"})
	m := feed(evs...)
	if m.kept > maxKept || m.dropped == 0 {
		t.Fatalf("kept %d dropped %d", m.kept, m.dropped)
	}
	runs := 0
	for _, l := range m.lines {
		if strings.Contains(l.text, "of this run's output not kept") {
			runs++
		}
	}
	if runs != maxKept/maxRun+2 {
		t.Errorf("%d runs say they lost output", runs)
	}
	m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	if s := screen(m); !strings.Contains(s, "not kept in all") {
		t.Errorf("the end does not say output was dropped:\n%s", s)
	}
}

// TestRunLogFollowsTheEnd: while at the end, new lines scroll into view;
// scrolled up, the view stays.
func TestRunLogFollowsTheEnd(t *testing.T) {
	var evs []Event
	for i := range 40 {
		evs = append(evs, Event{Output: []byte(strings.Repeat("l", i%7+1) + "\n")})
	}
	evs = append(evs, Event{Output: []byte("the last line\n")}, Event{Done: true, Summary: "exit 0"})
	m := feed(evs...)
	if s := screen(m); !strings.Contains(s, "the last line") {
		t.Errorf("not following the end:\n%s", s)
	}
	m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	if s := screen(m); !strings.Contains(s, "x: not run") {
		t.Errorf("g does not go to the top:\n%s", s)
	}
}

// TestRunLogTakesShortLinesInLinearWork: a plugin printing many short
// lines costs what the same bytes cost without newlines. Measured in bytes
// allocated, not time: reading a line once copied the rest of its read
// (16 KiB a line on average here, ≈ 800 MB for these 4 MiB), and every
// dropped line was cleaned anyway.
func TestRunLogTakesShortLinesInLinearWork(t *testing.T) {
	const size = 4 << 20
	line := strings.Repeat("w", 84) + "\n"
	chunk := []byte(strings.Repeat(line, (32<<10)/len(line)))
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	m := New(context.Background(), common, Config{Title: "lines"})
	m.SetSize(120, 40)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for fed := 0; fed < size; fed += len(chunk) {
		m.output(chunk)
	}
	m.flush()
	runtime.ReadMemStats(&after)
	// What is kept (a run's first MiB) is cleaned and wrapped; the rest is
	// only counted.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32*maxRun {
		t.Errorf("4 MiB of short lines allocated %d MiB, want at most %d", alloc>>20, 32*maxRun>>20)
	}
	if m.runKept == 0 || m.runKept > maxRun || m.runKept+m.runDropped < size*9/10 {
		t.Errorf("kept %d, dropped %d of %d", m.runKept, m.runDropped, size)
	}
}

// Every key the run log offers does something, while it runs and once
// done; esc while it runs says it stopped.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	check := func(when string, m *Model) {
		t.Helper()
		if u := keymap.Unbound(m.Actions()); len(u) > 0 {
			t.Errorf("%s: enabled without a Run: %v", when, u)
		}
	}
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	running := New(context.Background(), common, Config{Title: "dump", Next: func(context.Context) (Event, bool) { return Event{}, false }})
	running.SetSize(60, 12)
	check("running", running)
	if st, _ := keymap.Find(running.Actions(), keymap.Back); st.Short != "stop" {
		t.Errorf("esc while running says %q", st.Short)
	}
	cmd := running.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if msg, ok := cmd().(views.FlashMsg); !ok || msg.Text != "stopped: dump" || !running.Closed() {
		t.Errorf("esc while running: %v, closed %v", cmd(), running.Closed())
	}

	var evs []Event
	for range 40 {
		evs = append(evs, Event{Output: []byte("a line\n")})
	}
	m := feed(append(evs, Event{Done: true, Summary: "exit 0"})...)
	check("done", m)
	m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	check("scrolled to the top", m)
	if msg, ok := m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})().(views.CopyMsg); !ok || !strings.Contains(msg.Text, "a line\na line\n") {
		t.Errorf("y did not copy the output: %v", msg)
	}
	if cmd := m.Update(tea.KeyPressMsg{Code: 'h', Text: "h"}); cmd != nil || !m.Closed() {
		t.Errorf("h once done: closed %v", m.Closed())
	}
}
