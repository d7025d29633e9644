// Package detail shows one resource: every field, human times beside exact
// ones, and the parts fetched lazily (a repo's readme rendered as Markdown, a
// tag's architectures and sizes, an identity's role bindings). It is both
// the explorer's right-hand pane and a full-screen page.
package detail

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/form"
)

// ArchSize is one architecture of an image and its size (or why it is unknown).
type ArchSize struct {
	Arch string
	Size int64
	Err  error
}

// Related is what a tag's detail shows beside it: its repo, the repo's
// other tags on the same digest, and the advisories for the repo's
// artifact names.
type Related struct {
	Repo     string
	Siblings []Sibling
	// Searched and Of say how many of the repo's tags were looked at for
	// Siblings; Searched < Of while the search goes on.
	Searched, Of int
	// Artifacts are the artifact names searched ("node", "node-<version>").
	Artifacts  []string
	Advisories []api.Advisory
	// Partial is set on what is known at once, before the search ends.
	Partial bool
}

// Sibling is another tag on the same digest.
type Sibling struct {
	Name       string
	Deprecated bool
}

// Fetch is what the pane asks the shell for whatever the item shown:
// what its kind is, and what the shell does with one (forget, bind, edit,
// list its advisories); the shell builds it from its registry. A nil
// function leaves that part out. What one kind's page loads (a repo's
// readme, a tag's image, an identity's bindings) is not here but in its
// page's own sources, given to its constructor (RepoPage, TagPage,
// IdentityPage).
type Fetch struct {
	// Kind is what the pane knows of the kind of an item (the shell's
	// registry), its page included; nil for what is none.
	Kind func(item any) *Kind
	// Forget drops what the shell keeps about an item (r in the pane).
	Forget func(item any)
	// Bind starts binding a role on the item shown (`b`), when it can be
	// bound (an identity, a group, a role); nil disables it.
	Bind func(item any) tea.Cmd
	// Edits are the editable parts of an item (`e`), the main one first.
	Edits func(item any) []form.Config
	// Advisories opens the advisories of image names, called label (`a`
	// on a repo: its name; on a tag: the names its page lists); nil
	// disables it.
	Advisories func(label string, names []string) tea.Cmd
}

// RepoSources are where a repo's page (RepoPage) gets what it loads; a
// nil function leaves its part out.
type RepoSources struct {
	// Readme reads a repo's readme; nil shows none.
	Readme func(ctx context.Context, repoUID string) (string, error)
	// ReadmeBudget is how long a readme's render may take before it is
	// shown as plain text instead; zero is DefaultRenderBudget.
	ReadmeBudget time.Duration
	// Stats counts a repo's tags and advisories (its page's activity and
	// advisories), starting from what is known; nil shows neither.
	Stats func(ctx context.Context, repo *api.Repo, known RepoStats) (RepoStats, error)
	// KnownStats is what the shell knows of a repo's counts now (asked in
	// Update); Counted tells it what a count found.
	KnownStats func(repo *api.Repo) RepoStats
	Counted    func(repo *api.Repo, st RepoStats)
	// Resolved reads what the repo's image had resolved lately; nil
	// shows none.
	Resolved *ResolvedSources
	// EditReadme edits a repo's readme (`E`); nil offers no edit.
	EditReadme func(repo *api.Repo) tea.Cmd
}

// TagSources are where a tag's page (TagPage) gets what it loads and
// shows beside the tag; a nil function leaves its part out.
type TagSources struct {
	// Image reads the architectures of a tag's image and their sizes;
	// nil shows no image (and no relations).
	Image func(ctx context.Context, repoUID, digest string) ([]ArchSize, error)
	// Related asks, in Update, for a tag's relations: the shell answers
	// with reply's message, from what it knows or after a search (the
	// command returned; nil when a search on its way answers this too).
	Related func(ctx context.Context, tag *api.Tag, reply func(Related, error) tea.Msg) tea.Cmd
	// Known is what is known of a tag's relations right now, without a
	// request (tags already loaded elsewhere), shown while Related runs;
	// nil, or a nil result, when nothing is.
	Known func(tag *api.Tag) *Related
	// PullRef is a tag's pull reference in its repo (what `Y` copies,
	// with what that is); nil shows none.
	PullRef func(repo string, tag *api.Tag) (ref, what string)
	// Resolved reads what the tag's image had resolved lately; nil shows
	// none.
	Resolved *ResolvedSources
}

// Summary describes a collection node: what it holds and how many.
type Summary struct {
	Title safe.Text
	What  string // what it holds, canopy's word ("repos")
	// State is the total (-1 while unknown), whether a page is loading and
	// the last failure; read at each layout.
	State func() (total int, busy bool, err error)
	// AtLeast reports whether the total is only a lower bound (the server
	// gave no count and not every page came); nil: it is exact.
	AtLeast func() bool
	Hint    string
}

// Failure is a load that failed (the tree's failed row): what was being
// loaded and the whole error.
type Failure struct {
	What safe.Text // "the tags of node"
	Err  error
}

// Model is the detail pane (or page).
type Model struct {
	common views.Common
	ctx    context.Context
	fetch  Fetch

	item   any
	uid    string
	seq    int
	cache  map[string]*extras
	order  []string // cache keys, oldest first
	lines  []string
	offset int
	width  int
	height int
	page   bool // full screen: esc goes back
	closed bool // the page was left (see views.Closer)
	frame  int
	// themeGen counts theme changes: renders of an older one are dropped.
	themeGen int
	// The readme render on its way: the repo, a count of renders started
	// (which one it is) and how to stop it.
	rendering    string
	renderSeq    int
	cancelRender context.CancelFunc

	focused bool        // the pane has the keyboard: the field cursor shows
	choice  int         // the editable part under the field cursor
	fieldAt []fieldPos  // the editable parts the sheet shows, and their lines
	editor  *form.Model // the field being edited in place
	// secret is what this page was given to say once (secret.go).
	secret *Secret
}

// New makes a pane; ctx bounds its fetches.
func New(ctx context.Context, common views.Common, fetch Fetch) *Model {
	return &Model{ctx: ctx, common: common, fetch: fetch, cache: map[string]*extras{}}
}

// NewPage makes a full-screen page for item.
func NewPage(ctx context.Context, common views.Common, fetch Fetch, item any) *Model {
	m := New(ctx, common, fetch)
	m.page = true
	m.item, m.uid = item, m.uidOf(item)
	return m
}

// Current is the resource the pane shows (nil for a collection's summary
// or a failure): the shell asks what the user is looking at.
func (m *Model) Current() any {
	switch m.item.(type) {
	case *Summary, *Failure, nil:
		return nil
	}
	return m.item
}

// Init fetches a page's lazy parts at once (no debounce: it was asked for).
func (m *Model) Init() tea.Cmd {
	m.relayout()
	return m.fetchExtras()
}

// Title is the resource's name.
func (m *Model) Title() safe.Text { return m.titleOf(m.item) }

// Busy reports whether a lazy part is loading.
func (m *Model) Busy() bool {
	if s, ok := m.item.(*Summary); ok && s.State != nil {
		_, busy, _ := s.State()
		return busy
	}
	e := m.cache[m.uid]
	return e != nil && (e.loading || e.renderBusy || e.relating || e.resolving)
}

// Noun names what the pane shows, for "does not apply to …".
func (m *Model) Noun() string {
	switch m.item.(type) {
	case nil:
		return "an empty pane"
	case *Summary:
		return "a collection"
	case *Failure:
		return "a failure"
	}
	return "this page"
}

// Closed reports whether the page was left.
func (m *Model) Closed() bool { return m.closed }

// Item is the resource shown.
func (m *Model) Item() any { return m.item }

// SetSize re-lays the text out for a new size.
func (m *Model) SetSize(w, h int) {
	if w == m.width && h == m.height {
		return
	}
	m.width, m.height = w, h
	m.relayout()
}

// Show switches to item. Lazy parts are fetched once the selection has
// rested for Debounce.
func (m *Model) Show(item any) tea.Cmd {
	m.editor = nil
	if m.uidOf(item) != m.rendering {
		m.stopRender() // the cursor left the repo: its readme is not needed now
	}
	if uid := m.uidOf(item); uid == "" || uid != m.uid {
		m.choice, m.offset = -1, 0 // the main field, once laid out
	} // else a new version of the same resource (after an edit): the field cursor and scroll stay
	m.item, m.uid = item, m.uidOf(item)
	m.seq++
	m.relayout()
	if !m.needsExtras() {
		return nil
	}
	if e := m.cache[m.uid]; e != nil && (e.fetched || e.loading) {
		return m.renderCmd()
	}
	seq, owner := m.seq, m
	return tea.Tick(Debounce, func(time.Time) tea.Msg { return dueMsg{owner: owner, seq: seq} })
}

// TakesText reports whether typed keys go to an editor.
func (m *Model) TakesText() bool { return m.editor != nil }

// relayout rebuilds the text lines for the item and width.
func (m *Model) relayout() {
	if m.width <= 0 {
		m.lines, m.fieldAt = nil, m.fieldAt[:0]
		return
	}
	m.lines = strings.Split(m.render(), "\n")
	m.findFields()
	m.scroll(0)
}

// View draws the visible lines.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	lines, offset := m.withCursor(m.lines), m.offset
	if m.editor != nil {
		var at int
		lines, at = m.withEditor(lines)
		// The editor is always seen, whatever the scroll.
		offset = min(max(offset, at+m.editor.Fields()+1-m.height), at)
	}
	offset = min(max(offset, 0), max(len(lines)-m.height, 0))
	end := min(offset+m.height, len(lines))
	visible := lines[offset:end]
	var b strings.Builder
	for i, l := range visible {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(text.Cut(l, m.width, m.common.Theme.Glyphs.Ellipsis)) // what is cut says so
	}
	for i := len(visible); i < m.height; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
