// Package table is canopy's full-screen table of one collection: columns
// sized from the rows on screen to fit the width, a cursor over a lazily
// paged list (paging.List), server-side sort, and rendering of the visible
// rows only, so a frame costs the same with a thousand loaded rows or a
// million.
package table

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/search"
)

// Order is one step of the `s` sort cycle.
type Order struct {
	Label   string // "name ↑"
	OrderBy string // "name", "name desc", ...
	// Local: an order the server does not have, made by Config.Sort
	// once every row is loaded (OrderBy is what the rows load in).
	Local bool
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
	Title   safe.Text
	Columns []Column[T]
	List    *paging.List[T]
	Key     func(*T) string
	Orders  []Order // the sort cycle; the first is the initial order
	// Sort orders every row for the Orders entry marked Local: the
	// positions of items (all the list's rows, in list order) in that
	// order. It runs in a command: it must only read the items.
	Sort func(items []*T) []int
	// Refused says which orders the server is known to refuse for this
	// collection: they are skipped (nil: none known).
	Refused func(order string) bool
	RowKind func(*T) RowKind
	// Open is what enter does on a row; nil disables it with OpenReason.
	Open func(*T) tea.Cmd
	// Page opens a row's own page (`p`) when Open opens something else;
	// nil when Open is its page.
	Page       func(*T) tea.Cmd
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
	// Advisories opens the advisories of the row's image (`a`: a repo's,
	// a tag's repo's); nil when the rows have none.
	Advisories func(*T) tea.Cmd
	// Edit is the in-place editor of a row's main field; nil (or a nil
	// result) when the rows cannot be edited.
	Edit func(*T) *form.Config
	// New opens the create form of the collection; nil when it has none.
	New func() tea.Cmd
	// Cells gives a row's cells a cursor of their own (cells.go); nil:
	// the row is the only thing enter opens.
	Cells *Cells[T]
	// Holds says whether an item belongs in the table (its filters): a
	// new version of a row that no longer does leaves it (a binding whose
	// role changed, in a table of that role's). Nil: every one does.
	Holds func(*T) bool
	// Watch says whether a change (one of a ChangedMsg's: the repos of a
	// folder, a repo) concerns this table, which then loads again.
	Watch func(views.Change) bool
	// Hidden is the same collection with the rows the API hides by default
	// (tags of some kinds), toggled by H; nil when there are none.
	Hidden *Hidden[T]
	// Loaded is told about the items each page brings (the shell looks up
	// the names they refer to); nil when not needed.
	Loaded func(items []*T) tea.Cmd
	// Off are actions users expect here that the rows cannot do, each with
	// the reason (shown dimmed, said when the key is pressed).
	Off []keymap.State
	// RowOff are what the row under the cursor cannot do of what the
	// table offers (a built-in role's edit and delete), each with the
	// reason: they stand in for the table's own while it is there. While
	// rows are marked, delete acts on those and follows them instead.
	RowOff func(*T) []keymap.State
}

// Model is a table screen.
type Model[T any] struct {
	closed bool // it closed itself (see views.Closer)
	common views.Common
	cfg    Config[T]
	order  int
	// refused are the orders the server refuses here (skipped by s).
	refused map[string]bool
	// toEnd: G was pressed on a list whose end is not known yet; the
	// cursor follows each page to the last row until it is (any key stops).
	toEnd bool

	cursor, offset int
	// cellAt is the column of the cell cursor (Config.Cells).
	cellAt        int
	width, height int
	widths        []int // per column, 0 = hidden; sized from win by relayout
	win           window[T]
	paints        paints
	frame         int // spinner frame
	focusUID      string
	focusName     string // its first cell, to say where it went
	focusWhy      string // the order it was sorted into; "" for a reload
	// focusLooked is the list generation whose loaded rows refocus has
	// looked through (then only each new page's rows are looked at); -1:
	// none yet.
	focusLooked int
	selectedUID string

	search     *search.Model
	keep       string // the filter to start with (Start)
	unfiltered int    // list position the cursor was on when filtering began
	base       *paging.List[T]
	baseCursor int
	chip       string // the server filter in force, e.g. `name = "nginx"`
	// chipPattern is the pattern that made chip; narrowed: Start chose
	// the columns.
	chipPattern string
	narrowed    bool

	marks    map[string]bool // by key
	only     bool            // showing flagged rows only
	onlyRows []int           // their positions, in order
	onlyGen  int             // the list generation onlyRows belongs to
	// keepFrom is where the page of rows a view of flagged rows holds
	// besides them starts (see keeps).
	keepFrom int
	snapGen  int // the list generation of the filter's last names
	// perm is the local order (see local.go): the list positions of the
	// rows shown (the flagged ones when permOnly) in that order, for the
	// list generation permGen; sorting: a sort is running.
	perm     []int
	permGen  int
	permOnly bool
	sorting  bool
	counted  bool // Flag.Counted was told about this scan

	hidden hiddenState // the H toggle

	editor *form.Model // the row being edited in place
}

// New makes a table; call Init for its first page.
func New[T any](common views.Common, cfg Config[T]) *Model[T] {
	if len(cfg.Orders) == 0 {
		cfg.Orders = []Order{{Label: "default"}}
	}
	m := &Model[T]{common: common, cfg: cfg, marks: map[string]bool{}, refused: map[string]bool{}}
	m.startOrder()
	if cfg.Flag != nil && cfg.FlaggedFirst {
		m.only, m.onlyGen = true, -1 // the first page starts the scan
	}
	if cfg.Cells != nil {
		m.cellAt = cfg.Cells.From
	}
	return m
}

// Init asks for the first page, in the order Start chose (else the first
// of the cycle), and keeps Start's filter.
func (m *Model[T]) Init() tea.Cmd {
	m.thinList()
	load := m.cfg.List.Reset(m.cfg.Orders[m.order].OrderBy)
	if m.keep == "" {
		return load
	}
	m.openFilter()
	return tea.Batch(load, m.search.Keep(m.keep))
}

// Title names the table in the breadcrumb: what it shows right now
// ("deprecated tags of python" while only those are), with its server
// filter.
func (m *Model[T]) Title() safe.Text {
	t := m.cfg.Title
	if m.only && m.cfg.Flag != nil {
		t = safe.Of(m.cfg.Flag.Name) + " " + t
	}
	if m.hidden.on {
		t += " (+" + safe.Of(m.cfg.Hidden.Noun) + ")"
	}
	if m.chip != "" {
		t += " [" + safe.Of(m.chip) + "]"
	}
	return t
}

// Noun names the rows, for "does not apply to …": the title up to where
// it says whose they are.
func (m *Model[T]) Noun() string {
	t := string(m.Title())
	for _, sep := range []string{" of ", " under ", " (", " ["} {
		t, _, _ = strings.Cut(t, sep)
	}
	return t
}

// List is the table's paged list.
func (m *Model[T]) List() *paging.List[T] { return m.cfg.List }

// Cursor is the row under the cursor.
func (m *Model[T]) Cursor() int { return m.cursor }

// Busy reports whether a page is loading.
func (m *Model[T]) Busy() bool { return m.cfg.List.Busy() }

// Ready reports whether the first page came (or failed): keys typed ahead
// of it wait for it in the shell.
func (m *Model[T]) Ready() bool {
	err, _ := m.cfg.List.Err()
	return m.cfg.List.Total() >= 0 || err != nil
}

// Current is the row under the cursor as a resource pointer (*T), nil
// when it is not loaded: the shell asks what the user is looking at.
func (m *Model[T]) Current() any {
	if it, ok := m.Selected(); ok {
		return it
	}
	return nil
}

// Selected is the item under the cursor, if loaded.
func (m *Model[T]) Selected() (*T, bool) { return m.cfg.List.At(m.position(m.cursor)) }

// SetSize lays the columns out for a width and height.
func (m *Model[T]) SetSize(w, h int) {
	m.width, m.height = w, h
	m.paints = paintsOf(m.common.Theme)
	if m.search != nil {
		m.search.SetWidth(w)
	}
	m.clamp()
	m.relayout()
}

// bodyRows is the number of item rows that fit (header and info line aside).
func (m *Model[T]) bodyRows() int { return max(m.height-2, 1) }

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
	case views.JumpMsg:
		return m.jump(msg)
	case sortedMsg:
		return m.sorted(msg)
	case views.UpdatedMsg:
		m.replaced(msg)
		return nil
	case views.DeletedMsg:
		for _, uid := range msg.UIDs {
			m.removeRow(uid)
		}
		if m.only {
			m.rescanFlag()
		}
		m.clamp()
		return m.sortLocal()
	case views.UnmarkMsg:
		m.unmark(msg.UIDs)
		return nil
	case views.ChangedMsg:
		if m.cfg.Watch != nil && slices.ContainsFunc(msg.Changes, m.cfg.Watch) {
			m.keepFocus()
			if msg.Focus != "" {
				m.focusUID = msg.Focus
			}
			return m.cfg.List.Refresh()
		}
		return nil
	case paging.PageMsg:
		changed, cmd := m.cfg.List.Update(msg)
		if r, ok := m.cfg.List.TakeRefusal(); ok {
			cmd = tea.Batch(cmd, m.fellBack(r))
		}
		if !changed {
			return cmd
		}
		var refilter tea.Cmd
		var flagged []int
		flagOK := true
		if m.only {
			// The flagged rows first: a filter searches those.
			var scan tea.Cmd
			scan, flagged, flagOK = m.flagPage()
			refilter = tea.Batch(scan, m.countFlagged(), m.countHidden())
		}
		if m.search != nil && m.search.Active() {
			refilter = tea.Batch(refilter, m.refilterPage(flagged, flagOK))
		}
		refilter = tea.Batch(refilter, m.sortLocal())
		moved := m.refocus()
		if m.toEnd {
			m.cursor = m.rows() - 1
			m.toEnd = !m.cfg.List.Exact()
		}
		m.clamp()
		return tea.Batch(cmd, refilter, moved, m.loaded(), m.ensure(), m.selectCmd())
	case hiddenMsg:
		m.gotHidden(msg)
		return nil
	case NamesMsg:
		return m.namesLearned()
	case search.ResultMsg:
		if m.search != nil {
			return m.updateFilter(msg)
		}
	case deletedMsg[T]:
		if msg.owner != m {
			return nil
		}
		return tea.Batch(m.deleted(msg.settled), m.selectCmd())
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
		states := m.Actions()
		if m.TakesText() {
			// Typed keys are text, but for the server filter the line
			// offers.
			if st, ok := m.common.Keys.Lookup(msg, states); !ok || st.Action != keymap.ServerFilter {
				return m.updateFilter(msg)
			}
		}
		if m.search != nil && m.search.HoldOpen(msg) {
			return nil
		}
		cmd, _ := views.Press(m.common.Keys, msg, states)
		return cmd
	default:
		if m.TakesText() {
			return m.updateFilter(msg)
		}
	}
	return nil
}

// loaded tells the shell about the items the last page brought.
func (m *Model[T]) loaded() tea.Cmd {
	if m.cfg.Loaded == nil {
		return nil
	}
	start, end := m.cfg.List.Added()
	items := make([]*T, 0, end-start)
	for p := start; p < end; p++ {
		if it, ok := m.cfg.List.At(p); ok {
			items = append(items, it)
		}
	}
	if len(items) == 0 {
		return nil
	}
	return m.cfg.Loaded(items)
}

// Closed reports whether it closed itself: the shell then takes it off.
func (m *Model[T]) Closed() bool { return m.closed }
