package tree

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/search"
)

// Config is what the shell gives a tree.
type Config struct {
	Roots []*Node
	// Open is what enter does on a collection (open it as a table) or a
	// leaf (show it); nil result means nothing to do.
	Open func(*Node) tea.Cmd
	// Table opens the children of an expandable node as a table (`t`); nil
	// or a nil result disables it.
	Table func(*Node) tea.Cmd
	// Select is told about the node under the cursor after each move (nil
	// when there is none).
	Select func(*Node) tea.Cmd
	// Failed is told instead when the cursor is on the row saying that
	// loading owner's children failed, so the whole error can be shown.
	Failed func(owner *Node, err error) tea.Cmd
	// Copy gives what `y` copies for a node, and what it is.
	Copy func(*Node) (text, what string)
	// CopyRef gives what `Y` copies (a tag's pull reference), "" when the
	// node has none.
	CopyRef func(*Node) (text, what string)
	// Deprecated opens a repo's deprecated tags (`D`), nil to disable.
	Deprecated func(repo *Node) tea.Cmd
	// Advisories opens a repo's advisories (`a`), nil to disable.
	Advisories func(repo *Node) tea.Cmd
	// Note is what the shell knows of a node beyond it (a repo's
	// advisories), drawn after its own note: its forms, longest first, the
	// first that fits drawn; nil or none for nothing. It is asked for the
	// rows on screen only, as they are drawn.
	Note func(*Node) []safe.Text
	// Bind starts binding a role on an identity, folder or organization
	// node (`b`), nil to disable.
	Bind func(*Node) tea.Cmd
	// Edit is the in-place editor of a node's main field (`e`); nil, or a
	// nil result, when it has none.
	Edit func(*Node) *form.Config
	// Counted is the shell's kept count of a node's deprecated children
	// and of all of them (a repo's tags, counted whole by the overview or
	// the repo's page, with the changes made here since); ok false for
	// none. Asked as rows are drawn: a lookup, no more.
	Counted func(*Node) (deprecated, of int, ok bool)
	// Updated gives a node a resource's new version (it takes it when it is
	// the same resource).
	Updated func(n *Node, item any)
	// New creates in the node (`n`): a repo in a repos collection, a folder
	// in a folder, a tag in a repo; nil result when nothing can be.
	New func(*Node) tea.Cmd
	// Delete asks before deleting the node's resource (`d`); nil result
	// when it cannot be deleted.
	Delete func(*Node) tea.Cmd
	// Search asks the server for what the filter's pattern names, loaded
	// here or not (ctrl+s while filtering); what it finds is revealed
	// with Reveal. Nil: the tree filters what is loaded only.
	Search func(pattern string) tea.Cmd
}

// Model is the explorer tree.
type Model struct {
	common views.Common
	cfg    Config

	rows           []row
	cursor, offset int
	width, height  int
	frame          int
	focused        bool
	lists          []*Node // nodes whose children list has been started
	// feeds are the root collections not yet started: they are asked for
	// once the first root's first page is in (startFeeds).
	feeds          []*Node
	opened         bool // the first root's first page is in, or failed
	selected       *Node
	selectedFailed error // the failure shown, when the cursor is on a failed row
	paints         paints
	// await is a node whose children were loading when l was pressed on
	// its loading row: the first child expands when it arrives, so keys
	// typed ahead are not lost.
	await *Node

	search *search.Model
	before *Node // the node under the cursor when filtering began
	// unloaded is how many children of opened lists were not loaded when
	// the filter took its snapshot: the filter cannot see them.
	unloaded int
	// unloadedMore: some opened list has no total and more pages to come,
	// so unloaded is a lower bound.
	unloadedMore bool
	path         []string // the ids Reveal walks along
	// restoring are the paths Restore walks after path; openEnd: the
	// node at path's end is opened too; quiet: a path that no longer
	// leads anywhere is dropped without a word (a session's old branch).
	restoring      []restorePath
	openEnd, quiet bool
	// former are the expanded nodes of lists being reloaded, by uid, and
	// refocus the node the cursor was on (see reload); focus the uid of
	// what a change made, which the cursor goes to once it is shown.
	former  map[string]*Node
	refocus *Node
	focus   string

	editor *form.Model // the node being edited in place
}

// New makes a tree over roots; the first root starts expanded.
func New(common views.Common, cfg Config) *Model {
	return &Model{common: common, cfg: cfg, focused: true}
}

// Init expands the first root.
func (m *Model) Init() tea.Cmd {
	if len(m.cfg.Roots) == 0 {
		m.opened = true
		return nil
	}
	first := m.cfg.Roots[0]
	cmds := []tea.Cmd{m.expand(first)}
	// Root collections (the feeds) show their totals from the start, but
	// are asked for once the first root's first page is in: their pages
	// (the advisories', 200 with their events) are the largest of the
	// start, and the first frame with the organization's tree would
	// otherwise share the cores with reading them.
	for _, r := range m.cfg.Roots[1:] {
		if r.Kind.IsCollection() {
			r.queued = true
			m.feeds = append(m.feeds, r)
		}
	}
	if first.Children == nil {
		cmds = append(cmds, m.startFeeds())
	}
	m.rebuild()
	return tea.Batch(append(cmds, m.selectCmd())...)
}

// HasFirstPage reports whether the first root's first page is in (or
// failed): the tree's first frame with something to browse.
func (m *Model) HasFirstPage() bool { return m.opened }

// startFeeds asks for the first pages of the root collections not asked
// for yet: the tree is open.
func (m *Model) startFeeds() tea.Cmd {
	m.opened = true
	cmds := make([]tea.Cmd, 0, len(m.feeds))
	for _, f := range m.feeds {
		f.queued = false
		cmds = append(cmds, m.start(f))
	}
	m.feeds = nil
	return tea.Batch(cmds...)
}

// Title names the tree in the breadcrumb.
func (m *Model) Title() safe.Text { return "explorer" }

// SetSize gives the tree its size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.paints = paintsOf(m.common.Theme)
	if m.search != nil {
		m.search.SetWidth(w)
	}
	m.clamp()
}

// SetFocused says whether the tree has the keyboard (it draws its cursor
// dimmer when not).
func (m *Model) SetFocused(f bool) { m.focused = f }

// Busy reports whether a visible collection is loading.
func (m *Model) Busy() bool {
	if len(m.feeds) > 0 {
		return true // feeds wait to be asked for
	}
	for _, n := range m.lists {
		if n.Children.Busy() {
			return true
		}
	}
	return false
}

// Selected is the node under the cursor (the owner for a pseudo row).
func (m *Model) Selected() *Node {
	if m.cursor < m.lineCount() {
		return m.cursorRow().node
	}
	return nil
}

// Rows is the number of lines of the flattened tree (each child position
// of an opened collection is one, loaded or not).
func (m *Model) Rows() int { return m.lineCount() }

// Update handles keys, mouse, pages and ticks.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if m.editing() {
		switch msg.(type) {
		case paging.PageMsg, views.UpdatedMsg, views.TickMsg, views.ChangedMsg, views.DeletedMsg, search.ResultMsg:
		default:
			return m.updateEdit(msg)
		}
	}
	switch msg := msg.(type) {
	case views.UpdatedMsg:
		return m.updated(msg)
	case paging.PageMsg:
		for _, n := range m.lists {
			if !n.Children.Owns(msg) {
				continue
			}
			anew := n.Children.Refreshing()
			changed, cmd := n.Children.Update(msg)
			if n == m.cfg.Roots[0] {
				cmd = tea.Batch(cmd, m.startFeeds())
			}
			if r, ok := n.Children.TakeRefusal(); ok {
				cmd = tea.Batch(cmd, views.RefusedOrder(r.Collection, r.Order))
			}
			if changed {
				m.adopt(n)
				n.countDeprecated()
			}
			if changed && m.search != nil && m.search.Active() {
				// The filter's rows stand in for the tree: search the new
				// nodes too; the tree is rebuilt when the filter goes.
				return tea.Batch(cmd, m.search.Refresh(-1))
			}
			switch {
			case changed && anew:
				// A reload's first page: the children start anew (a folder
				// created before the ones shown is among them), so the rows
				// are laid out again rather than added to.
				m.rebuild()
				m.regainFocus()
			case changed:
				m.afterPage(n)
				m.regainFocus()
			}
			return tea.Batch(cmd, m.seek(), m.awaited(n), m.prefetch(), m.selectCmd())
		}
	case search.ResultMsg:
		if m.search != nil {
			return m.updateFilter(msg)
		}
	case views.ChangedMsg:
		return m.changed(msg)
	case views.JumpMsg:
		cmd := m.moveTo(msg.JumpIndex(m.lineCount()))
		m.offset = max(0, m.cursor-m.rowsHigh()/2) // in the middle, as a table's jump
		m.clamp()
		return tea.Batch(cmd, m.prefetch())
	case views.CountedMsg:
		// The repo may never have been opened here (D in a table): its
		// node keeps the count for when it is, and shows it meanwhile.
		m.eachLoaded(func(n *Node) {
			if n.ID == msg.ID && n.Children != nil {
				n.SetCounted(msg.Count, msg.Total)
			}
		})
		return nil
	case views.DeletedMsg:
		return m.deleted(msg)
	case views.TickMsg:
		m.frame = msg.Frame
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			return m.moveTo(m.cursor - 3)
		case tea.MouseWheelDown:
			return m.moveTo(m.cursor + 3)
		}
	case tea.MouseClickMsg:
		if msg.Y >= 0 && msg.Y < m.rowsHigh() {
			return m.moveTo(m.offset + msg.Y)
		}
	case tea.KeyPressMsg:
		if m.TakesText() && !m.editing() {
			// Typed keys are text, but for the server filter the line
			// offers.
			states := m.Actions()
			if st, ok := m.common.Keys.Lookup(msg, states); ok && st.Action == keymap.ServerFilter {
				cmd, _ := views.Press(m.common.Keys, msg, states)
				return cmd
			}
		}
		if m.TakesText() {
			return m.updateFilter(msg)
		}
		// A key stops a reveal still walking pages toward its node (a
		// collection that never ends must not hold the tree).
		m.refocus, m.focus, m.path, m.restoring = nil, "", nil, nil
		if m.search != nil && m.search.HoldOpen(msg) {
			return nil
		}
		cmd, _ := views.Press(m.common.Keys, msg, m.Actions())
		return cmd
	default:
		if m.TakesText() {
			return m.updateFilter(msg)
		}
	}
	return nil
}

// selectCmd tells the shell about the row under the cursor when it
// changed: its node, or the failure a failed row stands for.
func (m *Model) selectCmd() tea.Cmd {
	n := m.Selected()
	if m.cfg.Select == nil {
		return nil
	}
	if n == nil {
		// Nothing under the cursor (a filter that matches nothing): the
		// pane says so rather than keep the last node shown.
		if m.selected == nil {
			return nil
		}
		m.selected, m.selectedFailed = nil, nil
		return m.cfg.Select(nil)
	}
	var failed error
	if m.cfg.Failed != nil {
		failed = m.failure(m.cursorRow())
	}
	if n == m.selected && failed == m.selectedFailed {
		return nil
	}
	m.selected, m.selectedFailed = n, failed
	if failed != nil {
		return m.cfg.Failed(n, failed)
	}
	return m.cfg.Select(n)
}

// Noun names what the cursor is on, for "does not apply to …".
func (m *Model) Noun() string {
	n := m.Selected()
	switch {
	case n == nil:
		return "an empty tree"
	case m.cursorRow().kind != rowNode:
		return "this row"
	case n.Kind.IsCollection():
		return "a collection"
	}
	return article(n.Kind.name())
}

// article puts "a" or "an" before a noun.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// failure is the error a tail or gap row shows, nil when it shows none.
func (m *Model) failure(r row) error {
	if r.kind == rowNode {
		return nil
	}
	l := r.node.Children
	err, _ := l.Err()
	switch {
	case r.kind == rowTail && tailKind(r.node) == rowFailed:
		return err
	case r.kind == rowGap && l.FailedAt(r.pos):
		return err
	}
	return nil
}
