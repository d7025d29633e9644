package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/saved"
	"canopy/views"
	"canopy/views/detail"
	"canopy/views/form"
	"canopy/views/overview"
)

// screenAsk is a screen asked for: build runs with the screen's own
// context, which the shell cancels when the screen closes. A screen a `:`
// command opens replaces the last one a command opened, with what is
// stacked on it (as in k9s), so the breadcrumb does not grow with every
// command.
type screenAsk struct {
	build   func(ctx context.Context) views.Screen
	command bool
	// origin is the table's collection as a view (:save keeps it).
	origin *saved.View
}

// open puts a screen on the shell's stack now, in the Update of the key
// that asks for it (it is only called on the UI loop): the keys typed
// after that key go to the new screen (`b1` in one read of the terminal
// binds with the first role), or wait for its rows if it has none yet
// (see held.go). It returns the screen's Init.
func (e *env) open(build func(ctx context.Context) views.Screen) tea.Cmd {
	return e.push(screenAsk{build: build})
}

// openCommand opens the screen of a `:` command.
func (e *env) openCommand(build func(ctx context.Context) views.Screen) tea.Cmd {
	return e.push(screenAsk{build: build, command: true})
}

// openMsg asks for a screen from a command run later (a dialog's next
// step, taken once the dialog has closed).
type openMsg struct{ screenAsk }

// openLater is open for a command kept for a later key.
func openLater(build func(ctx context.Context) views.Screen) tea.Cmd {
	return func() tea.Msg { return openMsg{screenAsk{build: build}} }
}

// env is what screen builders share: the client, the common bag, the
// organization and the names learned so far. It is only touched on the UI
// loop (Update and View).
type env struct {
	ctx    context.Context
	client *api.Client
	kinds  *registry // what the shell knows of each kind of resource
	// details are what the detail pane knows of each kind here, its page
	// reading with this env: made once, with the env (registry.detailsIn).
	details map[*kind]*detail.Kind
	common  views.Common
	org     *api.Group
	changes *ChangeLog
	tags    *tagSets // the tags seen per repo, for tag details
	// repoNamer and folderNamer learn the names REPO and FOLDER columns
	// show.
	repoNamer, folderNamer *namer
	// identity is who the token acts as (for denials); undos are this
	// session's edits not undone, newest last, and undoing says one is on
	// its way.
	identity string
	undos    []*editedMsg
	undoing  bool
	// push is the shell's: it puts a screen on the stack (see open).
	push func(screenAsk) tea.Cmd
	// orders are the orders the server refused, by collection.
	orders *refusedOrders
	// overviews are the overview's counts, by organization; stale and
	// refresh are its settings (Options.Stale, Options.Refresh).
	overviews map[string]overview.Caches
	// reviews are the access reviews read, by organization (access.go).
	reviews map[string]*accessReview
	// advice is the advisory counts wanted for the tree's repo rows.
	advice  *advice
	stale   time.Duration
	refresh time.Duration
	// renderBudget is a readme render's (Options.Waits.Render).
	renderBudget time.Duration
	// terminal is lent to the user's editor (Options.Terminal, nil: none
	// to lend); editor is its command line (Options.Editor).
	terminal Terminal
	editor   string
	// join is the screen of a token that sees no organization, or :join's.
	join *joinFlow
	// self is the uid of the identity the token is ("" while unknown);
	// profile is its profile as the service last answered (nil: never).
	self    string
	profile *api.IdentityMetadata

	// noBatchBind: the server has no batch create of role bindings (the
	// status line said so once): marked identities are bound one by one.
	noBatchBind bool
}

func (e *env) builder(ctx context.Context) builder {
	return builder{kinds: e.kinds, ctx: ctx, client: e.client, tags: e.tags, orders: e.orders, advise: e.wantAdvice}
}

// fetch is what a detail pane asks the shell whatever it shows: the
// kinds (each page loading what it loads itself, see details), and what
// r, b, e and a do.
func (e *env) fetch(ctx context.Context) detail.Fetch {
	return detail.Fetch{
		Kind: e.detailOf,
		// r on a page reads and counts it again.
		Forget: func(item any) {
			if k := e.kinds.of(item); k != nil && k.forget != nil {
				k.forget(e, item)
			}
		},
		Bind: e.bindItem,
		Edits: func(item any) []form.Config {
			eds := e.kinds.editsOf(e.client, item)
			out := make([]form.Config, len(eds))
			for i, ed := range eds {
				out[i] = e.formOf(ctx, ed)
			}
			return append(out, e.profileForms(ctx, item)...)
		},
		Advisories: e.advisoriesOf,
	}
}

// detailOf is what the detail pane knows of a resource's kind here; nil
// for what is none.
func (e *env) detailOf(item any) *detail.Kind {
	if k := e.kinds.of(item); k != nil {
		return e.details[k]
	}
	return nil
}

func uidCopy[T any](key func(*T) string) func(*T) (string, string) {
	return func(it *T) (string, string) { return key(it), "uid" }
}

// page opens a full-screen detail page for a resource.
func (e *env) page(item any) tea.Cmd {
	return e.open(func(ctx context.Context) views.Screen {
		return detail.NewPage(ctx, e.common, e.fetch(ctx), item)
	})
}

func pageOf[T any](e *env) func(*T) tea.Cmd {
	return func(it *T) tea.Cmd {
		c := *it
		return e.page(&c)
	}
}
