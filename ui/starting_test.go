package ui

import (
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api/emulator"
	"canopy/theme"
)

// fakePreparing is work whose progress and end the test sets.
type fakePreparing struct {
	mu    sync.Mutex
	text  string
	ready chan struct{}
}

func (f *fakePreparing) Ready() <-chan struct{} { return f.ready }
func (f *fakePreparing) Progress() string       { f.mu.Lock(); defer f.mu.Unlock(); return f.text }
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
	close(p.ready)
	h.waitText("acme.example", "platform", "details: acme.example")
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
