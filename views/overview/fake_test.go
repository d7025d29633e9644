package overview

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/census"
	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
)

// now is the tests' clock.
var now = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// patience is how long a test waits for what must come: a loaded machine
// is late, and a late answer is still an answer.
const patience = 2 * time.Minute

func common() views.Common {
	return views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default(), Now: func() time.Time { return now }}
}

// org is a fake organization: folders, repos with tags, people and
// advisories, served page by page like the service, counting the calls
// under way.
type org struct {
	uid      string
	folders  map[string]string
	repos    []census.Repo
	tags     map[string][]api.Tag
	people   census.People
	advs     []api.Advisory
	pageSize int

	inFlight, most, calls atomic.Int32
	// gate, when set, holds every call until the context ends; hold,
	// when made, holds every call until it is closed (or the context
	// ends); entered hears of each call as it starts (when made).
	gate    bool
	hold    chan struct{}
	entered chan struct{}
	// layoutErr, when set, is what listing the folders answers.
	layoutErr error
}

func (o *org) enter(ctx context.Context) (func(), error) {
	o.calls.Add(1)
	n := o.inFlight.Add(1)
	for {
		m := o.most.Load()
		if n <= m || o.most.CompareAndSwap(m, n) {
			break
		}
	}
	done := func() { o.inFlight.Add(-1) }
	if o.entered != nil {
		select {
		case o.entered <- struct{}{}:
		default:
		}
	}
	if o.gate {
		<-ctx.Done()
		done()
		return nil, ctx.Err()
	}
	if o.hold != nil {
		select {
		case <-o.hold:
		case <-ctx.Done():
			done()
			return nil, ctx.Err()
		}
	}
	return done, nil
}

func (o *org) source() Source {
	return Source{
		Layout: func(ctx context.Context) (census.Layout, error) {
			done, err := o.enter(ctx)
			if err != nil {
				return census.Layout{}, err
			}
			defer done()
			if o.layoutErr != nil {
				return census.Layout{}, o.layoutErr
			}
			return census.Layout{Org: o.uid, Folders: o.folders, Repos: o.repos}, nil
		},
		Tags: func(ctx context.Context, scope Scope, token string) ([]api.Tag, string, error) {
			done, err := o.enter(ctx)
			if err != nil {
				return nil, "", err
			}
			defer done()
			all := o.tags[scope.UID]
			if scope.Subtree {
				all = nil
				for _, r := range o.repos {
					if strings.HasPrefix(r.UID, scope.UID+"/") {
						all = append(all, o.tags[r.UID]...)
					}
				}
			}
			start := 0
			fmt.Sscan(token, &start)
			end := min(start+o.pageSize, len(all))
			next := ""
			if end < len(all) {
				next = fmt.Sprint(end)
			}
			return all[start:end], next, nil
		},
		People: func(ctx context.Context) (census.People, error) {
			done, err := o.enter(ctx)
			if err != nil {
				return census.People{}, err
			}
			defer done()
			return o.people, nil
		},
		Advisories: func(ctx context.Context, names []string, kind, token string) (map[string]int, string, bool, error) {
			done, err := o.enter(ctx)
			if err != nil {
				return nil, "", false, err
			}
			defer done()
			counts := map[string]int{}
			for _, a := range o.advs {
				if l := a.LatestApproved(); l != nil && l.Kind == kind && contains(names, a.ArtifactName) {
					counts[a.ArtifactName]++
				}
			}
			return counts, "", false, nil
		},
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// newOrg is an organization of folders a, a/b and c with repos of n tags
// each, every tenth deprecated, and a few advisories.
func newOrg(repos, n int) *org {
	o := &org{uid: "org", folders: map[string]string{"org": "acme", "org/a": "apps", "org/a/b": "web", "org/c": "data"},
		tags: map[string][]api.Tag{}, pageSize: 200}
	places := []string{"org/a", "org/a/b", "org/c", "org"}
	for i := range repos {
		r := census.Repo{UID: fmt.Sprintf("%s/r%d", places[i%len(places)], i), Name: fmt.Sprintf("repo-%02d", i)}
		o.repos = append(o.repos, r)
		for j := range n + i {
			o.tags[r.UID] = append(o.tags[r.UID], api.Tag{UID: fmt.Sprintf("%s/t%d", r.UID, j), Name: fmt.Sprint(j),
				Deprecated: j%10 == 0, UpdateTime: api.TimeOf(now.Add(-time.Duration(j) * 24 * time.Hour))})
		}
	}
	approved := func(kind string) api.AdvisoryEvent {
		return api.AdvisoryEvent{Kind: kind, ReviewState: api.ReviewApproved, CreateTime: api.TimeOf(now)}
	}
	o.advs = []api.Advisory{
		{ArtifactName: "repo-01", Events: []api.AdvisoryEvent{approved(api.EventDetection)}},
		{ArtifactName: "repo-01", Events: []api.AdvisoryEvent{approved(api.EventFixed)}},
		{ArtifactName: "repo-02", Events: []api.AdvisoryEvent{approved(api.EventPendingUpstreamFix)}},
	}
	owner := &api.Ref{UID: "owner-role", Name: "owner"}
	o.people = census.People{
		Identities: []api.Identity{{UID: "org/alice", Name: "alice", LastSeenTime: api.TimeOf(now.Add(-time.Hour))},
			{UID: "org/c/bot", Name: "bot"}, {UID: "org/a/old", Name: "old", LastSeenTime: api.TimeOf(now.Add(-200 * 24 * time.Hour))}},
		Bindings: []api.RoleBinding{{UID: "org/b1", Identity: &api.BindingIdentity{UID: "org/alice"}, Group: &api.Ref{UID: "org", Name: "acme"}, Role: owner},
			{UID: "org/a/b2", Identity: &api.BindingIdentity{UID: "org/a/old"}, Group: &api.Ref{UID: "org/a", Name: "apps"}, Role: &api.Ref{UID: "viewer-role", Name: "viewer"}}},
	}
	return o
}

// driver runs a model as Bubble Tea would: commands in goroutines, their
// messages to Update one at a time. The refresh clock's ticks are held
// back (ticks) for a test to deliver when it means to, so that what a
// test sees never depends on when the clock ticks.
type driver struct {
	t     *testing.T
	m     *Model
	msgs  chan tea.Msg
	wg    sync.WaitGroup
	ticks []tea.Msg
}

func drive(t *testing.T, m *Model) *driver {
	d := &driver{t: t, m: m, msgs: make(chan tea.Msg, 64)}
	m.SetSize(120, 60)
	d.run(m.Init())
	return d
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				d.run(c)
			}
		default:
			d.msgs <- msg
		}
	}()
}

// key presses a key.
func (d *driver) key(k tea.KeyPressMsg) { d.run(d.m.Update(k)) }

// settle takes messages until the model is no longer busy, ticking it as
// the shell does.
func (d *driver) settle() string {
	d.t.Helper()
	deadline := time.After(patience)
	for d.m.Busy() {
		select {
		case msg := <-d.msgs:
			d.take(msg)
		case <-deadline:
			d.t.Fatalf("still busy after %s:\n%s", patience, d.view())
		}
	}
	return d.view()
}

// take gives msg to Update, or holds it back if it is the refresh clock's.
func (d *driver) take(msg tea.Msg) {
	if _, ok := msg.(refreshMsg); ok {
		d.ticks = append(d.ticks, msg)
		return
	}
	d.run(d.m.Update(msg))
	d.m.Update(views.TickMsg{})
}

// tick is the refresh clock's next tick, held back or waited for (other
// messages going to Update meanwhile).
func (d *driver) tick() tea.Msg {
	d.t.Helper()
	deadline := time.After(patience)
	for len(d.ticks) == 0 {
		select {
		case msg := <-d.msgs:
			d.take(msg)
		case <-deadline:
			d.t.Fatalf("the refresh clock did not tick in %s", patience)
		}
	}
	msg := d.ticks[0]
	d.ticks = d.ticks[1:]
	return msg
}

func (d *driver) view() string { return ansi.Strip(d.m.View()) }
