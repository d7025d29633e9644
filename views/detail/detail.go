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
	"canopy/keymap"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/safe"
	"canopy/views/text"
)

// ArchSize is one architecture of an image and its size (or why it is unknown).
type ArchSize struct {
	Arch string
	Size int64
	Err  error
}

// Related is what a tag's detail shows beside it: its repo, the repo's
// other tags on the same digest, and the advisories for the repo's artifact.
type Related struct {
	Repo       string
	Siblings   []string
	Advisories []api.Advisory
}

// Fetch is how the pane gets the parts it loads lazily; the shell builds it
// from the API client. A nil function leaves that part out.
type Fetch struct {
	Readme   func(ctx context.Context, repoUID string) (string, error)
	Image    func(ctx context.Context, repoUID, digest string) ([]ArchSize, error)
	Related  func(ctx context.Context, tag *api.Tag) (Related, error)
	Bindings func(ctx context.Context, identityUID string) ([]api.RoleBinding, error)
	// Bind starts binding a role on the item shown (`b`), when it can be
	// bound (an identity, a group, a role); nil disables it.
	Bind func(item any) tea.Cmd
	// Edits are the editable parts of an item (`e`), the main one first.
	Edits func(item any) []form.Config
}

// Summary describes a collection node: what it holds and how many.
type Summary struct {
	Title, What string
	Count       func() int // the total, -1 while unknown; read at each layout
	Hint        string
}

// Debounce is how long the selection must rest before lazy parts are
// fetched, so holding j does not send a request per row.
const Debounce = 150 * time.Millisecond

// extras are the lazily fetched parts of one resource.
type extras struct {
	readme     string // raw
	rendered   string
	renderedW  int
	image      []ArchSize
	related    *Related
	relatedErr error
	bindings   []api.RoleBinding
	err        error
	loading    bool
	fetched    bool
	renderBusy bool
}

// dueMsg fires when the selection has rested for Debounce.
type dueMsg struct {
	owner *Model
	seq   int
}

// extrasMsg carries fetched parts.
type extrasMsg struct {
	owner      *Model
	uid        string
	readme     *string
	image      []ArchSize
	related    *Related
	relatedErr error
	bindings   []api.RoleBinding
	err        error
}

// renderedMsg carries a readme rendered for a width.
type renderedMsg struct {
	owner *Model
	uid   string
	width int
	out   string
	err   error
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
	frame  int

	choosing bool        // asking which field to edit
	choice   int         // the field offered
	editor   *form.Model // the field being edited in place
}

// New makes a pane; ctx bounds its fetches.
func New(ctx context.Context, common views.Common, fetch Fetch) *Model {
	return &Model{ctx: ctx, common: common, fetch: fetch, cache: map[string]*extras{}}
}

// NewPage makes a full-screen page for item.
func NewPage(ctx context.Context, common views.Common, fetch Fetch, item any) *Model {
	m := New(ctx, common, fetch)
	m.page = true
	m.item, m.uid = item, uidOf(item)
	return m
}

// Init fetches a page's lazy parts at once (no debounce: it was asked for).
func (m *Model) Init() tea.Cmd {
	m.relayout()
	return m.fetchExtras()
}

// Title is the resource's name.
func (m *Model) Title() string { return titleOf(m.item) }

// Busy reports whether a lazy part is loading.
func (m *Model) Busy() bool {
	e := m.cache[m.uid]
	return e != nil && (e.loading || e.renderBusy)
}

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
	m.editor, m.choosing = nil, false
	m.item, m.uid = item, uidOf(item)
	m.seq++
	m.offset = 0
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
func (m *Model) TakesText() bool { return m.editor != nil || m.choosing }

// Actions lists scrolling (and, for a page, going back).
func (m *Model) Actions() []keymap.State {
	if m.editor != nil {
		return m.editor.Actions()
	}
	if m.choosing {
		return chooseActions()
	}
	states := []keymap.State{keymap.Quiet(keymap.Up), keymap.Quiet(keymap.Down), keymap.Quiet(keymap.Top),
		keymap.Quiet(keymap.Bottom), keymap.Quiet(keymap.HalfUp), keymap.Quiet(keymap.HalfDown),
		keymap.Quiet(keymap.PageUp), keymap.Quiet(keymap.PageDown)}
	if m.page {
		states = append(states, keymap.On(keymap.Back), keymap.Quiet(keymap.Collapse))
	}
	if text, _ := copyOf(m.item); text != "" {
		states = append(states, keymap.On(keymap.Copy))
	}
	switch m.item.(type) {
	case *api.Identity, *api.Group, *api.Role:
		if m.fetch.Bind != nil {
			states = append(states, m.common.Change(keymap.Bind))
		}
	}
	if len(m.editable()) > 0 {
		states = append(states, m.common.Change(keymap.Edit))
	}
	return append(states, keymap.On(keymap.Refresh))
}

// Update handles scrolling keys, the debounce and fetched parts.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if m.editor != nil {
		switch msg.(type) {
		case dueMsg, extrasMsg, renderedMsg, views.TickMsg, paging.PageMsg, views.ChangedMsg:
		default:
			return m.updateEdit(msg)
		}
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.choosing {
		return m.updateChoose(k)
	}
	switch msg := msg.(type) {
	case views.UpdatedMsg:
		if uidOf(msg.Item) == m.uid && m.uid != "" {
			m.item = msg.Item
			m.relayout()
		}
		return nil
	case dueMsg:
		if msg.owner == m && msg.seq == m.seq {
			return m.fetchExtras()
		}
	case extrasMsg:
		if msg.owner != m {
			return nil
		}
		e := m.entry(msg.uid)
		e.loading, e.fetched, e.err = false, true, msg.err
		if msg.readme != nil {
			e.readme = *msg.readme
		}
		e.image, e.bindings, e.related, e.relatedErr = msg.image, msg.bindings, msg.related, msg.relatedErr
		if msg.uid == m.uid {
			m.relayout()
			return m.renderCmd()
		}
	case renderedMsg:
		if msg.owner != m {
			return nil
		}
		if e := m.cache[msg.uid]; e != nil {
			e.renderBusy = false
			if msg.err == nil {
				e.rendered, e.renderedW = msg.out, msg.width
			} else {
				e.rendered, e.renderedW = "("+safe.String(msg.err.Error())+")", msg.width
			}
			if msg.uid == m.uid {
				m.relayout()
				return m.renderCmd()
			}
		}
	case views.ChangedMsg:
		for _, id := range msg.IDs {
			m.drop(id)
			if id == m.uid {
				return m.fetchExtras()
			}
		}
	case views.TickMsg:
		m.frame = msg.Frame
	case paging.PageMsg:
		// A collection's total may have just arrived.
		if _, ok := m.item.(*Summary); ok {
			m.relayout()
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.scroll(-3)
		case tea.MouseWheelDown:
			m.scroll(3)
		}
	case tea.KeyPressMsg:
		st, ok := m.common.Keys.Lookup(msg, m.Actions())
		if !ok {
			return nil
		}
		if !st.Enabled {
			return views.Disabled(st)
		}
		return m.do(st.Action)
	}
	return nil
}

func (m *Model) do(a keymap.Action) tea.Cmd {
	if to, ok := views.Step(a, m.offset, len(m.lines), m.height); ok {
		m.scroll(to - m.offset)
		return nil
	}
	switch a {
	case keymap.Back, keymap.Collapse:
		return views.Back(m)
	case keymap.Copy:
		text, what := copyOf(m.item)
		return views.Copy(text, what)
	case keymap.Refresh:
		m.drop(m.uid)
		return m.fetchExtras()
	case keymap.Bind:
		return m.fetch.Bind(m.item)
	case keymap.Edit:
		return m.startEdit()
	}
	return nil
}

func (m *Model) scroll(d int) {
	m.offset = min(max(m.offset+d, 0), max(len(m.lines)-m.height, 0))
}

// needsExtras reports whether the item has lazily fetched parts.
func (m *Model) needsExtras() bool {
	switch m.item.(type) {
	case *api.Repo:
		return m.fetch.Readme != nil
	case *api.Tag:
		return m.fetch.Image != nil
	case *api.Identity:
		return m.fetch.Bindings != nil
	}
	return false
}

// fetchExtras fetches the item's lazy parts in a command.
func (m *Model) fetchExtras() tea.Cmd {
	if !m.needsExtras() {
		return nil
	}
	e := m.entry(m.uid)
	if e.loading || e.fetched {
		return m.renderCmd()
	}
	e.loading = true
	m.relayout()
	ctx, f, owner, uid, item := m.ctx, m.fetch, m, m.uid, m.item
	return func() tea.Msg {
		out := extrasMsg{owner: owner, uid: uid}
		switch it := item.(type) {
		case *api.Repo:
			readme, err := f.Readme(ctx, it.UID)
			out.readme, out.err = &readme, err
		case *api.Tag:
			out.image, out.err = f.Image(ctx, api.ParentUID(it.UID), it.Digest)
			if f.Related != nil {
				rel, err := f.Related(ctx, it)
				out.related, out.relatedErr = &rel, err
			}
		case *api.Identity:
			out.bindings, out.err = f.Bindings(ctx, it.UID)
		}
		return out
	}
}

// renderCmd renders the current repo's readme for the current width in a
// command when it is fetched and not yet rendered at this width.
func (m *Model) renderCmd() tea.Cmd {
	e := m.cache[m.uid]
	if e == nil || e.readme == "" || e.renderBusy || (e.rendered != "" && e.renderedW == m.width) || m.width <= 0 {
		return nil
	}
	e.renderBusy = true
	owner, uid, content, style, width := m, m.uid, e.readme, m.common.Theme.Markdown, m.width
	return func() tea.Msg {
		out, err := RenderMarkdown(content, style, width)
		return renderedMsg{owner: owner, uid: uid, width: width, out: out, err: err}
	}
}

// entry is the cache entry of uid, made on first use; the cache keeps the
// 64 most recent resources.
func (m *Model) entry(uid string) *extras {
	if e := m.cache[uid]; e != nil {
		return e
	}
	e := &extras{}
	m.cache[uid] = e
	m.order = append(m.order, uid)
	if len(m.order) > 64 {
		delete(m.cache, m.order[0])
		m.order = m.order[1:]
	}
	return e
}

func (m *Model) drop(uid string) {
	delete(m.cache, uid)
}

// relayout rebuilds the text lines for the item and width.
func (m *Model) relayout() {
	if m.width <= 0 {
		m.lines = nil
		return
	}
	m.lines = strings.Split(m.render(), "\n")
	m.scroll(0)
}

// View draws the visible lines.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	lines := m.lines
	if m.editor != nil {
		lines = m.withEditor(lines)
	}
	if m.choosing {
		lines = append([]string{m.chooserLine()}, lines...)
	}
	offset := min(m.offset, max(len(lines)-m.height, 0))
	end := min(offset+m.height, len(lines))
	visible := lines[offset:end]
	var b strings.Builder
	for i, l := range visible {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(text.Cut(l, m.width, ""))
	}
	for i := len(visible); i < m.height; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
