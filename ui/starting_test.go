package ui

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api/emulator"
	"canopy/theme"
	"canopy/views"
	"canopy/views/viewstest"

	tea "charm.land/bubbletea/v2"
)

// fakePreparing is work whose progress and end the test sets.
type fakePreparing struct {
	mu     sync.Mutex
	text   string
	ready  chan struct{}
	opened atomic.Int32 // times told the start is over
}

func (f *fakePreparing) Ready() <-chan struct{} { return f.ready }
func (f *fakePreparing) Progress() string       { f.mu.Lock(); defer f.mu.Unlock(); return f.text }
func (f *fakePreparing) Opened()                { f.opened.Add(1) }
func (f *fakePreparing) say(s string)           { f.mu.Lock(); defer f.mu.Unlock(); f.text = s }

// TestPreparingShowsProgressThenTheOrganization: while the work canopy
// waits for runs, the frame is drawn and its status line says how far the
// work is, as it moves; once done, the organization opens as usual.
func TestPreparingShowsProgressThenTheOrganization(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	p := &fakePreparing{text: "building the demo: 12 of 7,768 repos, 1,602 tags", ready: make(chan struct{})}
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }, Preparing: p}, 120, 30)
	s := h.waitText("building the data of test", "building the demo: 12 of 7,768 repos, 1,602 tags")
	if st := line(s, "admin (test)"); !strings.Contains(st, "building the demo") {
		t.Errorf("the progress is not on the status line %q:\n%s", st, s)
	}
	p.say("building the demo: indexing 1,035,684 tags")
	h.waitText("building the demo: indexing 1,035,684 tags")
	if strings.Contains(h.screen(), "acme.example") {
		t.Fatalf("the organization opened before the work ended:\n%s", h.screen())
	}
	p.say("built the demo: 1,035,684 tags in 4.2 s")
	if n := p.opened.Load(); n != 0 {
		t.Errorf("the work was told the start is over %d times before it ended", n)
	}
	close(p.ready)
	h.waitText("acme.example", "platform", "details: acme.example")
	// Once the tree has the organization's first page, and only once.
	h.waitFor("the work told the start is over", func(string) bool { return p.opened.Load() > 0 })
	h.keys("j", "k")
	h.waitText("details: acme.example")
	if n := p.opened.Load(); n != 1 {
		t.Errorf("the work was told the start is over %d times, want once", n)
	}
}

// TestPreparingIsToldAFailedStartIsOver: an organization that cannot be
// opened ends the start too (the demo's collection, held until then,
// resumes).
func TestPreparingIsToldAFailedStartIsOver(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	p := &fakePreparing{text: "built the demo", ready: make(chan struct{})}
	close(p.ready)
	h := startWith(t, srv, Options{Client: client, Org: "0123456789abcdef0123456789abcdef01234567", Host: "test",
		Theme: theme.Options{Name: theme.Dark}, Preparing: p}, 100, 20)
	h.waitFor("the work told the start is over", func(string) bool { return p.opened.Load() == 1 })
}

// TestQuitWhilePreparing: q and ctrl+c end canopy while it waits.
func TestQuitWhilePreparing(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"q", "ctrl+c"} {
		srv, client := newEmulator(t, emulator.Options{Seed: 1})
		p := &fakePreparing{text: "building the demo: 1 of 3 repos, 9 tags", ready: make(chan struct{})}
		h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Theme: theme.Options{Name: theme.Dark},
			Preparing: p}, 100, 20)
		h.waitText("building the demo")
		h.keys(key)
		h.waitFor("the quit", func(string) bool { return h.quit })
	}
}

// readyOnFirstLook is work that ends as soon as its progress is first read
// (the demo's seeding, started early, often ends so).
type readyOnFirstLook struct {
	once  sync.Once
	ready chan struct{}
}

func (r *readyOnFirstLook) Ready() <-chan struct{} { return r.ready }
func (r *readyOnFirstLook) Opened()                {}
func (r *readyOnFirstLook) Progress() string {
	select {
	case <-r.ready:
		return "built the demo"
	default:
	}
	r.once.Do(func() { close(r.ready) })
	return "building the demo"
}

// TestPreparingSaysItsLastProgressLast: whatever order the program runs
// commands it may run at once in (a batch's, here the last first), what
// the work did is said after every progress, and the organization is
// asked for after that.
func TestPreparingSaysItsLastProgressLast(t *testing.T) {
	t.Parallel()
	type opened struct{}
	var said []string
	var run func(cmd tea.Cmd)
	run = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			for i := len(msg) - 1; i >= 0; i-- { // at once: any order may come
				run(msg[i])
			}
		case views.FlashMsg:
			said = append(said, msg.Text)
		case opened:
			said = append(said, "(the organization)")
		default:
			seq := viewstest.Sequence(msg)
			if seq == nil {
				t.Fatalf("unexpected message %T", msg)
			}
			for _, c := range seq { // a sequence: in order
				run(c)
			}
		}
	}
	p := &readyOnFirstLook{ready: make(chan struct{})}
	run(afterPreparing(t.Context(), p, func() tea.Msg { return opened{} }))
	want := []string{"building the demo", "built the demo", "(the organization)"}
	if !slices.Equal(said, want) {
		t.Errorf("said %q, want %q", said, want)
	}
}
