package program

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// fps is how many times a second Bubble Tea's renderer writes the last
// frame asked for to the terminal (tea.WithFPS), and frameGap the time
// between two of those flushes. They come on a ticker Bubble Tea starts
// just before the model's Init, and again when the terminal comes back
// from a program it was lent to. 120, Bubble Tea's most (its default is
// 60): a frame drawn waits at most 8.3 ms to be written, not 16.7, and a
// flush with nothing new costs nothing.
const (
	fps      = 120
	frameGap = time.Second / fps
)

// lead is how long before a flush a held frame is drawn: time enough to
// draw it, so that it is the frame the flush writes.
const lead = frameGap / 5

// drawBudget is how long the frames of one interval between two flushes
// may take to draw before the rest of its messages are held.
const drawBudget = frameGap / 4

// redrawMsg asks for the frame held while messages came too fast.
type redrawMsg struct{}

// lentBack carries the message a lent terminal's return gives (lend.go):
// the renderer's ticker started again then, on a new beat.
type lentBack struct{ msg tea.Msg }

// pacer wraps the root model so that its frames are drawn for the
// renderer's flushes. Bubble Tea asks for the view after every message,
// but only the last one asked before a flush is ever seen: keys that come
// faster than that (a paste typed as keystrokes, 10⁵ of them) would
// otherwise each pay for a whole frame, most of their cost.
//
// A message's frame is drawn at once while the frames drawn since the last
// flush took less than drawBudget (a quarter of the time between two), so
// that a frame is never a flush late: the organization's tree, a few
// milliseconds after the first frame, is on the screen at the flush it
// would make alone. Past the budget (a burst of keys), the interval's
// messages are held and drawn as one frame lead before the flush.
type pacer struct {
	inner tea.Model
	now   func() time.Time // nil: time.Now

	beat    time.Time // a flush of the renderer: flushes come frameGap apart from it
	last    tea.View
	drawn   bool          // a frame with something in it was drawn
	spentIn int64         // the interval spent was drawing in
	spent   time.Duration // drawing the frames of that interval
	due     bool          // a redrawMsg is on its way
	dueAt   time.Time     // when it comes
	forced  bool          // the redraw came: draw whatever the budget says
	views   int           // frames drawn, for tests
}

func (p *pacer) clock() time.Time {
	var now time.Time
	if p.now != nil {
		now = p.now()
	} else {
		now = time.Now()
	}
	if p.beat.IsZero() {
		p.beat = now // a model driven without Init (tests)
	}
	return now
}

// Init starts the inner model. Bubble Tea started the renderer's ticker
// just before: its flushes are frameGap apart from now.
func (p *pacer) Init() tea.Cmd {
	p.beat = time.Time{}
	p.clock()
	return p.inner.Init()
}

// interval is the number of the interval between two flushes that t is in,
// and when the flush that ends it comes.
func (p *pacer) interval(t time.Time) (int64, time.Time) {
	k := int64(t.Sub(p.beat) / frameGap)
	return k, p.beat.Add(time.Duration(k+1) * frameGap)
}

// mayDraw reports whether a frame asked for at now is drawn, rather than
// the last one given again.
func (p *pacer) mayDraw(now time.Time) bool {
	if p.forced || !p.drawn {
		return true
	}
	k, _ := p.interval(now)
	return k != p.spentIn || p.spent < drawBudget
}

func (p *pacer) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case redrawMsg:
		p.due, p.forced = false, true
		return p, nil
	case lentBack:
		p.beat, p.spentIn, p.spent = time.Time{}, -1, 0
		msg = m.msg
	}
	now := p.clock()
	inner, cmd := p.inner.Update(msg)
	p.inner = inner
	if p.due || p.mayDraw(now) {
		return p, cmd
	}
	// View will give the last frame: draw this state lead before the
	// flush, or before the next one when that moment has passed.
	_, flush := p.interval(now)
	at := flush.Add(-lead)
	if !now.Before(at) {
		at = at.Add(frameGap)
	}
	p.due, p.dueAt = true, at
	return p, tea.Batch(cmd, tea.Tick(at.Sub(now), func(time.Time) tea.Msg { return redrawMsg{} }))
}

func (p *pacer) View() tea.View {
	start := p.clock()
	if !p.mayDraw(start) {
		return p.last
	}
	p.forced = false
	p.last = p.inner.View()
	p.views++
	if p.last.Content != "" {
		// A frame with nothing in it (the program's first, before the
		// terminal's size is known) shows nothing and costs nothing.
		p.drawn = true
		if k, _ := p.interval(start); k != p.spentIn {
			p.spentIn, p.spent = k, 0
		}
		p.spent += p.clock().Sub(start)
	}
	return p.last
}
