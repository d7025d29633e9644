package program

import (
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// counter is a model whose frame shows how many messages it took.
type counter struct{ n int }

func (c *counter) Init() tea.Cmd                       { return nil }
func (c *counter) Update(tea.Msg) (tea.Model, tea.Cmd) { c.n++; return c, nil }
func (c *counter) View() tea.View                      { return tea.NewView(strconv.Itoa(c.n)) }

// A burst of messages (keys typed faster than frames) draws one frame per
// frameGap, not one per message; the last state is drawn when the gap has
// passed, by the one redraw asked for.
func TestABurstDrawsOneFramePerGap(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	p := &pacer{inner: &counter{}, now: func() time.Time { return now }}
	p.View() // the first frame
	redraws := 0
	for range 10_000 {
		_, cmd := p.Update("key")
		if cmd != nil {
			redraws++
			if _, ok := cmd().(redrawMsg); !ok {
				t.Fatal("the command of a skipped frame is not a redraw")
			}
		}
		p.View()
		now = now.Add(time.Microsecond) // 10⁴ keys in 10 ms
	}
	if p.views != 1 || redraws != 1 {
		t.Errorf("10,000 messages within a gap: %d frames drawn, %d redraws asked, want 1 and 1", p.views, redraws)
	}
	if got := p.View().Content; got != "0" {
		t.Errorf("the frame shown before the redraw is %q, want the first (0)", got)
	}
	now = now.Add(frameGap)
	p.Update(redrawMsg{})
	if got := p.View().Content; got != "10000" || p.views != 2 {
		t.Errorf("after the redraw the frame is %q (%d drawn), want the last state, 10000", got, p.views)
	}
	// After a quiet moment a message is drawn at once, with no redraw.
	now = now.Add(time.Second)
	if _, cmd := p.Update("key"); cmd != nil {
		t.Error("a message after a quiet moment asked for a redraw")
	}
	if got := p.View().Content; got != "10001" {
		t.Errorf("a message after a quiet moment is not drawn at once: %q", got)
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
	// From then on frames are paced as ever.
	now = now.Add(time.Millisecond)
	if _, cmd := p.Update(tea.WindowSizeMsg{Width: 100, Height: 36}); cmd == nil {
		t.Error("a message within a gap of a frame drawn asked for no redraw")
	}
	if got := p.View().Content; got != "width 120" {
		t.Errorf("the frame within the gap is %q, want the last drawn (width 120)", got)
	}
}
