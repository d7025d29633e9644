package overview

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/census"
	"canopy/keymap"
	"canopy/views/viewstest"
)

func newModel(ctx context.Context, o *org, caches Caches, open func(Target)) *Model {
	cfg := Config{Title: "overview", Source: o.source(), Caches: caches, Stale: 90 * 24 * time.Hour}
	if open != nil {
		cfg.Open = func(t Target) tea.Cmd { open(t); return nil }
	}
	return New(ctx, common(), cfg)
}

// The first frame comes before any answer: each part is there, waiting.
func TestFirstPaintShowsEveryPartWaiting(t *testing.T) {
	o := newOrg(4, 10)
	o.gate = true
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	m := newModel(ctx, o, Caches{}, nil)
	m.SetSize(100, 30)
	s := ansi.Strip(m.View())
	for _, want := range []string{"Deprecated tags  listing folders and repos", "Identities", "Role bindings", "Advisories", "…"} {
		if !strings.Contains(s, want) {
			t.Errorf("first frame lacks %q:\n%s", want, s)
		}
	}
}

// Every count comes in with never more than three requests at once, and
// the screen says what they add up to.
func TestCountsWithAtMostThreeRequestsInFlight(t *testing.T) {
	o := newOrg(12, 450)
	// The first two listings are held until both are under way: requests
	// overlap however the machine schedules them.
	o.hold, o.entered = make(chan struct{}), make(chan struct{}, 64)
	d := drive(t, newModel(t.Context(), o, Caches{}, nil))
	deadline := time.After(patience)
	for range 2 {
		select {
		case <-o.entered:
		case <-deadline:
			t.Fatalf("two listings did not start in %s", patience)
		}
	}
	close(o.hold)
	s := d.settle()
	if most := o.most.Load(); most > maxInFlight || most < 2 {
		t.Errorf("%d requests at most in flight, want 2 to %d", most, maxInFlight)
	}
	for _, want := range [][]string{
		{"Deprecated tags", "552 of 5,466 tags · 12 of 12 repos counted, the oldest 0s ago"},
		{"apps ", "275 of 2,727", "10.1%"}, {"apps/web ", "138 of 1,365"}, {"data ", "138 of 1,368"},
		{"repo-11 ", "47 of 461", "10.2%", "0s"}, // the worst repo first
		{"never seen", "1"}, {"not seen for 90 days", "1"}, {"no role binding", "1"}, {"owner at the organization", "1"},
		{"Role bindings", "2 role bindings"}, {"owner ", "1"}, {"viewer ", "1"}, {"acme (organization)", "1"},
		{"detected", "upstream", "fixed", "not affected", "not planned"},
	} {
		if !hasLine(s, want...) {
			t.Errorf("no line with %q:\n%s", want, s)
		}
	}
	// Each repo's advisories in the status columns (· for none).
	for _, want := range [][]string{{"repo-01", "1", "·", "1", "·", "·"}, {"repo-02", "·", "1", "·", "·", "·"}, {"all", "2", "repos", "with", "any", "1", "1", "1", "0", "0"}} {
		if !hasFields(s, want...) {
			t.Errorf("no line of %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "repo-11 ") > strings.Index(s, "repo-01 ") {
		t.Errorf("the worst repo is not first:\n%s", s)
	}
	// Nine repos' bars show, the rest wait behind a line that shows them.
	if !strings.Contains(s, "+ 4 more") {
		t.Errorf("no line for the repos beyond the first eight:\n%s", s)
	}
}

// Closing the screen (its context) cancels what runs, and nothing more
// is asked.
func TestClosingCancelsTheScans(t *testing.T) {
	o := newOrg(6, 10)
	o.gate, o.entered = true, make(chan struct{}, 8)
	ctx, cancel := context.WithCancel(t.Context())
	d := drive(t, newModel(ctx, o, Caches{}, nil))
	deadline := time.After(patience)
	for range 2 { // the listings, under way
		select {
		case <-o.entered:
		case <-deadline:
			t.Fatalf("the listings did not start in %s", patience)
		}
	}
	cancel()
	d.wg.Wait() // every call returned with the context
	calls := o.calls.Load()
	for len(d.msgs) > 0 {
		d.run(d.m.Update(<-d.msgs))
	}
	d.wg.Wait()
	if o.calls.Load() != calls || o.inFlight.Load() != 0 {
		t.Errorf("%d calls after closing (%d in flight), want none", o.calls.Load()-calls, o.inFlight.Load())
	}
}

// Counts are kept between visits with their age; r takes them all again.
func TestCountsAreKeptAndRefreshed(t *testing.T) {
	o := newOrg(5, 30)
	caches := Caches{Tags: census.NewCache(), Advisories: census.NewAdvisoryCache()}
	drive(t, newModel(t.Context(), o, caches, nil)).settle()
	first := o.calls.Load()

	later := now.Add(10 * time.Minute)
	c := common()
	c.Now = func() time.Time { return later }
	m := New(t.Context(), c, Config{Title: "overview", Source: o.source(), Caches: caches, Stale: time.Hour})
	d := drive(t, m)
	s := d.settle()
	if got := o.calls.Load() - first; got != 2 {
		t.Errorf("the second visit made %d calls, want 2 (the listings; the counts are kept)", got)
	}
	if !strings.Contains(s, "repos counted, the oldest 10m ago") || !strings.Contains(s, "10m") {
		t.Errorf("the counts' age is not shown:\n%s", s)
	}
	before := o.calls.Load()
	d.key(viewstest.Key("r"))
	s = d.settle()
	if got := o.calls.Load() - before; got < 2+5 {
		t.Errorf("r made %d calls, want every repo scanned again", got)
	}
	if !strings.Contains(s, "the oldest 0s ago") {
		t.Errorf("after r the counts are not new:\n%s", s)
	}
}

// enter opens what a line stands for; on "N more" it shows them.
func TestEnterOpensALinesTable(t *testing.T) {
	o := newOrg(12, 20)
	var opened []Target
	d := drive(t, newModel(t.Context(), o, Caches{}, func(t Target) { opened = append(opened, t) }))
	d.settle()
	m := d.m
	// The first line that takes the cursor is the worst folder.
	d.key(viewstest.Key("enter"))
	if len(opened) != 1 || opened[0].What != OpenDeprecated || opened[0].Repo || opened[0].Key == "" {
		t.Fatalf("enter on the first folder opened %+v", opened)
	}
	// Down to the repos' "more" line: it shows them all.
	for l := m.current(); l != nil && l.kind != lineMore; l = m.current() {
		m.move(1)
	}
	if l := m.current(); l == nil || l.more != listFolders && l.more != listRepos {
		t.Fatalf("no more line under the bars: %+v", l)
	}
	d.key(viewstest.Key("enter"))
	if s := d.view(); strings.Contains(s, "+ 4 more") || !strings.Contains(s, "repo-00 ") {
		t.Errorf("enter on more did not show every repo:\n%s", s)
	}
	// Under the whole list, a line folds it again, the cursor back on more.
	for l := m.current(); l != nil && l.kind != lineFewer; l = m.current() {
		m.move(1)
	}
	if s := d.view(); !strings.Contains(s, "- the first 8 only") {
		t.Fatalf("no line folds the list:\n%s", s)
	}
	d.key(viewstest.Key("enter"))
	if l := m.current(); l == nil || l.kind != lineMore || !strings.Contains(d.view(), "+ 4 more") {
		t.Fatalf("enter on the fold line left %+v:\n%s", l, d.view())
	}
	d.key(viewstest.Key("enter"))
	// The identities' questions open their tables, the owners the bindings.
	for l := m.current(); l != nil && !(l.target != nil && l.target.What == OpenBindings && l.target.Group != ""); l = m.current() {
		before := m.cursor
		m.move(1)
		if m.cursor == before {
			t.Fatalf("no owners' line:\n%s", d.view())
		}
	}
	d.key(viewstest.Key("enter"))
	last := opened[len(opened)-1]
	if last.What != OpenBindings || last.Role != "owner-role" || last.Group != "org" {
		t.Errorf("the owners' line opened %+v", last)
	}
}

// hasLine reports whether a line of s holds every part, in order.
func hasLine(s string, parts ...string) bool {
	for _, l := range strings.Split(s, "\n") {
		rest, ok := l, true
		for _, p := range parts {
			i := strings.Index(rest, p)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(p):]
		}
		if ok {
			return true
		}
	}
	return false
}

// With a refresh interval, every count is taken again that often, and
// the clock stops with the screen. The clock ticks at once (1 ns); the
// driver holds its ticks for the test to deliver, so no tick comes
// while the test looks.
func TestRefreshIntervalTakesCountsAgain(t *testing.T) {
	o := newOrg(3, 10)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	m := New(ctx, common(), Config{Title: "overview", Source: o.source(), Stale: time.Hour, Refresh: time.Nanosecond})
	d := drive(t, m)
	d.settle()
	before := o.calls.Load()
	d.run(m.Update(d.tick()))
	d.settle()
	if got := o.calls.Load() - before; got < 2+3 { // the listings and a page of each repo
		t.Errorf("a tick of the refresh clock made %d calls, want every count taken again", got)
	}
	// The clock was set again; it stops with the screen.
	tick := d.tick()
	cancel()
	d.wg.Wait() // every timer and call returned with the context
	calls := o.calls.Load()
	if cmd := m.Update(tick); cmd != nil {
		t.Error("a tick after the screen closed started something")
	}
	if o.calls.Load() != calls {
		t.Errorf("a refresh ran after the screen closed")
	}
}

// hasFields reports whether a line of s is exactly these fields.
func hasFields(s string, fields ...string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.Join(strings.Fields(l), " ") == strings.Join(fields, " ") {
			return true
		}
	}
	return false
}

// Repos of one image name in several folders each show its advisories;
// the totals count them once and say so.
func TestAdvisoryTotalsCountAnImageOnce(t *testing.T) {
	o := newOrg(4, 3)
	o.repos = append(o.repos, census.Repo{UID: "org/c/again", Name: "repo-01"})
	d := drive(t, newModel(t.Context(), o, Caches{}, nil))
	s := d.settle()
	for _, folder := range []string{"(apps/web)", "(data)"} {
		if !hasFields(s, "repo-01", folder, "1", "·", "1", "·", "·") {
			t.Errorf("no advisory line of repo-01 %s:\n%s", folder, s)
		}
	}
	if !hasFields(s, "3", "repos,", "2", "images", "1", "1", "1", "0", "0") {
		t.Errorf("the totals do not count repo-01's advisories once:\n%s", s)
	}
}

// Bars take the room the labels and numbers leave, up to 40 cells or
// half of a wide screen.
func TestBarsGrowOnAWideScreen(t *testing.T) {
	d := drive(t, newModel(t.Context(), newOrg(4, 30), Caches{}, nil))
	d.settle()
	for width, want := range map[int]int{100: 28, 120: 41, 200: 100} {
		d.m.SetSize(width, 60)
		var l string
		for _, x := range strings.Split(d.view(), "\n") {
			if strings.HasPrefix(strings.TrimSpace(x), "apps ") {
				l = x
				break
			}
		}
		if got := strings.Count(l, "█") + strings.Count(l, "░"); got != want {
			t.Errorf("%d wide: a bar of %d cells, want %d: %q", width, got, want, l)
		}
	}
}

// When the folders cannot be listed, the people parts say so and count
// nothing (no "0 identities" over the failure).
func TestAFailedLayoutCountsNoPeople(t *testing.T) {
	o := newOrg(4, 3)
	o.layoutErr = errors.New("list groups: 503 unavailable")
	d := drive(t, newModel(t.Context(), o, Caches{}, nil))
	s := d.settle()
	if !strings.Contains(s, "needs the organization's folders, which could not be listed") {
		t.Fatalf("no failure said:\n%s", s)
	}
	if hasLine(s, "Identities", "identities") || hasLine(s, "Role bindings", "role bindings") {
		t.Errorf("a count over the failure:\n%s", s)
	}
}

// Every key the overview offers does something: before any count, once
// counted, on a repo's line (a for its advisories); half a page moves as
// far as a page does, and g and G go to the first and last lines that
// take the cursor.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	o := newOrg(12, 20)
	o.gate = true
	var opened []Target
	m := newModel(t.Context(), o, Caches{}, func(t Target) { opened = append(opened, t) })
	m.SetSize(120, 30)
	check := func(when string) {
		t.Helper()
		if u := keymap.Unbound(m.Actions()); len(u) > 0 {
			t.Errorf("%s: enabled without a Run: %v", when, u)
		}
	}
	check("before any count")
	o.gate = false
	d := drive(t, m)
	d.settle()
	check("counted")
	first := m.cursor
	d.key(viewstest.Key("G"))
	last := m.cursor
	if last <= first || !m.lines[last].selectable() {
		t.Fatalf("G went from %d to %d", first, last)
	}
	for i := last + 1; i < len(m.lines); i++ {
		if m.lines[i].selectable() {
			t.Errorf("G stopped on %d, above the selectable line %d", last, i)
		}
	}
	check("at the end")
	d.key(viewstest.Key("g"))
	if m.cursor != first {
		t.Errorf("g went to %d, want %d", m.cursor, first)
	}
	d.key(viewstest.Key("pgdown"))
	page := m.cursor
	d.key(viewstest.Key("g"))
	d.key(viewstest.Key("ctrl+d"))
	if m.cursor != page || page == first {
		t.Errorf("ctrl+d went to %d, pgdown to %d (from %d)", m.cursor, page, first)
	}
	d.key(viewstest.Key("ctrl+u"))
	if m.cursor != first {
		t.Errorf("ctrl+u went back to %d, want %d", m.cursor, first)
	}
	for m.cursorRepo() == "" {
		before := m.cursor
		d.key(viewstest.Key("down"))
		if m.cursor == before {
			t.Fatalf("no repo's line:\n%s", d.view())
		}
	}
	check("on a repo")
	repo := m.cursorRepo()
	d.key(viewstest.Key("a"))
	if len(opened) != 1 || opened[0].What != OpenAdvisories || opened[0].Name != repo {
		t.Errorf("a on %s opened %+v", repo, opened)
	}
	d.key(viewstest.Key("esc"))
	if !m.Closed() {
		t.Error("esc did not close")
	}
}
