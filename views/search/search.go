// Package search is the `/` filter line that tables and the tree share: a
// text input whose every keystroke runs the fuzzy filter (views/filter) in a
// command over a snapshot of names, with stale results dropped, a longer
// pattern narrowing the previous matches, and the previous run cancelled.
// The owner gives the snapshot and maps match indexes back to its rows.
package search

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/filter"
	"canopy/views/safe"
	"canopy/views/text"
)

// Names is a snapshot of the searchable text of loaded rows: Primary (the
// name) ranks first; Secondary (other visible columns) may be nil. Rows
// says which row of the owner each name is (a list position, a node).
type Names struct {
	Primary, Secondary []string
	Rows               []int
	// Ref is the owner's own record of the rows the names were taken from
	// (the tree keeps its nodes here), so a result never meets the rows of
	// another snapshot.
	Ref any
}

// Snapshot builds Names. The owner makes one in Update, capturing only what
// it needs cheaply (slice headers of loaded rows); the snapshot itself runs
// in the filter's command, off the UI loop, so it must read nothing that
// later updates write.
type Snapshot func() Names

// ResultMsg carries the answer to one keystroke's query.
type ResultMsg struct {
	owner *Model
	seq   int
	query filter.Query
	// Matches are indexes into the snapshot: rows whose name matches, best
	// first, then rows that match only on other columns.
	matches []int
	names   Names
	primary filter.Result // the fuzzy result on Primary, for narrowing
	err     error
}

// Model is a filter line.
type Model struct {
	common views.Common
	input  textinput.Model
	typing bool

	query   filter.Query
	seq     int
	matches []int // nil when no filter applies
	err     error
	names   Names
	prev    filter.Result // fuzzy result on Primary, for narrowing
	stale   bool          // the rows changed since names was built
	cancel  context.CancelFunc
	snap    func() Snapshot
}

// New makes a filter line; snapshot is called in Update when a query needs
// fresh names (the first keystroke, or after Refresh).
func New(common views.Common, snapshot func() Snapshot) *Model {
	in := views.NewInput(common, "/", "fuzzy filter   !text inverts   re:expr regular expression")
	return &Model{common: common, input: in, snap: snapshot}
}

// Typing reports whether the line has the keyboard.
func (m *Model) Typing() bool { return m.typing }

// Active reports whether a filter applies (typed or kept).
func (m *Model) Active() bool { return m.matches != nil || m.typing && !m.query.IsEmpty() }

// Query is the filter as typed.
func (m *Model) Query() filter.Query { return m.query }

// Matches are the matching snapshot indexes, best first; nil when no filter
// applies.
func (m *Model) Matches() []int { return m.matches }

// Names is the snapshot the matches index into.
func (m *Model) Names() Names { return m.names }

// Err is the last query's error (an invalid regular expression).
func (m *Model) Err() error { return m.err }

// Open gives the line the keyboard, keeping what was typed.
func (m *Model) Open() tea.Cmd {
	m.typing = true
	return m.input.Focus()
}

// Clear drops the filter.
func (m *Model) Clear() {
	m.typing = false
	m.input.Blur()
	m.input.SetValue("")
	m.query = filter.Query{}
	m.matches, m.err, m.prev = nil, nil, filter.Result{}
	m.names = Names{}
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
}

// Refresh runs the query again on a new snapshot (the rows changed).
func (m *Model) Refresh() tea.Cmd {
	m.stale = true
	if m.query.IsEmpty() {
		return nil
	}
	return m.run()
}

// SetWidth sets the input's width.
func (m *Model) SetWidth(w int) { m.input.SetWidth(max(w-30, 10)) }

// Actions of a line that has the keyboard.
func (m *Model) Actions() []keymap.State {
	return []keymap.State{keymap.On(keymap.Accept), keymap.On(keymap.Cancel)}
}

// Update edits the pattern (running the filter on each change), keeps it on
// enter, drops it on esc; it takes its own results.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ResultMsg:
		if msg.owner != m || msg.seq != m.seq {
			return nil
		}
		m.err = msg.err
		if msg.err == nil {
			m.matches, m.names, m.prev = msg.matches, msg.names, msg.primary
		}
		return nil
	case tea.KeyPressMsg:
		if !m.typing {
			return nil
		}
		if st, ok := m.common.Keys.Lookup(msg, m.Actions()); ok {
			switch st.Action {
			case keymap.Accept:
				m.typing = false
				m.input.Blur()
				if m.query.IsEmpty() {
					m.Clear()
				}
				return nil
			case keymap.Cancel:
				m.Clear()
				return nil
			}
		}
		var cmd tea.Cmd
		before := m.input.Value()
		m.input, cmd = m.input.Update(msg)
		if v := m.input.Value(); v != before {
			m.query = filter.ParseQuery(v)
			if m.query.IsEmpty() {
				m.seq++
				m.matches, m.err = nil, nil
				return cmd
			}
			return tea.Batch(cmd, m.run())
		}
		return cmd
	}
	if m.typing {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return cmd
	}
	return nil
}

// run starts the query in a command, cancelling the one before.
func (m *Model) run() tea.Cmd {
	if m.cancel != nil {
		m.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	m.seq++
	names := m.names
	var build Snapshot
	if len(names.Primary) == 0 || m.stale {
		build, m.stale = m.snap(), false
	}
	owner, seq, q, prev := m, m.seq, m.query, m.prev
	return func() tea.Msg {
		if build != nil {
			names, prev = build(), filter.Result{}
		}
		matches, primary, err := Run(ctx, q, names, prev)
		return ResultMsg{owner: owner, seq: seq, query: q, matches: matches, names: names, primary: primary, err: err}
	}
}

// Run filters names: rows whose Primary matches come first (ranked as
// fuzzy.Find ranks them), then rows that match only on Secondary. prev (the
// last fuzzy result on Primary) lets an extended pattern search only its
// matches; the fuzzy result on Primary is returned for the next keystroke.
func Run(ctx context.Context, q filter.Query, names Names, prev filter.Result) ([]int, filter.Result, error) {
	var res filter.Result
	var err error
	if prev.Total == len(names.Primary) && q.Kind == filter.Fuzzy {
		res, err = filter.Narrow(ctx, q, names.Primary, prev)
	} else {
		res, err = filter.Filter(ctx, q, names.Primary)
	}
	if err != nil {
		return nil, filter.Result{}, err
	}
	out := make([]int, 0, len(res.Matches))
	for _, mt := range res.Matches {
		out = append(out, mt.Index)
	}
	if q.Kind != filter.Fuzzy {
		return out, filter.Result{}, nil
	}
	if names.Secondary == nil {
		return out, res, nil
	}
	// Rows whose name does not match but another column does.
	inPrimary := make([]bool, len(names.Primary))
	for _, i := range out {
		inPrimary[i] = true
	}
	sec, err := filter.Filter(ctx, q, names.Secondary)
	if err != nil {
		return nil, filter.Result{}, err
	}
	for _, mt := range sec.Matches {
		if !inPrimary[mt.Index] {
			out = append(out, mt.Index)
		}
	}
	return out, res, nil
}

// View is the line: the input, or the kept query, with a count.
func (m *Model) View(width int, count string) string {
	th := m.common.Theme
	right := th.Muted.Render(count)
	if m.err != nil {
		right = th.Bad.Render(safe.String(m.err.Error()))
	}
	left := m.input.View()
	if !m.typing {
		left = th.Prompt.Render("/") + th.Value.Render(m.query.String()) + th.Muted.Render("  (/ edits, esc clears)")
	}
	room := width - text.Width(right) - 2
	left = text.Cut(left, max(room, 1), "")
	return left + strings.Repeat(" ", max(width-text.Width(left)-text.Width(right), 1)) + right
}

// Mark styles the characters of s[from:] that the fuzzy query matches
// (computed for this one string: only shown rows are marked), writing
// resume after each so the surrounding style goes on.
func (m *Model) Mark(s string, from int, hl theme.Paint, resume string) string {
	q := m.query
	if q.Kind != filter.Fuzzy || q.IsEmpty() || from >= len(s) {
		return s
	}
	idx := filter.Highlight(q.Pattern, s[from:])
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, i := range idx {
		i += from
		end := i + 1
		for end < len(s) && s[end]&0xC0 == 0x80 {
			end++
		}
		b.WriteString(s[last:i])
		b.WriteString(hl.Render(s[i:end]))
		b.WriteString(resume)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
