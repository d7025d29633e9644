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
