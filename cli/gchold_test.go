package cli

import (
	"math"
	"sync"
	"testing"
	"time"
)

// gcSettings stands in for the runtime's collection settings.
type gcSettings struct {
	mu      sync.Mutex
	percent int
	limit   int64
	set     chan struct{} // a value after each percent set
}

func (g *gcSettings) setPercent(p int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	old := g.percent
	g.percent = p
	select {
	case g.set <- struct{}{}:
	default:
	}
	return old
}

func (g *gcSettings) setLimit(l int64) int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	old := g.limit
	if l >= 0 {
		g.limit = l
	}
	return old
}

func (g *gcSettings) now() (int, int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.percent, g.limit
}

// Collection is off while the demo seeds, the heap bounded, and both come
// back as they were once it is ready; a second hold meanwhile (or GOGC=off)
// changes nothing and restores nothing.
func TestCollectionIsHeldWhileTheDemoSeeds(t *testing.T) {
	g := &gcSettings{percent: 100, limit: math.MaxInt64, set: make(chan struct{}, 1)}
	ready, other := make(chan struct{}), make(chan struct{})
	holdGCWith(ready, g.setPercent, g.setLimit)
	if p, l := g.now(); p != -1 || l != seedingHeapLimit {
		t.Fatalf("while seeding: GOGC %d, limit %d; want off and %d", p, l, seedingHeapLimit)
	}
	holdGCWith(other, g.setPercent, g.setLimit)
	close(other)
	close(ready)
	deadline := time.After(10 * time.Second)
	for p, l := g.now(); p != 100 || l != math.MaxInt64; p, l = g.now() {
		select {
		case <-g.set:
		case <-deadline:
			t.Fatalf("once ready: GOGC %d, limit %d; want 100 and none, as before", p, l)
		}
	}
	// A lower limit of the user's (GOMEMLIMIT) is kept.
	g = &gcSettings{percent: 50, limit: 64 << 20, set: make(chan struct{}, 1)}
	holdGCWith(make(chan struct{}), g.setPercent, g.setLimit)
	if p, l := g.now(); p != -1 || l != 64<<20 {
		t.Errorf("with GOMEMLIMIT=64MiB while seeding: GOGC %d, limit %d; want off and 64 MiB", p, l)
	}
}
