// Package runlog shows the output of programs run in the background (the
// user's plugins) as it comes: a header line per run, its output made safe
// and wrapped to the width, and how each run ended. It follows the end
// while the view is there, scrolls with the usual keys, and keeps a
// bounded amount of output. The screen owns the runs: going back stops
// what still runs.
package runlog

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
)

// Event is what the runs tell, one at a time.
type Event struct {
	// Header: a run begins (a line naming it). Output: bytes it wrote,
	// raw. End: it ended (its status line; Bad when not a success).
	// Done: every run ended, Summary says how.
	Header  safe.Text
	Output  []byte
	End     safe.Text
	Bad     bool
	Done    bool
	Summary safe.Text
}

// Config is a run log.
type Config struct {
	Title safe.Text
	// Intro are lines shown first (the rows that did not run, and why).
	Intro []safe.Text
	// Next waits for the next event; false when there is none (ctx ended).
	Next func(ctx context.Context) (Event, bool)
	// Runs is how many runs there are (for "running 2 of 3").
	Runs int
}

// maxKept bounds the output kept, maxRun one run's (what comes past them
// is counted and said): a run that floods leaves room for the ones after.
const (
	maxKept = 8 << 20
	maxRun  = 1 << 20
)

// maxLine bounds one line waiting for its end (a program that writes
// without newlines).
const maxLine = 64 << 10

// line is one line to show and how it is drawn.
type line struct {
	text  string // safe
	style int    // plain, header, ok, bad, intro
}

const (
	plain = iota
	header
	good
	bad
	intro
)

type eventMsg struct {
	owner *Model
	ev    Event
	ok    bool
}

// Model is a run log screen.
type Model struct {
	closed        bool
	common        views.Common
	ctx           context.Context
	cfg           Config
	lines         []line   // logical lines
	wrapped       []string // display lines, styled
	partial       []byte   // output after the last newline
	kept, dropped int
	// runKept and runDropped are the run's under way.
	runKept, runDropped int
	done                bool
	summary             safe.Text
	summaryBad          bool
	offset              int
	width, height       int
	frame               int
	started             int // runs begun
}

// New makes a run log; ctx ends with the screen, and stops the runs.
func New(ctx context.Context, common views.Common, cfg Config) *Model {
	m := &Model{common: common, ctx: ctx, cfg: cfg}
	for _, l := range cfg.Intro {
		m.add(line{text: string(l), style: intro})
	}
	return m
}

// Init waits for the first event.
func (m *Model) Init() tea.Cmd { return m.next() }

func (m *Model) next() tea.Cmd {
	ctx, next := m.ctx, m.cfg.Next
	return func() tea.Msg {
		ev, ok := next(ctx)
		return eventMsg{owner: m, ev: ev, ok: ok}
	}
}

// Title names the screen and says where the runs are.
func (m *Model) Title() safe.Text {
	if m.done {
		return m.cfg.Title + " · " + m.summary
	}
	return m.cfg.Title + " · running"
}

// Busy is true while a run is under way.
func (m *Model) Busy() bool { return !m.done }

// Done reports whether every run ended.
func (m *Model) Done() bool { return m.done }

// Closed reports whether it closed itself.
func (m *Model) Closed() bool { return m.closed }

// Actions: scroll, copy the output, back (which stops what runs).
func (m *Model) Actions() []keymap.State {
	back := keymap.On(keymap.Back)
	if !m.done {
		back = back.Saying("stop")
	}
	states := []keymap.State{back.Does(m.back), keymap.On(keymap.Copy).Does(m.copy)}
	states = append(states, views.Moves(m.offset, len(m.wrapped), m.rows(), func(to int) tea.Cmd {
		m.scroll(to - m.offset)
		return nil
	})...)
	return append(states, keymap.Quiet(keymap.Collapse).Does(m.back))
}

// back closes the log; runs under way stop with it.
func (m *Model) back() tea.Cmd {
	m.closed = true
	if !m.done {
		return views.Flash("stopped: " + string(m.cfg.Title))
	}
	return nil
}

// copy copies the whole output.
func (m *Model) copy() tea.Cmd {
	var b strings.Builder
	for _, l := range m.lines {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return views.Copy(b.String(), "output")
}

// Update takes the runs' events and the keys.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case eventMsg:
		if msg.owner != m {
			return nil
		}
		return m.event(msg.ev, msg.ok)
	case views.TickMsg:
		m.frame = msg.Frame
		return nil
	case tea.KeyPressMsg:
		cmd, _ := views.Press(m.common.Keys, msg, m.Actions())
		return cmd
	}
	return nil
}

// event adds what a run told and waits for the next.
func (m *Model) event(ev Event, ok bool) tea.Cmd {
	if !ok {
		m.flush()
		m.done = true
		if m.summary == "" {
			m.summary = "stopped"
		}
		return nil
	}
	follow := m.atEnd()
	switch {
	case ev.Header != "":
		m.flush()
		m.started++
		m.runKept, m.runDropped = 0, 0
		m.add(line{text: string(ev.Header), style: header})
	case ev.Output != nil:
		m.output(ev.Output)
	case ev.End != "":
		m.flush()
		if m.runDropped > 0 {
			m.add(line{text: fmt.Sprintf("(%s bytes of this run's output not kept)", text.Count(m.runDropped)), style: intro})
		}
		style := good
		if ev.Bad {
			style = bad
		}
		m.add(line{text: string(ev.End), style: style})
	}
	if ev.Done {
		m.flush()
		m.done, m.summary, m.summaryBad = true, ev.Summary, ev.Bad
		if m.dropped > 0 {
			m.add(line{text: fmt.Sprintf("(%s bytes of output not kept in all: each run keeps its first %s, the page %s)",
				text.Count(m.dropped), text.Count(maxRun), text.Count(maxKept)), style: intro})
		}
	}
	if follow {
		m.scroll(len(m.wrapped))
	}
	if m.done {
		return nil
	}
	return m.next()
}

// output takes raw bytes: whole lines are added, the rest waits. A
// carriage return alone (a progress bar) starts its line over.
func (m *Model) output(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\n\r") // not on a string of p: that copies the rest for every line
		if i < 0 {
			m.partial = append(m.partial, p...)
			if len(m.partial) > maxLine {
				m.flush()
			}
			return
		}
		m.partial = append(m.partial, p[:i]...)
		switch {
		case p[i] == '\r' && i+1 < len(p) && p[i+1] == '\n':
			m.flush()
			i++
		case p[i] == '\r':
			m.partial = m.partial[:0]
		default:
			m.flush()
		}
		p = p[i+1:]
	}
}

// flush adds the waiting line, if any.
func (m *Model) flush() {
	if len(m.partial) == 0 {
		return
	}
	if m.runDropped > 0 {
		// The run has had its share (its first lines, up to what it or the
		// page may keep): the rest is counted as it came, not cleaned for
		// nothing.
		m.dropped += len(m.partial)
		m.runDropped += len(m.partial)
		m.partial = m.partial[:0]
		return
	}
	s := safe.Lines(ansi.Strip(string(m.partial)))
	m.partial = m.partial[:0]
	if m.kept+len(s) > maxKept || m.runKept+len(s) > maxRun {
		m.dropped += len(s)
		m.runDropped += len(s)
		return
	}
	m.kept += len(s)
	m.runKept += len(s)
	m.add(line{text: s, style: plain})
}

// add keeps a line and wraps it for the width.
func (m *Model) add(l line) {
	m.lines = append(m.lines, l)
	if m.width > 0 {
		m.wrapped = append(m.wrapped, m.wrap(l)...)
	}
}

// wrap is a line as display lines, styled.
func (m *Model) wrap(l line) []string {
	th := m.common.Theme
	w := max(m.width-1, 10)
	var out []string
	for _, s := range strings.Split(ansi.Hardwrap(l.text, w, true), "\n") {
		s = text.Cut(s, w, th.Glyphs.Ellipsis)
		switch l.style {
		case header:
			s = th.Section.Render(s)
		case good:
			s = th.Good.Render(s)
		case bad:
			s = th.Bad.Render(s)
		case intro:
			s = th.Muted.Render(s)
		}
		out = append(out, " "+s)
	}
	return out
}

// SetSize wraps every line for the width.
func (m *Model) SetSize(w, h int) {
	follow := m.atEnd()
	resized := w != m.width
	m.width, m.height = w, h
	if resized {
		m.wrapped = m.wrapped[:0]
		for _, l := range m.lines {
			m.wrapped = append(m.wrapped, m.wrap(l)...)
		}
	}
	if follow {
		m.scroll(len(m.wrapped))
	}
	m.scroll(0)
}

func (m *Model) atEnd() bool { return m.offset >= len(m.wrapped)-m.rows() }

// rows is the number of output lines shown: the first line says how the
// runs are.
func (m *Model) rows() int { return max(m.height-1, 1) }

func (m *Model) scroll(d int) {
	m.offset = min(max(m.offset+d, 0), max(len(m.wrapped)-m.rows(), 0))
}

// status is the first line: how the runs are, and what esc does.
func (m *Model) status() string {
	th := m.common.Theme
	if m.done {
		st := th.Good
		if m.summaryBad {
			st = th.Bad
		}
		return text.Cut(" "+st.Render(string(m.summary))+th.Muted.Render(" · "+m.common.Key(keymap.Back)+" goes back"), m.width, th.Glyphs.Ellipsis)
	}
	g := th.Glyphs.Spinner
	say := "running"
	if m.cfg.Runs > 1 {
		say = fmt.Sprintf("running %d of %d", max(m.started, 1), m.cfg.Runs)
	}
	return text.Cut(" "+th.Muted.Render(g[m.frame%len(g)]+" "+say+" · "+m.common.Key(keymap.Back)+" stops"), m.width, th.Glyphs.Ellipsis)
}

// View draws the status line and the visible lines.
func (m *Model) View() string {
	h := m.rows()
	end := min(m.offset+h, len(m.wrapped))
	out := append([]string{m.status()}, m.wrapped[m.offset:end]...)
	for len(out) < m.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
