// Package ui is canopy's shell: the root Bubble Tea model. It owns the
// layout (header, main area, footer hints, status line), the stack of
// screens and their request contexts, the `:` command line, the help
// overlay, flash messages and spinner ticks, and it builds every screen's
// data sources from the API client. Views never see the client.
package ui

import (
	"cmp"
	"context"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/plugin"
	"canopy/saved"
	"canopy/state"
	"canopy/theme"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/detail"
	"canopy/views/help"
	"canopy/views/overview"
)

// Options configure the shell.
type Options struct {
	Client *api.Client
	// Org is the organization's uid or name; "" lists the caller's
	// organizations and asks when there are several.
	Org      string
	Host     string // API host, for the status line
	Identity string // who the token acts as, for the status line
	Theme    theme.Options
	Keys     *keymap.KeyMap // nil: defaults
	Now      func() time.Time
	// ReadOnly disables every change (edits, creates, deletes, bindings).
	ReadOnly bool
	// Changes is the log the client records its changes in (its Observe
	// hook); nil keeps none.
	Changes *ChangeLog
	// Notice is said on the status line as the screen opens (a token
	// passed over because it expired); "" says nothing.
	Notice string
	// Preparing, when set, is waited for before the organization is
	// looked up, its progress on the status line (starting.go).
	Preparing Preparing
	// Plugins are the user's tools (their keys are in Keys, or added);
	// Terminal lends the terminal to those that run in the foreground
	// (nil: they run in the background).
	Plugins  []plugin.Plugin
	Terminal Terminal
	// Editor is the user's editor, as $VISUAL (else $EDITOR) names it: a
	// command line the file's path is added to; "" for none.
	Editor string
	// Start is where the explorer starts (a command, a resource), once the
	// organization opens the first time.
	Start Start
	// Resume is what was kept of this API from the last runs: the
	// organization open last (offered first when several can be), and
	// where each organization's explorer was left.
	Resume state.API
	// Views are the saved views; SaveView writes one into the config file
	// (:save) and says which file (nil: :save has nowhere to write).
	Views    []saved.View
	SaveView func(saved.View) (file string, err error)
	// Stale is how long an identity may go unseen before the overview
	// counts it (0: DefaultStale); Refresh takes the overview's counts
	// again this often (0: on r only).
	Stale, Refresh time.Duration
	// Waits are how long the shell waits on the clock for things that may
	// never come (zero: the defaults, DefaultWaits()).
	Waits Waits
}

// Waits are the shell's limits in time: the caller sets them (tests make
// them long, so a busy machine never races them).
type Waits struct {
	// HoldKeys: keys typed ahead of a screen that is not ready (a table
	// before its first rows) are held at most this long, then go to the
	// screen as it is.
	HoldKeys time.Duration
	// Flash and FlashError: how long the status line keeps a message, and
	// a message that says something failed.
	Flash, FlashError time.Duration
	// Render: how long a readme's render may take before it is shown as
	// plain text.
	Render time.Duration
}

// DefaultWaits are the waits of a shell whose caller set none.
func DefaultWaits() Waits {
	return Waits{HoldKeys: 2 * time.Second, Flash: 4 * time.Second, FlashError: 8 * time.Second,
		Render: detail.DefaultRenderBudget}
}

// or fills the waits not set with those of d.
func (w Waits) or(d Waits) Waits {
	return Waits{HoldKeys: cmp.Or(w.HoldKeys, d.HoldKeys), Flash: cmp.Or(w.Flash, d.Flash), FlashError: cmp.Or(w.FlashError, d.FlashError),
		Render: cmp.Or(w.Render, d.Render)}
}

// Model is the root model.
type Model struct {
	opts   Options
	common views.Common
	env    *env
	ctx    context.Context
	stop   context.CancelFunc

	plugins       []plugin.Plugin
	lastCommand   string // the last `:` line run, offered again
	views         []saved.View
	stack         []entry
	help          *help.Model
	cmd           *cmdline.Model
	width, height int

	flash     string
	flashErr  bool
	flashRead bool // a failure shown its while: the next key takes it off
	flashSeq  int
	frame     int
	ticking   bool
	starting  bool
	startErr  error
	startOver bool      // Options.Preparing was told the start is over
	notice    string    // Options.Notice, until the organization opens
	footN     int       // lines the top screen's footer takes (see footer)
	hintsMemo hintsMemo // the last frame's hints line (frame.go)
	// held are keys typed ahead of what they are for (see held.go).
	held    []tea.KeyPressMsg
	holdGen int
	// releasing is set while keys whose wait timed out are given out: they
	// go to the screen as it is, not held again for its rows.
	releasing bool
}

// Messages of the shell itself.
type (
	orgsMsg struct {
		orgs []api.Group
		// folders is set when no organization is visible and orgs are the
		// top-most folders the token sees instead.
		folders bool
		err     error
	}
	orgMsg struct {
		org *api.Group
		err error
	}
	tickMsg       struct{}
	clearFlashMsg struct {
		seq     int
		failure bool // a failure's clock: it stays until a key (flashRead)
	}
)

// New makes the shell.
func New(opts Options) *Model {
	keys := opts.Keys
	if keys == nil {
		keys = keymap.Default()
	}
	opts.Waits = opts.Waits.or(DefaultWaits())
	ctx, stop := context.WithCancel(context.Background())
	common := views.Common{Theme: theme.New(opts.Theme), Keys: keys, Now: opts.Now, ReadOnly: opts.ReadOnly}
	m := &Model{opts: opts, common: common, ctx: ctx, stop: stop, starting: true, notice: opts.Notice,
		env: &env{client: opts.Client, common: common, ctx: ctx, kinds: kinds(opts.Client), changes: opts.Changes, tags: newTagSets(), orders: &refusedOrders{},
			repoNamer: newNamer(repoNames), folderNamer: newNamer(folderNames),
			identity: opts.Identity, overviews: map[string]overview.Caches{}, reviews: map[string]*accessReview{},
			advice: &advice{want: map[string]bool{}, failed: map[string]bool{}}, stale: cmp.Or(opts.Stale, DefaultStale), refresh: opts.Refresh,
			renderBudget: opts.Waits.Render, terminal: opts.Terminal, editor: opts.Editor}}
	m.env.push = m.open
	m.env.details = m.env.kinds.detailsIn(m.env)
	m.plugins, m.views = opts.Plugins, slices.Clone(opts.Views)
	for _, p := range m.plugins {
		if _, ok := keys.Def(keymap.PluginAction(p.Name)); !ok {
			_ = keys.AddPlugin(p.Name, p.Key, p.Help()) // the config checked the keys
		}
	}
	if m.env.changes == nil {
		m.env.changes = &ChangeLog{}
	}
	m.cmd = nil
	return m
}

// Init resolves the organization and asks for the terminal's background.
func (m *Model) Init() tea.Cmd {
	var notice tea.Cmd
	if m.opts.Notice != "" {
		notice = views.FlashError(m.opts.Notice)
	}
	return tea.Batch(afterPreparing(m.ctx, m.opts.Preparing, m.resolveOrg()), tea.RequestBackgroundColor, notice,
		m.env.whoAmI(m.opts.Preparing))
}

// Close cancels every request; call it when the program ends.
func (m *Model) Close() { m.stop() }

// Failed is why canopy could not open an organization when it quits
// without one (a token refused, no organization to see), nil once one
// opened: the program then exits with a failure and says why.
func (m *Model) Failed() error {
	if m.env.org != nil {
		return nil
	}
	return m.startErr
}
