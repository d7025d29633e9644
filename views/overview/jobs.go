package overview

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/census"
)

// Bounds a hostile or huge server cannot push past: a scan of a scope
// reads at most maxScanPages pages and an advisory listing
// maxAdvisoryPages (the counts then say "at least"); one advisory request
// names artifacts of at most maxNamesBytes bytes.
const (
	maxScanPages     = 10_000
	maxAdvisoryPages = 50
	maxNamesBytes    = 2048
)

// Kinds of job.
const (
	jobLayout = iota
	jobPeople
	jobTags
	jobAdvisories
)

// job is one request to make (or, for the layout and people, one walk of
// listings, made one request at a time).
type job struct {
	kind int
	// scope is what a jobTags lists; repos are the repos it covers, each
	// counted when the listing ends.
	scope Scope
	repos []string
	token string
	pages int // pages read before this one
	batch *batch
	event string // jobAdvisories: the event kind listed
}

// batch is a set of artifact names whose advisories are counted together:
// one listing per event kind, each counted per name.
type batch struct {
	names   []string
	counts  map[string]*census.AdvisoryCount
	pending int // listings not at their end
	partial bool
	own     bool // a listing's counts were canopy's own
}

// run is one taking of every count: started on open, r, or the refresh
// clock. Only Update touches it; results of a run that was replaced are
// dropped.
type run struct {
	ctx      context.Context
	cancel   context.CancelFunc
	all      bool // count every repo again, not only those never counted
	inflight int
	fixed    []job // the layout and people
	scans    []job // repo pages; a repo's next page goes first
	advs     []job
	turn     int

	partial         map[string]*census.TagCount
	scanned, toScan int
	failed          int
	firstErr        error
	batchesDone     int
	batches         int
	advFailed       int
	advErr          error
}

func (r *run) done() bool {
	return r.inflight == 0 && len(r.fixed)+len(r.scans)+len(r.advs) == 0
}

// doneMsg is a job's result.
type doneMsg struct {
	owner  *Model
	run    *run
	job    job
	layout census.Layout
	people census.People
	pages  map[string]*census.TagCount // by repo uid
	counts map[string]int
	next   string
	own    bool // the counts are canopy's own (see Source.Advisories)
	err    error
}

// start begins a run; all counts every repo again (r), else only those
// the cache does not hold. A run under way is cancelled.
func (m *Model) start(all bool) tea.Cmd {
	if m.run != nil {
		m.run.cancel()
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.run = &run{ctx: ctx, cancel: cancel, all: all, partial: map[string]*census.TagCount{},
		fixed: []job{{kind: jobLayout}, {kind: jobPeople}}}
	m.layoutErr, m.peopleErr = nil, nil
	m.dirty = true
	return m.pump()
}

// pump starts jobs while fewer than maxInFlight are under way: the
// listings first, then repo scans and advisory listings in turn.
func (m *Model) pump() tea.Cmd {
	r := m.run
	var cmds []tea.Cmd
	for r.inflight < maxInFlight && r.ctx.Err() == nil {
		j, ok := r.next()
		if !ok {
			break
		}
		r.inflight++
		cmds = append(cmds, m.do(r, j))
	}
	return tea.Batch(cmds...)
}

// next takes the next job to start.
func (r *run) next() (job, bool) {
	pop := func(q *[]job) job {
		j := (*q)[0]
		*q = (*q)[1:]
		return j
	}
	if len(r.fixed) > 0 {
		return pop(&r.fixed), true
	}
	r.turn++
	first, second := &r.scans, &r.advs
	if r.turn%2 == 0 {
		first, second = second, first
	}
	if len(*first) > 0 {
		return pop(first), true
	}
	if len(*second) > 0 {
		return pop(second), true
	}
	return job{}, false
}

// do is a job's command.
func (m *Model) do(r *run, j job) tea.Cmd {
	src, owner := m.cfg.Source, m
	now := m.common.Clock
	return func() tea.Msg {
		msg := doneMsg{owner: owner, run: r, job: j}
		switch j.kind {
		case jobLayout:
			msg.layout, msg.err = src.Layout(r.ctx)
		case jobPeople:
			msg.people, msg.err = src.People(r.ctx)
		case jobTags:
			var tags []api.Tag
			tags, msg.next, msg.err = src.Tags(r.ctx, j.scope, j.token)
			// The page is counted here, off the UI loop, per repo; only
			// the counts go back.
			msg.pages = countByRepo(tags, now())
		case jobAdvisories:
			msg.counts, msg.next, msg.own, msg.err = src.Advisories(r.ctx, j.batch.names, j.event, j.token)
		}
		return msg
	}
}

// done takes a job's result (in Update) and starts what may start now.
func (m *Model) done(msg doneMsg) tea.Cmd {
	r := m.run
	r.inflight--
	if r.ctx.Err() != nil {
		return nil
	}
	switch msg.job.kind {
	case jobLayout:
		m.stale |= allParts // every count is of the repos listed
		m.laidOut(r, msg)
	case jobPeople:
		m.stale |= peoplePart
		if msg.err != nil {
			m.peopleErr = msg.err
		} else {
			p := msg.people
			m.people = &p
		}
	case jobTags:
		m.stale |= tagsPart
		m.scannedPage(r, msg)
	case jobAdvisories:
		m.stale |= advisoriesPart
		m.countedAdvisories(r, msg)
	}
	m.dirty = true
	if r.done() || msg.job.kind != jobTags {
		m.refreshShown()
	}
	return m.pump()
}

// laidOut queues the scans of the repos and the advisory listings of
// their names.
func (m *Model) laidOut(r *run, msg doneMsg) {
	if msg.err != nil {
		m.layoutErr = msg.err
		return
	}
	l := msg.layout
	m.layout, m.dups = &l, duplicates(l.Repos)
	advs := m.cfg.Caches.Advisories
	r.scans = scans(&l, m.cfg.Caches.Tags, r.all)
	for _, j := range r.scans {
		r.toScan += len(j.repos)
	}
	var names []string
	seen := map[string]bool{}
	for _, repo := range l.Repos {
		if seen[repo.Name] {
			continue
		}
		seen[repo.Name] = true
		if _, _, ok := advs.Get(repo.Name); ok && !r.all {
			continue
		}
		names = append(names, repo.Name)
	}
	for _, b := range batches(names) {
		for s := range census.Statuses {
			for _, kind := range s.Kinds() {
				r.advs = append(r.advs, job{kind: jobAdvisories, batch: b, event: kind})
				b.pending++
			}
		}
		r.batches++
	}
}

// batches groups names so that no request names more than maxNamesBytes
// bytes of them.
func batches(names []string) []*batch {
	var out []*batch
	var cur *batch
	size := 0
	for _, n := range names {
		if cur == nil || size+len(n) > maxNamesBytes {
			cur = &batch{counts: map[string]*census.AdvisoryCount{}}
			out = append(out, cur)
			size = 0
		}
		cur.names = append(cur.names, n)
		cur.counts[n] = &census.AdvisoryCount{}
		size += len(n)
	}
	return out
}

// scannedPage adds a page of a scope's tags; the last one puts the count
// of each of its repos in the cache.
func (m *Model) scannedPage(r *run, msg doneMsg) {
	j := msg.job
	if msg.err != nil {
		for _, uid := range j.repos {
			delete(r.partial, uid)
		}
		r.failed += len(j.repos)
		if r.firstErr == nil {
			r.firstErr = msg.err
		}
		return
	}
	for uid, page := range msg.pages {
		c := r.partial[uid]
		if c == nil {
			c = &census.TagCount{}
			r.partial[uid] = c
		}
		c.Tags += page.Tags
		c.Deprecated += page.Deprecated
		c.Updated = c.Updated.Plus(page.Updated)
		c.Deprecations = c.Deprecations.Plus(page.Deprecations)
	}
	j.pages++
	if msg.next != "" && j.pages < maxScanPages {
		j.token = msg.next
		r.scans = append([]job{j}, r.scans...)
		return
	}
	at, cut := m.common.Clock(), msg.next != ""
	for _, uid := range j.repos {
		var c census.TagCount
		if p := r.partial[uid]; p != nil {
			c = *p
		}
		m.cfg.Caches.Tags.Put(uid, census.Scan{TagCount: c, At: at, Partial: cut})
		delete(r.partial, uid)
	}
	if j.scope.Subtree {
		// Tags of repos the layout did not list (made since) are not kept.
		for uid := range r.partial {
			if strings.HasPrefix(uid, j.scope.UID+"/") {
				delete(r.partial, uid)
			}
		}
	}
	r.scanned += len(j.repos)
}

// countedAdvisories adds a page of advisory counts; a batch whose every
// listing ended puts its names' counts in the cache.
func (m *Model) countedAdvisories(r *run, msg doneMsg) {
	j := msg.job
	b := j.batch
	if msg.err != nil {
		r.advFailed++
		if r.advErr == nil {
			r.advErr = msg.err
		}
		b.pending = -1 // never complete: its counts are not kept
		return
	}
	if b.pending < 0 {
		return
	}
	b.own = b.own || msg.own
	s := statusOf(j.event)
	for name, n := range msg.counts {
		if c := b.counts[name]; c != nil && s < census.Statuses {
			c.N[s] += n
		}
	}
	j.pages++
	if msg.next != "" && j.pages < maxAdvisoryPages {
		j.token = msg.next
		r.advs = append([]job{j}, r.advs...)
		return
	}
	if msg.next != "" {
		b.partial = true
	}
	if b.pending--; b.pending > 0 {
		return
	}
	at := m.common.Clock()
	for name, c := range b.counts {
		c.Partial, c.Own = b.partial, b.own
		m.cfg.Caches.Advisories.Put(name, *c, at)
	}
	r.batchesDone++
}

// statusOf is the status an event kind's being latest means.
func statusOf(kind string) census.Status {
	for s := range census.Statuses {
		for _, k := range s.Kinds() {
			if k == kind {
				return s
			}
		}
	}
	return census.Statuses
}
