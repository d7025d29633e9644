package program

import (
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// counter is a model whose frame shows how many messages it took, and
// takes cost of its clock to draw.
type counter struct {
	n    int
	cost time.Duration
	now  *time.Time
}

func (c *counter) Init() tea.Cmd                       { return nil }
func (c *counter) Update(tea.Msg) (tea.Model, tea.Cmd) { c.n++; return c, nil }
func (c *counter) View() tea.View {
	if c.now != nil {
		*c.now = c.now.Add(c.cost)
	}
	return tea.NewView(strconv.Itoa(c.n))
}

// pacedAt is a pacer over a counter whose frames take cost to draw, the
// renderer's flushes coming frameGap apart from t0 (Init), and the clock
// both read.
func pacedAt(t0 time.Time, cost time.Duration) (*pacer, *time.Time) {
	now := t0
	p := &pacer{inner: &counter{cost: cost, now: &now}, now: func() time.Time { return now }}
	p.Init()
	return p, &now
}

// A burst of messages (keys typed faster than frames) draws frames for
// at most drawBudget of each interval between two flushes, not one per
// message: the rest of the interval's messages are drawn as one frame,
// lead before the flush, by the one redraw asked for.
func TestABurstDrawsFramesForAQuarterOfEachFlush(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	p, now := pacedAt(t0, time.Millisecond)
	// Frames of 1 ms while the budget lasts (the last begun within it),
	// and 10,000 keys in the first half of the interval.
	frames := int((drawBudget + time.Millisecond - 1) / time.Millisecond)
	apart := (frameGap/2 - time.Duration(frames)*time.Millisecond) / 10_000
	p.View() // the first frame
	redraws := 0
	for range 10_000 {
		_, cmd := p.Update("key")
		if cmd != nil {
			redraws++
		}
		p.View()
		*now = now.Add(apart)
	}
	if p.views != frames || redraws != 1 {
		t.Errorf("10,000 messages before a flush: %d frames drawn, %d redraws asked, want %d and 1", p.views, redraws, frames)
	}
	if want := t0.Add(frameGap - lead); !p.dueAt.Equal(want) {
		t.Errorf("the redraw is asked for %v after the beat, want lead before the flush (%v)", p.dueAt.Sub(t0), want.Sub(t0))
	}
	if got, want := p.View().Content, strconv.Itoa(frames-1); got != want {
		t.Errorf("the frame shown before the redraw is %q, want the last drawn (%s)", got, want)
	}
	*now = p.dueAt
	p.Update(redrawMsg{})
	if got := p.View().Content; got != "10000" || p.views != frames+1 {
		t.Errorf("after the redraw the frame is %q (%d drawn), want the last state, 10000", got, p.views)
	}
	// The burst goes on for 100 ms more: in each interval, frames for the
	// budget and one lead before the flush, which shows the last state.
	end := now.Add(100 * time.Millisecond)
	drawing := map[int64]time.Duration{}
	for views := p.views; now.Before(end); {
		at := *now
		if p.due && !at.Before(p.dueAt) {
			p.Update(redrawMsg{})
		} else {
			p.Update("key")
		}
		p.View()
		if p.views > views {
			views = p.views
			k, _ := p.interval(at)
			drawing[k] += now.Sub(at)
		}
		*now = now.Add(10 * time.Microsecond)
	}
	for k, d := range drawing {
		if d > drawBudget+2*time.Millisecond {
			t.Errorf("interval %d of the burst spent %v drawing, want at most the budget (%v), a frame begun within it and the one before the flush",
				k, d, drawBudget)
		}
	}
	// After a quiet moment a message is drawn at once, with no redraw.
	*now = now.Add(time.Second)
	if _, cmd := p.Update("key"); cmd != nil {
		t.Error("a message after a quiet moment asked for a redraw")
	}
	if got, want := p.View().Content, strconv.Itoa(p.inner.(*counter).n); got != want {
		t.Errorf("a message after a quiet moment is not drawn at once: %q, want %q", got, want)
	}
}

// A frame that comes soon after another (the organization's tree, a few
// milliseconds after the first frame) is drawn at once: it makes the flush
// it would make alone, not one a whole frameGap later.
func TestAFrameSoonAfterAnotherMakesTheSameFlush(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	p, now := pacedAt(t0, 500*time.Microsecond)
	*now = t0.Add(2 * time.Millisecond)
	p.Update("size")
	p.View() // the first frame
	for _, at := range []time.Duration{frameGap / 2, frameGap - time.Millisecond} {
		*now = t0.Add(at)
		if _, cmd := p.Update("the tree"); cmd != nil {
			t.Errorf("a message %v after the beat, a frame drawn since, asked for a redraw", at)
		}
		if got, want := p.View().Content, strconv.Itoa(p.inner.(*counter).n); got != want {
			t.Errorf("a message %v after the beat drew %q, want %q at once", at, got, want)
		}
	}
}

// When the terminal comes back from a program it was lent to, Bubble Tea
// starts its renderer's ticker again: the flushes are counted from then.
func TestFlushesAreCountedAnewWhenTheTerminalComesBack(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	p, now := pacedAt(t0, drawBudget+time.Microsecond) // each frame over the budget
	*now = t0.Add(time.Millisecond)
	p.Update("key")
	p.View()
	*now = t0.Add(10*time.Second + 3*time.Millisecond)
	back := *now
	p.Update(lentBack{"the editor ended"})
	p.View()
	if !p.beat.Equal(back) {
		t.Fatalf("after the terminal came back the flushes count from %v, want %v", p.beat.Sub(t0), back.Sub(t0))
	}
	*now = now.Add(time.Millisecond)
	if _, cmd := p.Update("key"); cmd == nil || !p.dueAt.Equal(back.Add(frameGap-lead)) {
		t.Errorf("a message after a frame over the budget: redraw at %v after the return, want %v", p.dueAt.Sub(back), frameGap-lead)
	}
	if got := p.inner.(*counter).n; got != 3 {
		t.Errorf("the model had %d messages, want 3 (the lent terminal's own message passed on)", got)
	}
}

// sized is a model that draws nothing until it knows the terminal's size,
// as canopy's shell does.
type sized struct{ width int }

func (s *sized) Init() tea.Cmd { return nil }
func (s *sized) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(tea.WindowSizeMsg); ok {
		s.width = m.Width
	}
	return s, nil
}
func (s *sized) View() tea.View {
	if s.width == 0 {
		return tea.NewView("")
	}
	return tea.NewView("width " + strconv.Itoa(s.width))
}

// The program's first frame, drawn before the terminal's size is known,
// is empty: the frame after the size comes is drawn at once, not a
// frameGap later (every start would wait for it).
func TestTheFirstFrameWithSomethingIsDrawnAtOnce(t *testing.T) {
	now := time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)
	p := &pacer{inner: &sized{}, now: func() time.Time { return now }}
	if got := p.View().Content; got != "" {
		t.Fatalf("the frame before the size is %q, want nothing", got)
	}
	now = now.Add(time.Millisecond)
	if _, cmd := p.Update(tea.WindowSizeMsg{Width: 120, Height: 36}); cmd != nil {
		t.Error("the size after an empty frame asked for a redraw")
	}
	if got := p.View().Content; got != "width 120" {
		t.Errorf("the frame after the size is %q, want it drawn at once (width 120)", got)
	}
}
