package program

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// frameGap is the least time between two frames drawn. Bubble Tea asks for
// the view after every message but writes to the terminal at most 60
// times a second: a frame drawn sooner after the last is never seen. Keys
// that come faster than that (a paste typed as keystrokes, 10⁵ of them)
// would otherwise each pay for a whole frame, most of their cost.
const frameGap = time.Second / 60

// redrawMsg asks for the frame skipped while frames came too fast.
type redrawMsg struct{}

// pacer wraps the root model so that a burst of messages draws at most
// one frame per frameGap: a View asked sooner gives the last frame, and a
// redraw is due when the gap has passed, so the last state is always
// drawn. A message after a quiet moment is drawn at once.
type pacer struct {
	inner tea.Model
	now   func() time.Time // nil: time.Now

	last   tea.View
	drawn  time.Time // when last was drawn; zero before the first frame
	due    bool      // a redrawMsg is on its way
	forced bool      // the redraw came: draw whatever the clock says
	views  int       // frames drawn, for tests
}

func (p *pacer) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

func (p *pacer) Init() tea.Cmd { return p.inner.Init() }

func (p *pacer) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(redrawMsg); ok {
		p.due, p.forced = false, true
		return p, nil
	}
	inner, cmd := p.inner.Update(msg)
	p.inner = inner
	if since := p.clock().Sub(p.drawn); !p.drawn.IsZero() && since < frameGap && !p.due {
		// View will give the last frame: draw this state when the gap
		// has passed.
		p.due = true
		cmd = tea.Batch(cmd, tea.Tick(frameGap-since, func(time.Time) tea.Msg { return redrawMsg{} }))
	}
	return p, cmd
}

func (p *pacer) View() tea.View {
	now := p.clock()
	if !p.drawn.IsZero() && !p.forced && now.Sub(p.drawn) < frameGap {
		return p.last
	}
	p.forced = false
	p.last = p.inner.View()
	p.views++
	if p.last.Content != "" {
		// A frame with nothing in it (the program's first, before the
		// terminal's size is known) shows nothing: the first that shows
		// something is drawn at once, not a gap later.
		p.drawn = now
	}
	return p.last
}
