// Package overview is the organization at a glance: where the deprecated
// tags are (by folder and repo, with their history by week), which
// identities need a look, how role bindings spread over roles and folders,
// and each repo's advisories by their latest status. Every line opens the
// table behind it. Counts come in as the scans run (never more than
// maxInFlight requests at once), are kept per repo between visits with
// their age, and are taken again on refresh; closing the screen cancels
// what still runs.
package overview

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/census"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
)

// maxInFlight bounds the requests the overview has under way.
const maxInFlight = 3

// Source is how the overview gets what it counts; the shell builds it from
// the client. Each function runs in a command, off the UI loop.
type Source struct {
	// Layout lists the organization's folders and repos.
	Layout func(ctx context.Context) (census.Layout, error)
	// Tags is one page of the tags of a scope ("" token: the first): a
	// repo's, or (Subtree) those of every repo below a folder.
	Tags func(ctx context.Context, scope Scope, token string) (tags []api.Tag, next string, err error)
	// People lists the organization's identities and role bindings.
	People func(ctx context.Context) (census.People, error)
	// Advisories is one page of the advisories of these artifact names
	// whose latest approved event is of kind, counted per artifact name;
	// own: the server ignored the kind asked, so canopy kept those of
	// that kind itself.
	Advisories func(ctx context.Context, names []string, kind, token string) (counts map[string]int, next string, own bool, err error)
}

// Scope is what one listing of tags covers: a repo, or every repo below
// a folder (Subtree).
type Scope struct {
	UID     string
	Subtree bool
}

// Kinds of what a line opens.
const (
	OpenDeprecated = iota // the deprecated tags under Key (a folder or repo)
	OpenIdentities        // the identities answering Line's question
	OpenBindings          // the role bindings of Role on Group (either may be "": any)
	OpenAdvisories        // the advisories of the artifact Name
)

// Target is what a line opens, for the shell to build.
type Target struct {
	What int
	// Key is the folder or repo (Repo) of OpenDeprecated; Name is how the
	// line names it (a folder's path, a repo's or artifact's name, a role).
	Key, Name string
	Repo      bool
	// Line is OpenIdentities' question (census.NeverSeen…), Asks how the
	// overview asked it.
	Line int
	Asks census.Asks
	// Role and Group filter OpenBindings (uids).
	Role, Group string
}

// Caches are what outlives one visit of the overview: the shell's.
type Caches struct {
	Tags       *census.Cache
	Advisories *census.AdvisoryCache
}

// Config is an overview.
type Config struct {
	Title  safe.Text
	Source Source
	Caches Caches
	// Stale is how long an identity may go unseen before it is counted
	// as not seen.
	Stale time.Duration
	// Refresh takes every count again this often (0: on r only).
	Refresh time.Duration
	// Open opens what a line stands for.
	Open func(Target) tea.Cmd
}

// Model is the overview screen.
type Model struct {
	common        views.Common
	cfg           Config
	ctx           context.Context
	width, height int
	frame         int

	run    *run // the counting under way (or done)
	layout *census.Layout
	dups   map[string]bool // repo names more than one repo has
	people *census.People
	// Failures of the listings each part needs.
	layoutErr, peopleErr error

	// What is shown, made from the counts (again when dirty, on a tick).
	dirty  bool
	shown  shown
	lines  []line
	cursor int // index into lines of a selectable line
	offset int
	// expanded lists show all their lines, not only the first few.
	expanded map[int]bool
	// moved: the user moved the cursor (it then stays on its line).
	moved bool
	// closed: esc asked the shell to take the screen away.
	closed bool
	// stale are the parts whose counts changed since they were added up
	// (derived: they were, once).
	stale   int
	derived bool
}

// New makes the overview; ctx ends with the screen and cancels its scans.
func New(ctx context.Context, common views.Common, cfg Config) *Model {
	if cfg.Caches.Tags == nil {
		cfg.Caches.Tags = census.NewCache()
	}
	if cfg.Caches.Advisories == nil {
		cfg.Caches.Advisories = census.NewAdvisoryCache()
	}
	m := &Model{common: common, cfg: cfg, ctx: ctx, expanded: map[int]bool{}}
	m.rebuild()
	return m
}

// Init starts the counting, the refresh clock when there is one, and the
// clock that keeps the counts' ages current.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.start(false), m.refreshLater(), m.ageLater())
}

// ageEvery is how often the ages shown are drawn again when nothing else
// changes.
const ageEvery = 10 * time.Second

// ageMsg draws the screen again, its ages with it.
type ageMsg struct{ owner *Model }

func (m *Model) ageLater() tea.Cmd { return m.after(ageEvery, ageMsg{owner: m}) }

// after is msg once d has passed, or nothing once the screen has closed
// (a timer does not outlive it).
func (m *Model) after(d time.Duration, msg tea.Msg) tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return msg
		case <-ctx.Done():
			return nil
		}
	}
}

// SetSize gives the screen its room.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.scrollTo()
}

// Title names the screen.
func (m *Model) Title() safe.Text { return m.cfg.Title }

// Busy is true while counts are being taken.
func (m *Model) Busy() bool { return m.run != nil && !m.run.done() }

// Closed reports whether esc closed the screen.
func (m *Model) Closed() bool { return m.closed }

// FitsWidth: every line is cut to the width.
func (m *Model) FitsWidth() {}

// Actions are the overview's keys.
func (m *Model) Actions() []keymap.State {
	open := keymap.On(keymap.Open).Does(m.open)
	if l := m.current(); l == nil || l.target == nil && l.more < 0 {
		open = keymap.Off(keymap.Open, "nothing here to open")
	}
	states := []keymap.State{open, keymap.On(keymap.Back).Does(func() tea.Cmd {
		m.closed = true
		return nil
	}), keymap.On(keymap.Refresh).Does(func() tea.Cmd { return m.start(true) })}
	if name := m.cursorRepo(); name != "" {
		states = append(states, keymap.On(keymap.Advisories).Does(func() tea.Cmd {
			if m.cfg.Open == nil {
				return nil
			}
			return m.cfg.Open(Target{What: OpenAdvisories, Name: name})
		}))
	}
	return append(states, m.moves()...)
}

// moves move the cursor over the selectable lines; half a page is a page
// less two lines, as a whole one is.
func (m *Model) moves() []keymap.State {
	page, at := max(m.height-2, 1), m.cursor
	to := func(where int) tea.Cmd {
		m.move(where - at)
		return nil
	}
	states := views.Moves(at, len(m.lines), page, to)
	for i, s := range states {
		switch s.Action {
		case keymap.HalfUp:
			states[i].Run = func() tea.Cmd { return to(at - page) }
		case keymap.HalfDown:
			states[i].Run = func() tea.Cmd { return to(at + page) }
		}
	}
	return states
}

// refreshMsg is the refresh clock's tick, for the run it was set in.
type refreshMsg struct {
	owner *Model
}

func (m *Model) refreshLater() tea.Cmd {
	if m.cfg.Refresh <= 0 {
		return nil
	}
	return m.after(m.cfg.Refresh, refreshMsg{owner: m})
}

// Update takes keys, results and ticks.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.key(msg)
	case views.TickMsg:
		m.frame = msg.Frame
		m.refreshShown()
	case views.ChangedMsg:
		// A change made in canopy may have changed the shell's counts
		// (tags made or deleted): what is shown is made again from them.
		m.stale |= allParts
		m.dirty = true
		m.refreshShown()
	case views.CreatedMsg:
		m.created(msg.Items)
		m.dirty = true
		m.refreshShown()
	case views.UpdatedMsg:
		m.updated(msg.Item)
		m.dirty = true
		m.refreshShown()
	case views.DeletedMsg:
		again := m.deleted(msg.UIDs)
		m.stale |= allParts
		m.dirty = true
		m.refreshShown()
		if again {
			return m.listPeopleAgain()
		}
	case doneMsg:
		if msg.owner != m || m.run == nil || msg.run != m.run {
			return nil
		}
		return m.done(msg)
	case ageMsg:
		if msg.owner != m || m.ctx.Err() != nil {
			return nil
		}
		return m.ageLater()
	case refreshMsg:
		if msg.owner != m || m.ctx.Err() != nil {
			return nil
		}
		// A refresh still under way is not started again.
		var cmd tea.Cmd
		if !m.Busy() {
			cmd = m.start(true)
		}
		return tea.Batch(cmd, m.refreshLater())
	}
	return nil
}

// refreshShown remakes what is shown when counts changed since.
func (m *Model) refreshShown() {
	if m.dirty {
		m.dirty = false
		m.rebuild()
	}
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	m.moved = true
	cmd, _ := views.Press(m.common.Keys, msg, m.Actions())
	return cmd
}

// cursorRepo is the name of the repo under the cursor ("" when it is on
// no repo's line).
func (m *Model) cursorRepo() string {
	l := m.current()
	switch {
	case l == nil || l.target == nil:
		return ""
	case l.target.What == OpenAdvisories, l.target.What == OpenDeprecated && l.target.Repo:
		return l.target.Name
	}
	return ""
}

// open opens the line under the cursor: its table, or all of its list.
func (m *Model) open() tea.Cmd {
	l := m.current()
	switch {
	case l == nil:
		return nil
	case l.kind == lineFewer:
		// The cursor goes to the "more" line that shows them again.
		list := l.more
		m.expanded[list] = false
		m.rebuild()
		for i := range m.lines {
			if m.lines[i].kind == lineMore && m.lines[i].more == list {
				m.cursor = i
				m.scrollTo()
			}
		}
		return nil
	case l.more >= 0:
		// The cursor goes to the first line shown now, where "more" was.
		at := m.cursor
		m.expanded[l.more] = true
		m.rebuild()
		if at < len(m.lines) && m.lines[at].selectable() {
			m.cursor = at
			m.scrollTo()
		}
		return nil
	case l.target != nil && m.cfg.Open != nil:
		return m.cfg.Open(*l.target)
	}
	return nil
}
