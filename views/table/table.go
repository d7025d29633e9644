// Package table is canopy's full-screen table of one collection: columns
// that fit the width, a cursor over a lazily paged list (paging.List),
// server-side sort, and rendering of the visible rows only, so a frame costs
// the same with a thousand loaded rows or a million.
package table

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/search"
)

// Column declares one column of a table (in the manner of k9s renderers).
type Column[T any] struct {
	Title string
	// Width is the preferred width; Flex columns share what is left.
	Width int
	Flex  int
	// Min is the narrowest a flex column gets before columns are dropped;
	// Max (0: none) the widest, the rest of the width staying blank.
	Min, Max int
	// Drop orders columns for dropping when the width is short: higher
	// drops first; 0 never drops.
	Drop  int
	Right bool
	// Cell is the cell's text; it must already be safe to print
	// (views/safe), which the column definitions see to.
	Cell func(*T) string
	// Order is the order_by field this column is sorted by, for the header
	// mark ("name", "created_at", "update_time"); "" for none.
	Order string
	// Search puts the column's text in the filter's second tier (after
	// names). Its Cell runs off the UI loop, so it must read only the item.
	Search bool
}

// Order is one step of the `s` sort cycle.
type Order struct {
	Label   string // "name ↑"
	OrderBy string // "name", "name desc", ...
}

// RowKind tells how a row is drawn.
type RowKind int

// Row kinds.
const (
	RowNormal RowKind = iota
	RowDim
	RowDeprecated
)

// Config is what a table is made of.
type Config[T any] struct {
	Title   string
	Columns []Column[T]
	List    *paging.List[T]
	Key     func(*T) string
	Orders  []Order // the sort cycle; the first is the initial order
	RowKind func(*T) RowKind
	// Open is what enter does on a row; nil disables it with OpenReason.
	Open       func(*T) tea.Cmd
	OpenReason string
	// Copy gives the text `y` copies and what it is ("uid", "digest").
	Copy func(*T) (text, what string)
	// Select is told about the row under the cursor after each move (the
	// shell shows it in the detail pane); nil when not needed.
	Select func(*T) tea.Cmd
	// Server is the collection's exact server-side filter, if the API has one.
	Server *ServerFilter[T]
	// Flag is a property to triage by (deprecated), nil for none;
	// FlaggedFirst opens the table showing flagged rows only.
	Flag         *Flag[T]
	FlaggedFirst bool
	// Delete deletes items, nil when they cannot be deleted here.
	Delete *Delete[T]
	// CopyMany gives what `y` copies for several marked items.
	CopyMany func([]*T) (text, what string)
	// CopyRef gives what `Y` copies (a tag's pull reference); nil: nothing.
	CopyRef func(*T) (text, what string)
	// Bind starts binding a role with the marked items (or the one under
	// the cursor), nil when the rows cannot be bound.
	Bind func([]*T) tea.Cmd
	// Edit is the in-place editor of a row's main field; nil (or a nil
	// result) when the rows cannot be edited.
	Edit func(*T) *form.Config
	// New opens the create form of the collection; nil when it has none.
	New func() tea.Cmd
	// Watch says whether a change to a collection (a ChangedMsg id, such as
	// "repos:<group uid>") concerns this table, which then loads again.
	Watch func(id string) bool
}

// Model is a table screen.
type Model[T any] struct {
	common views.Common
	cfg    Config[T]
	order  int

	cursor, offset int
	width, height  int
	widths         []int // per column, 0 = hidden; computed by SetSize
	paints         paints
	frame          int // spinner frame
	focusUID       string
	selectedUID    string

	search     *search.Model
	unfiltered int // list position the cursor was on when filtering began
	base       *paging.List[T]
	baseCursor int
	chip       string // the server filter in force, e.g. `name = "nginx"`

	marks    map[string]bool // by key
	only     bool            // showing flagged rows only
	onlyRows []int           // their positions, in order
	onlyGen  int             // the list generation onlyRows belongs to

	editor *form.Model // the row being edited in place
}

// New makes a table; call Init for its first page.
func New[T any](common views.Common, cfg Config[T]) *Model[T] {
	if len(cfg.Orders) == 0 {
		cfg.Orders = []Order{{Label: "default"}}
	}
	m := &Model[T]{common: common, cfg: cfg, marks: map[string]bool{}}
	if cfg.Flag != nil && cfg.FlaggedFirst {
		m.only, m.onlyGen = true, -1 // the first page starts the scan
	}
	return m
}

// Init asks for the first page in the first order of the cycle.
func (m *Model[T]) Init() tea.Cmd {
	return m.cfg.List.Reset(m.cfg.Orders[m.order].OrderBy)
}

// Title names the table in the breadcrumb, with its server filter.
func (m *Model[T]) Title() string {
	if m.chip != "" {
		return m.cfg.Title + " [" + m.chip + "]"
	}
	return m.cfg.Title
}

// List is the table's paged list.
func (m *Model[T]) List() *paging.List[T] { return m.cfg.List }

// Cursor is the row under the cursor.
func (m *Model[T]) Cursor() int { return m.cursor }

// Busy reports whether a page is loading.
func (m *Model[T]) Busy() bool { return m.cfg.List.Busy() }

// Selected is the item under the cursor, if loaded.
func (m *Model[T]) Selected() (*T, bool) { return m.cfg.List.At(m.position(m.cursor)) }

// SetSize lays the columns out for a width and height.
func (m *Model[T]) SetSize(w, h int) {
	m.width, m.height = w, h
	m.widths = fit(m.cfg.Columns, w)
	m.paints = paintsOf(m.common.Theme)
	if m.search != nil {
		m.search.SetWidth(w)
	}
	m.clamp()
}

// bodyRows is the number of item rows that fit (header and info line aside).
func (m *Model[T]) bodyRows() int { return max(m.height-2, 1) }

// Actions lists what applies to a table.
func (m *Model[T]) Actions() []keymap.State {
	if m.editing() {
		return m.editor.Actions()
	}
	if m.TakesText() {
		states := m.search.Actions()
		if chip := m.serverChip(); chip != "" {
			states = append(states, keymap.On(keymap.ServerFilter))
		}
		return states
	}
	open := keymap.On(keymap.Open)
	if m.cfg.Open == nil {
		open = keymap.Off(keymap.Open, m.cfg.OpenReason)
	}
	sortState := keymap.On(keymap.Sort)
	if len(m.cfg.Orders) < 2 {
		sortState = keymap.Off(keymap.Sort, "this collection has one order")
	}
	copyState := keymap.On(keymap.Copy)
	if m.cfg.Copy == nil {
		copyState = keymap.Off(keymap.Copy, "nothing to copy here")
	}
	states := []keymap.State{open, keymap.On(keymap.Back), keymap.On(keymap.Filter), sortState, keymap.On(keymap.Refresh), copyState}
	if m.cfg.CopyRef != nil {
		states = append(states, keymap.On(keymap.CopyRef))
	}
	if m.cfg.Flag != nil {
		states = append(states, keymap.On(keymap.OnlyFlagged), keymap.On(keymap.MarkFlagged))
	}
	if m.cfg.Bind != nil {
		states = append(states, m.common.Change(keymap.Bind))
	}
	if m.cfg.Flag != nil || m.cfg.Delete != nil || m.cfg.CopyMany != nil || m.cfg.Bind != nil {
		states = append(states, keymap.On(keymap.Mark))
	}
	if m.cfg.Edit != nil {
		states = append(states, m.common.Change(keymap.Edit))
	}
	if m.cfg.New != nil {
		states = append(states, m.common.Change(keymap.New))
	}
	if m.cfg.Delete != nil {
		states = append(states, m.common.Change(keymap.Delete))
	}
	if m.serverChip() != "" && m.chip == "" {
		states = append(states, keymap.On(keymap.ServerFilter))
	}
	return append(states,
		withAction(open, keymap.Expand), keymap.Quiet(keymap.Collapse),
		keymap.Quiet(keymap.Up), keymap.Quiet(keymap.Down), keymap.Quiet(keymap.Top), keymap.Quiet(keymap.Bottom),
		keymap.Quiet(keymap.HalfUp), keymap.Quiet(keymap.HalfDown), keymap.Quiet(keymap.PageUp), keymap.Quiet(keymap.PageDown),
	)
}

// Update handles keys, mouse, pages and spinner ticks.
func (m *Model[T]) Update(msg tea.Msg) tea.Cmd {
	if m.editing() {
		switch msg.(type) {
		case paging.PageMsg, views.UpdatedMsg, views.TickMsg:
		default:
			return m.updateEdit(msg)
		}
	}
	switch msg := msg.(type) {
	case views.UpdatedMsg:
		m.replaced(msg)
		return nil
	case views.DeletedMsg:
		for _, uid := range msg.UIDs {
			m.cfg.List.Remove(uid)
			delete(m.marks, uid)
		}
		if m.only {
			m.rescanFlag()
		}
		m.clamp()
		return nil
	case views.ChangedMsg:
		if m.cfg.Watch != nil && slices.ContainsFunc(msg.IDs, m.cfg.Watch) {
			m.keepFocus()
			return m.cfg.List.Reset(m.cfg.Orders[m.order].OrderBy)
		}
		return nil
	case paging.PageMsg:
		changed, cmd := m.cfg.List.Update(msg)
		if !changed {
			return cmd
		}
		var refilter tea.Cmd
		if m.search != nil && m.search.Active() {
			refilter = m.search.Refresh()
		}
		if m.only {
			refilter = tea.Batch(refilter, m.flagPage())
		}
		m.refocus()
		m.clamp()
		return tea.Batch(cmd, refilter, m.ensure(), m.selectCmd())
	case search.ResultMsg:
		if m.search != nil {
			return m.updateFilter(msg)
		}
	case dialog.DoneMsg:
		return tea.Batch(m.deleted(msg), m.selectCmd())
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
		if row := msg.Y - 1; row >= 0 && row < m.bodyRows() {
			return m.moveTo(m.offset + row)
		}
	case tea.KeyPressMsg:
		st, ok := m.common.Keys.Lookup(msg, m.Actions())
		if m.TakesText() && (!ok || st.Action != keymap.ServerFilter) {
			return m.updateFilter(msg)
		}
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

// do runs an enabled action.
func (m *Model[T]) do(a keymap.Action) tea.Cmd {
	if to, ok := views.Step(a, m.cursor, m.rows(), m.bodyRows()); ok {
		return m.moveTo(to)
	}
	switch a {
	case keymap.Open, keymap.Expand:
		if it, ok := m.Selected(); ok {
			return m.cfg.Open(it)
		}
		return views.Flash("row not loaded yet")
	case keymap.Back, keymap.Collapse:
		switch {
		case m.search != nil && m.search.Active():
			was := m.position(m.cursor)
			m.search.Clear()
			m.cursor = max(was, 0)
			m.offset = max(0, m.cursor-m.bodyRows()/2)
			m.clamp()
			return m.ensure()
		case m.only:
			return m.toggleOnly()
		case len(m.marks) > 0:
			n := len(m.marks)
			clear(m.marks)
			return views.Flash(fmt.Sprintf("unmarked %d rows", n))
		case m.chip != "":
			return m.removeChip()
		}
		return views.Back(m)
	case keymap.Mark:
		return m.toggleMark()
	case keymap.MarkFlagged:
		return m.markFlagged()
	case keymap.OnlyFlagged:
		return m.toggleOnly()
	case keymap.Delete:
		return m.deleteDialog()
	case keymap.Edit:
		return m.startEdit()
	case keymap.New:
		return m.cfg.New()
	case keymap.Bind:
		if ts := m.targets(); len(ts) > 0 {
			return m.cfg.Bind(ts)
		}
		return nil
	case keymap.Filter:
		return m.openFilter()
	case keymap.ServerFilter:
		return m.applyServerFilter()
	case keymap.Sort:
		return m.cycleSort()
	case keymap.Refresh:
		if err, _ := m.cfg.List.Err(); err != nil {
			return m.cfg.List.Retry(m.cursor, m.bodyRows())
		}
		m.keepFocus()
		return m.cfg.List.Reset(m.cfg.Orders[m.order].OrderBy)
	case keymap.Copy:
		return m.copyTargets()
	case keymap.CopyRef:
		if it, ok := m.Selected(); ok {
			return views.Copy(m.cfg.CopyRef(it))
		}
		return views.Flash("row not loaded yet")
	}
	return nil
}

// cycleSort switches to the next server order, keeping the cursor on the
// same item once it is loaded again.
func (m *Model[T]) cycleSort() tea.Cmd {
	m.order = (m.order + 1) % len(m.cfg.Orders)
	m.keepFocus()
	return tea.Batch(m.cfg.List.Reset(m.cfg.Orders[m.order].OrderBy),
		views.Flash(fmt.Sprintf("sorted by %s", m.cfg.Orders[m.order].Label)))
}

// keepFocus remembers the item under the cursor so that refocus can find
// it after a reload.
func (m *Model[T]) keepFocus() {
	m.focusUID = ""
	if it, ok := m.Selected(); ok {
		m.focusUID = m.cfg.Key(it)
	}
}

// refocus moves the cursor to the remembered item when a page brings it.
func (m *Model[T]) refocus() {
	if m.focusUID == "" {
		return
	}
	found := -1
	m.cfg.List.Each(func(pos int, it *T) bool {
		if m.cfg.Key(it) == m.focusUID {
			found = pos
			return false
		}
		return true
	})
	if found >= 0 {
		m.cursor = found
		m.offset = max(0, found-m.bodyRows()/2)
		m.focusUID = ""
	} else if m.cfg.List.Total() >= 0 && !m.cfg.List.Busy() {
		m.cursor, m.offset = 0, 0
		m.focusUID = ""
	}
}

// moveTo puts the cursor on row i (clamped) and loads around it.
func (m *Model[T]) moveTo(i int) tea.Cmd {
	m.cursor = i
	m.focusUID = ""
	m.clamp()
	return tea.Batch(m.ensure(), m.selectCmd())
}

func (m *Model[T]) ensure() tea.Cmd {
	if m.filtering() || m.only {
		return nil // a filter shows loaded rows only; the flag scan loads the rest
	}
	return m.cfg.List.Ensure(m.cursor, m.bodyRows())
}

// selectCmd tells the shell about a new row under the cursor.
func (m *Model[T]) selectCmd() tea.Cmd {
	if m.cfg.Select == nil {
		return nil
	}
	it, ok := m.Selected()
	if !ok {
		return nil
	}
	uid := m.cfg.Key(it)
	if uid == m.selectedUID {
		return nil
	}
	m.selectedUID = uid
	return m.cfg.Select(it)
}

// clamp keeps the cursor on a row and the window around the cursor.
func (m *Model[T]) clamp() {
	n := m.rows()
	m.cursor = min(max(m.cursor, 0), max(n-1, 0))
	rows := m.bodyRows()
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+rows {
		m.offset = m.cursor - rows + 1
	}
	m.offset = min(max(m.offset, 0), max(n-rows, 0))
}

// withAction is s for another action (same enabled state and reason),
// hidden from the footer: for keys that mean the same here.
func withAction(s keymap.State, a keymap.Action) keymap.State {
	s.Action, s.Hide = a, true
	return s
}
