package tree

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
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
	// Select is told about the node under the cursor after each move.
	Select func(*Node) tea.Cmd
	// Copy gives what `y` copies for a node, and what it is.
	Copy func(*Node) (text, what string)
	// CopyRef gives what `Y` copies (a tag's pull reference), "" when the
	// node has none.
	CopyRef func(*Node) (text, what string)
	// Deprecated opens a repo's deprecated tags (`D`), nil to disable.
	Deprecated func(repo *Node) tea.Cmd
	// Bind starts binding a role on an identity, folder or organization
	// node (`b`), nil to disable.
	Bind func(*Node) tea.Cmd
	// Edit is the in-place editor of a node's main field (`e`); nil, or a
	// nil result, when it has none.
	Edit func(*Node) *form.Config
	// Updated gives a node a resource's new version (it takes it when it is
	// the same resource).
	Updated func(n *Node, item any)
	// New creates in the node (`n`): a repo in a repos collection, a folder
	// in a folder, a tag in a repo; nil result when nothing can be.
	New func(*Node) tea.Cmd
	// Delete asks before deleting the node's resource (`d`); nil result
	// when it cannot be deleted.
	Delete func(*Node) tea.Cmd
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
	selected       *Node
	paints         paints

	search *search.Model
	before *Node  // the node under the cursor when filtering began
	target string // the uid Goto walks toward

	editor *form.Model // the node being edited in place
}

// New makes a tree over roots; the first root starts expanded.
func New(common views.Common, cfg Config) *Model {
	return &Model{common: common, cfg: cfg, focused: true}
}

// Init expands the first root.
func (m *Model) Init() tea.Cmd {
	if len(m.cfg.Roots) == 0 {
		return nil
	}
	cmds := []tea.Cmd{m.expand(m.cfg.Roots[0])}
	// Root collections (the feeds) show their totals from the start.
	for _, r := range m.cfg.Roots[1:] {
		if r.Kind.IsCollection() {
			cmds = append(cmds, m.start(r))
		}
	}
	m.rebuild()
	return tea.Batch(append(cmds, m.selectCmd())...)
}

// Title names the tree in the breadcrumb.
func (m *Model) Title() string { return "explorer" }

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
	for _, n := range m.lists {
		if n.Children.Busy() {
			return true
		}
	}
	return false
}

// Selected is the node under the cursor (the owner for a pseudo row).
func (m *Model) Selected() *Node {
	if m.cursor < len(m.rows) {
		return m.rows[m.cursor].node
	}
	return nil
}

// Rows is the number of flattened rows.
func (m *Model) Rows() int { return len(m.rows) }

// Actions lists what applies to the node under the cursor.
func (m *Model) Actions() []keymap.State {
	if m.editing() {
		return m.editor.Actions()
	}
	if m.TakesText() {
		return m.search.Actions()
	}
	if m.filtering() {
		why := "clear the filter (esc) first"
		states := []keymap.State{keymap.On(keymap.Open), keymap.On(keymap.Back), keymap.On(keymap.Filter),
			keymap.Off(keymap.Expand, why), keymap.Off(keymap.Collapse, why), keymap.Off(keymap.Refresh, why)}
		if m.cfg.Copy != nil {
			states = append(states, keymap.On(keymap.Copy))
		}
		for _, a := range []keymap.Action{keymap.Up, keymap.Down, keymap.Top, keymap.Bottom,
			keymap.HalfUp, keymap.HalfDown, keymap.PageUp, keymap.PageDown} {
			states = append(states, keymap.Quiet(a))
		}
		return states
	}
	n := m.Selected()
	states := []keymap.State{}
	if n != nil {
		r := m.rows[m.cursor]
		switch {
		case r.kind != rowNode:
			states = append(states, keymap.On(keymap.Expand))
		case n.Kind.IsCollection():
			states = append(states, keymap.On(keymap.Open), m.expandState(n))
		case n.Expandable():
			states = append(states, m.expandState(n), withHide(keymap.On(keymap.Open)))
		default:
			open := keymap.Off(keymap.Open, "nothing more to show for this "+kindName(n.Kind))
			if m.cfg.Open != nil {
				open = keymap.On(keymap.Open)
			}
			states = append(states, open, keymap.Off(keymap.Expand, "a "+kindName(n.Kind)+" has no children"))
		}
		states = append(states, keymap.On(keymap.Collapse))
		if m.cfg.Table != nil && n.Expandable() && !n.Kind.IsCollection() && r.kind == rowNode {
			states = append(states, keymap.On(keymap.Table))
		}
		states = append(states, keymap.On(keymap.Refresh), keymap.On(keymap.Filter))
		if m.cfg.Deprecated != nil && repoOf(n) != nil {
			states = append(states, keymap.On(keymap.OnlyFlagged))
		}
		if r.kind == rowNode {
			switch n.Kind {
			case KindIdentity, KindFolder, KindOrg:
				if m.cfg.Bind != nil {
					states = append(states, m.common.Change(keymap.Bind))
				}
			}
			if m.cfg.Edit != nil && m.cfg.Edit(n) != nil {
				states = append(states, m.common.Change(keymap.Edit))
			}
			if m.cfg.New != nil && creates(n.Kind) {
				states = append(states, m.common.Change(keymap.New))
			}
			if m.cfg.Delete != nil && deletable(n) {
				states = append(states, m.common.Change(keymap.Delete))
			}
		}
		if m.cfg.Copy != nil && r.kind == rowNode {
			if text, _ := m.cfg.Copy(n); text != "" {
				states = append(states, keymap.On(keymap.Copy))
			} else {
				states = append(states, keymap.Off(keymap.Copy, "a "+kindName(n.Kind)+" has no uid to copy"))
			}
		}
		if m.cfg.CopyRef != nil && r.kind == rowNode {
			if text, _ := m.cfg.CopyRef(n); text != "" {
				states = append(states, keymap.On(keymap.CopyRef))
			}
		}
	}
	for _, a := range []keymap.Action{keymap.Up, keymap.Down, keymap.Top, keymap.Bottom,
		keymap.HalfUp, keymap.HalfDown, keymap.PageUp, keymap.PageDown} {
		states = append(states, keymap.Quiet(a))
	}
	return states
}

func (m *Model) expandState(n *Node) keymap.State {
	if n.expanded {
		return withHide(keymap.On(keymap.Expand))
	}
	return keymap.On(keymap.Expand)
}

func withHide(s keymap.State) keymap.State {
	s.Hide = true
	return s
}

// Update handles keys, mouse, pages and ticks.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if m.editing() {
		switch msg.(type) {
		case paging.PageMsg, views.UpdatedMsg, views.TickMsg, views.ChangedMsg, search.ResultMsg:
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
			before := n.Children.Contiguous()
			changed, cmd := n.Children.Update(msg)
			if changed {
				n.countDeprecated()
			}
			if changed && m.search != nil && m.search.Active() {
				// The filter's rows stand in for the tree: search the new
				// nodes too; the tree is rebuilt when the filter goes.
				return tea.Batch(cmd, m.search.Refresh())
			}
			if changed {
				m.afterPage(n, before)
			}
			return tea.Batch(cmd, m.seek(), m.prefetch(), m.selectCmd())
		}
	case search.ResultMsg:
		if m.search != nil {
			return m.updateFilter(msg)
		}
	case views.ChangedMsg:
		return m.changed(msg)
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
		if m.TakesText() {
			return m.updateFilter(msg)
		}
		st, ok := m.common.Keys.Lookup(msg, m.Actions())
		if !ok {
			return nil
		}
		if !st.Enabled {
			return views.Disabled(st)
		}
		return m.do(st.Action)
	default:
		if m.TakesText() {
			return m.updateFilter(msg)
		}
	}
	return nil
}

// afterPage shows the children a page brought. Only the new rows are
// added, at the tail of n's children: loading a big collection costs the
// rows it brings, not the rows already shown (a full rebuild per page made
// loading quadratic).
func (m *Model) afterPage(n *Node, before int) {
	if !n.expanded || !m.visible(n) {
		return
	}
	after := n.Children.Contiguous()
	tail := m.findTail(n)
	if after < before || tail < 0 {
		m.rebuild()
		return
	}
	depth := m.rows[tail].depth
	var add []row
	for i := before; i < after; i++ {
		c, _ := n.Children.At(i)
		add = flattenTo(add, *c, depth)
	}
	removed := 0
	if !keepsTail(n) {
		m.rows = append(m.rows[:tail], m.rows[tail+1:]...)
		removed = 1
	}
	m.rows = slices.Insert(m.rows, tail, add...)
	// A cursor on the tail row stays put: it is now on the first new child.
	if m.cursor > tail {
		m.cursor += len(add) - removed
	}
	m.clamp()
}

// findTail is the index of n's tail row, searched outward from the cursor
// (pages come for collections near it), or -1.
func (m *Model) findTail(n *Node) int {
	for d := 0; d < len(m.rows); d++ {
		for _, i := range [2]int{m.cursor + d, m.cursor - d - 1} {
			if i >= 0 && i < len(m.rows) && m.rows[i].node == n && m.rows[i].kind == rowTail {
				return i
			}
		}
		if m.cursor+d >= len(m.rows) && m.cursor-d-1 < 0 {
			break
		}
	}
	return -1
}

// keepsTail reports whether n's children end with a tail row: while more
// can load (or failed, or loads), or to say "(none)".
func keepsTail(n *Node) bool {
	return tailKind(n) != rowEmpty || n.Children.Total() == 0 && len(n.Static) == 0
}

// visible reports whether all of n's ancestors are expanded.
func (m *Model) visible(n *Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if !p.expanded {
			return false
		}
	}
	return true
}

func (m *Model) do(a keymap.Action) tea.Cmd {
	if to, ok := views.Step(a, m.cursor, len(m.rows), m.rowsHigh()); ok {
		return m.moveTo(to)
	}
	switch a {
	case keymap.Expand:
		return m.expandCursor()
	case keymap.Collapse:
		return m.collapseCursor()
	case keymap.Open:
		n := m.Selected()
		if m.filtering() && n.Expandable() && !n.Kind.IsCollection() {
			// Enter on a match shows it in place, expanded.
			m.clearFilter()
			cmd := m.expand(n)
			m.rebuild()
			return tea.Batch(cmd, m.selectCmd())
		}
		if n.Kind.IsCollection() || !n.Expandable() {
			if m.cfg.Open != nil {
				return m.cfg.Open(n)
			}
			return nil
		}
		if n.expanded {
			n.expanded = false
			m.rebuild()
			return nil
		}
		return m.expandCursor()
	case keymap.Table:
		return m.cfg.Table(m.Selected())
	case keymap.Filter:
		return m.openFilter()
	case keymap.OnlyFlagged:
		return m.cfg.Deprecated(repoOf(m.Selected()))
	case keymap.Bind:
		return m.cfg.Bind(m.Selected())
	case keymap.Edit:
		return m.startEdit()
	case keymap.New:
		return m.cfg.New(m.Selected())
	case keymap.Delete:
		return m.cfg.Delete(m.Selected())
	case keymap.Back:
		if m.filtering() {
			m.clearFilter()
			return m.selectCmd()
		}
	case keymap.Refresh:
		return m.refresh()
	case keymap.Copy:
		text, what := m.cfg.Copy(m.Selected())
		return views.Copy(text, what)
	case keymap.CopyRef:
		return views.Copy(m.cfg.CopyRef(m.Selected()))
	}
	return nil
}

// expandCursor expands the node under the cursor, steps into an expanded
// one, or loads more on a pseudo row.
func (m *Model) expandCursor() tea.Cmd {
	r := m.rows[m.cursor]
	n := r.node
	kind := r.kind
	if kind == rowTail {
		kind = tailKind(n)
	}
	switch kind {
	case rowMore:
		return n.Children.Ensure(n.Children.Contiguous(), 0)
	case rowFailed:
		return n.Children.Retry(n.Children.Contiguous(), 0)
	case rowLoading, rowEmpty:
		return nil
	}
	if !n.Expandable() {
		return nil
	}
	if n.expanded {
		return m.moveTo(m.cursor + 1)
	}
	cmd := m.expand(n)
	m.rebuild()
	return tea.Batch(cmd, m.prefetch())
}

// expand shows n's children, starting its list and the lists of its static
// children (so that collection nodes show their totals at once).
func (m *Model) expand(n *Node) tea.Cmd {
	n.expanded = true
	cmds := []tea.Cmd{m.start(n)}
	for _, s := range n.Static {
		if s.Kind.IsCollection() {
			cmds = append(cmds, m.start(s))
		}
	}
	return tea.Batch(cmds...)
}

// start asks for the first page of n's children once.
func (m *Model) start(n *Node) tea.Cmd {
	if n.Children == nil || n.started {
		return nil
	}
	n.started = true
	m.lists = append(m.lists, n)
	return n.Children.Start()
}

// collapseCursor collapses the node under the cursor or goes to its parent.
func (m *Model) collapseCursor() tea.Cmd {
	r := m.rows[m.cursor]
	n := r.node
	if r.kind == rowNode && n.expanded {
		n.expanded = false
		m.rebuild()
		return nil
	}
	target := n.Parent
	if r.kind != rowNode {
		target = n
	}
	if target == nil {
		return nil
	}
	for i, rr := range m.rows {
		if rr.kind == rowNode && rr.node == target {
			return m.moveTo(i)
		}
	}
	return nil
}

// refresh reloads the collection under the cursor (or the one a pseudo row
// belongs to).
func (m *Model) refresh() tea.Cmd {
	r := m.rows[m.cursor]
	n := r.node
	if r.kind == rowNode && n.Children == nil {
		n = n.Parent
	}
	if n == nil || n.Children == nil {
		return views.Flash("nothing to refresh here")
	}
	if err, _ := n.Children.Err(); err != nil {
		return n.Children.Retry(n.Children.Contiguous(), 0)
	}
	if !n.started {
		return m.start(n)
	}
	cmd := n.Children.Reset(n.Children.Order())
	m.rebuild()
	return cmd
}

// moveTo puts the cursor on row i (clamped).
func (m *Model) moveTo(i int) tea.Cmd {
	m.cursor = i
	m.clamp()
	return tea.Batch(m.prefetch(), m.selectCmd())
}

// prefetch asks for the next page of any collection whose "more" row is
// within a screen of the cursor, so steady scrolling never waits.
func (m *Model) prefetch() tea.Cmd {
	var cmds []tea.Cmd
	for i := max(m.cursor-m.height, 0); i < min(m.cursor+m.height+1, len(m.rows)); i++ {
		if r := m.rows[i]; r.kind == rowTail && tailKind(r.node) == rowMore {
			l := r.node.Children
			cmds = append(cmds, l.Ensure(l.Contiguous(), 0))
		}
	}
	return tea.Batch(cmds...)
}

func (m *Model) selectCmd() tea.Cmd {
	n := m.Selected()
	if n == nil || n == m.selected || m.cfg.Select == nil {
		return nil
	}
	m.selected = n
	return m.cfg.Select(n)
}

func (m *Model) clamp() {
	m.cursor = min(max(m.cursor, 0), max(len(m.rows)-1, 0))
	h := m.rowsHigh()
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+h {
		m.offset = m.cursor - h + 1
	}
	m.offset = min(max(m.offset, 0), max(len(m.rows)-h, 0))
}

// rebuild flattens the expanded tree into rows, keeping the cursor on the
// same node. It runs on structural changes (expand, collapse, a page), never
// in View.
func (m *Model) rebuild() {
	var keep *Node
	keepKind, keepAt := rowNode, m.cursor
	if m.cursor < len(m.rows) {
		keep, keepKind = m.rows[m.cursor].node, m.rows[m.cursor].kind
	}
	m.rows = m.rows[:0]
	for _, r := range m.cfg.Roots {
		m.flatten(r, 0)
	}
	if keep != nil {
		// The same row if it is still there; a tail row that gave way to
		// loaded children leaves the cursor where it was, on the first of
		// them.
		for i, r := range m.rows {
			if r.node == keep && r.kind == keepKind {
				keepAt = i
				break
			}
		}
	}
	m.cursor = keepAt
	m.clamp()
}

func (m *Model) flatten(n *Node, depth int) { m.rows = flattenTo(m.rows, n, depth) }

// flattenTo appends the rows of n and its visible descendants.
func flattenTo(rows []row, n *Node, depth int) []row {
	rows = append(rows, row{node: n, kind: rowNode, depth: depth})
	if !n.expanded {
		return rows
	}
	if l := n.Children; l != nil {
		for i := range l.Contiguous() {
			c, _ := l.At(i)
			rows = flattenTo(rows, *c, depth+1)
		}
		if keepsTail(n) {
			rows = append(rows, row{node: n, kind: rowTail, depth: depth + 1})
		}
	}
	for _, s := range n.Static {
		rows = flattenTo(rows, s, depth+1)
	}
	return rows
}

// repoOf is the repo a node is or belongs to (a tag's repo), or nil.
func repoOf(n *Node) *Node {
	switch {
	case n == nil:
		return nil
	case n.Kind == KindRepo:
		return n
	case n.Kind == KindTag:
		return n.Parent
	}
	return nil
}

// changed loads again the started collections a change touched.
func (m *Model) changed(msg views.ChangedMsg) tea.Cmd {
	var cmds []tea.Cmd
	for _, n := range m.lists {
		for _, id := range msg.IDs {
			if n.ID == id {
				cmds = append(cmds, n.Children.Reset(n.Children.Order()))
			}
		}
	}
	if len(cmds) > 0 && !m.filtering() {
		m.rebuild()
	}
	return tea.Batch(cmds...)
}

// creates reports whether `n` makes something in a node of this kind.
func creates(k Kind) bool {
	switch k {
	case KindFolder, KindOrg, KindRepos, KindRepo, KindIdentities, KindSubscriptions, KindBindings:
		return true
	}
	return false
}

// deletable reports whether a node's resource can be deleted from the tree.
func deletable(n *Node) bool {
	switch n.Kind {
	case KindFolder, KindRepo, KindTag, KindIdentity, KindSubscription, KindBinding:
		return n.Item != nil
	}
	return false
}
