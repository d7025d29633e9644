// Package search is the `/` filter line that tables and the tree share: a
// text input whose every keystroke runs the fuzzy filter (views/filter) in a
// command over a snapshot of names, with stale results dropped, a longer
// pattern narrowing the previous matches, and the previous run cancelled.
// The owner gives the snapshot and maps match indexes back to its rows.
package search

import (
	"context"
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/theme"
	"canopy/views"
	"canopy/views/filter"
)

// Names is a snapshot of the searchable text of loaded rows: Primary (the
// name) ranks first; Secondary (other visible columns) may be nil, or built
// by Later only when a query first needs it. Rows says which row of the
// owner each name is (a list position, a node).
type Names struct {
	Primary, Secondary []string
	Rows               []int
	// Later builds Secondary (nil when Secondary is given or there is
	// none). Building it is most of a first keystroke over a large table,
	// so the names' matches are answered first, without it.
	Later func() []string
	// Ref is the owner's own record of the rows the names were taken from
	// (the tree keeps its nodes here), so a result never meets the rows of
	// another snapshot.
	Ref any
	// unordered says rows were appended out of Rows' order (a page that
	// came before the one above it): narrowing would then rank ties by
	// index rather than row, so the next keystroke takes new names.
	unordered bool
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
	// tiers are the matches with their scores; narrow the results on each
	// column set, for narrowing (its Secondary's Query is empty until the
	// second part).
	tiers  tiers
	narrow Narrowing
	err    error
	// rest is set on the answer about Primary alone when rows matching
	// only on Secondary are still to come (in a second ResultMsg), which
	// narrowRest narrows (the result on Secondary of the names searched).
	rest       bool
	narrowRest filter.Result
	// extends marks that second answer: the same best matches, more rows
	// after them.
	extends bool
	// refreshed marks the answer to the same query over rows that changed
	// (whole: both parts at once); kept is the index in matches of the row
	// the owner's cursor was on, or -1.
	refreshed bool
	kept      int
	// merged is how many pending snapshots of appended rows the answer
	// holds (append.go).
	merged int
}

// Extends reports whether the message only adds rows after the matches of
// the previous one (rows that match on other columns than the name): an
// owner keeps its cursor where it is.
func (r ResultMsg) Extends() bool { return r.extends }

// Kept is the index in the matches of the row given to Refresh, if it
// still matches.
func (r ResultMsg) Kept() (int, bool) { return r.kept, r.refreshed && r.kept >= 0 }

// Model is a filter line.
type Model struct {
	common views.Common
	input  textinput.Model
	typing bool

	query    filter.Query
	seq      int
	answered int          // the seq of the last answer (or error) taken
	shown    filter.Query // the query the matches answer
	keeps    bool         // see KeepsCursor
	// openAfter is an open pressed before the answer; openDue says the
	// answer came (see HoldOpen).
	openAfter, openDue bool
	matches            []int // nil when no filter applies
	err                error
	names              Names
	prev               Narrowing       // the last answer's fuzzy results, for narrowing
	tiers              tiers           // the matches with their scores, for merging appended rows
	whole              bool            // tiers hold both parts of the answer shown
	pending            []Snapshot      // rows appended since the names, not merged yet (append.go)
	stale              bool            // the rows changed since names was built
	ctx                context.Context // the running query's, cancelled by the next
	cancel             context.CancelFunc
	snap               func() Snapshot
	prep               *prepared // names on their way, for the next query
	// busy says a command of this line is running (its answer, seq
	// busySeq, is still to come); due is what to run when it comes back.
	// Keys typed faster than the filter answers thus start one run each
	// time one finishes, for the latest query, not one run per key.
	busy    bool
	busySeq int
	due     dueRun
	dueKeep int // Refresh's keep, for a due refresh
	runs    int // runs started, for tests
	fill    views.Fill
	// highlight marks the query's matches in the rows shown.
	highlight filter.Highlighter
}

// dueRun is a run put off until the running one answers.
type dueRun int

const (
	dueNone    dueRun = iota
	dueQuery          // the query changed
	dueRefresh        // the rows changed under the same query
	dueAppend         // rows were appended (pending)
)

// New makes a filter line; snapshot is called in Update when a query needs
// fresh names (the first keystroke, or after Refresh).
func New(common views.Common, snapshot func() Snapshot) *Model {
	in := views.NewInput(common, "/", "fuzzy filter   !text inverts   re:expr regular expression")
	return &Model{common: common, input: in, snap: snapshot}
}

// Pending reports whether the query typed is not answered yet: an owner
// keeps an open pressed now for the answer, so `/aws⏎⏎` typed fast opens
// aws-cli, not the row the cursor was on before.
func (m *Model) Pending() bool { return !m.query.IsEmpty() && m.answered != m.seq }

// HoldOpen takes a key pressed on the owner while the line is not typing:
// an open (enter) before the query typed is answered is kept for the
// answer, so `/aws⏎⏎` typed fast opens aws-cli, not the row the cursor was
// on before; any other key drops a held open (the user moved on). It
// reports whether it kept the key.
func (m *Model) HoldOpen(k tea.KeyPressMsg) bool {
	m.openAfter = m.Pending() && m.common.Keys.Is(k, keymap.Open)
	return m.openAfter
}

// DueOpen runs open, once, when the answer a held open waited for has
// come (the owner opens its best match); with no match it says so instead.
func (m *Model) DueOpen(open func() tea.Cmd) tea.Cmd {
	if !m.openDue {
		return nil
	}
	m.openDue = false
	switch {
	case m.err != nil:
		return nil
	case m.matches != nil && len(m.matches) == 0:
		return views.Flash("nothing matches /" + m.query.String() + " to open")
	}
	return open()
}

// KeepsCursor reports whether the answer just taken leaves the owner's
// cursor where it is (see Update); otherwise it goes to the best match.
func (m *Model) KeepsCursor() bool { return m.keeps }

// Current reports whether r answers the query now typed (an owner acts on
// no other: Update drops the rest).
func (m *Model) Current(r ResultMsg) bool { return r.owner == m && r.seq == m.seq }

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

// Open gives the line the keyboard, keeping what was typed. Without names
// to search yet, it starts building them: over 10⁶ rows that is most of a
// first keystroke, and the user is still reaching for the first letter.
func (m *Model) Open() tea.Cmd {
	m.typing = true
	focus := m.input.Focus()
	if m.prep != nil || len(m.names.Primary) > 0 && !m.stale {
		return focus
	}
	p := &prepared{build: m.snap()}
	m.prep, m.stale = p, false
	return tea.Batch(focus, func() tea.Msg { p.get(); return nil })
}

// Keep filters by text as if it had been typed and kept (enter): the rows
// are filtered, and the line does not take the keyboard. Empty text keeps
// no filter.
func (m *Model) Keep(text string) tea.Cmd {
	open := m.Open()
	m.typing = false
	m.input.Blur()
	m.input.SetValue(text)
	m.input.CursorEnd()
	m.setQuery(filter.ParseQuery(text))
	if m.query.IsEmpty() {
		m.Clear()
		return nil
	}
	return tea.Batch(open, m.run())
}

// Clear drops the filter.
func (m *Model) Clear() {
	m.typing = false
	m.input.Blur()
	m.input.SetValue("")
	m.setQuery(filter.Query{})
	m.matches, m.err, m.prev = nil, nil, Narrowing{}
	m.tiers, m.whole, m.pending = tiers{}, false, nil
	m.names, m.prep, m.shown = Names{}, nil, filter.Query{}
	m.openAfter, m.openDue = false, false
	m.seq++ // an answer on its way is for a filter that is gone
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	// The cancelled run answers soon; the next query need not wait for it
	// (were its answer lost, the line would otherwise never run again).
	m.busy, m.due = false, dueNone
	m.fill = views.Fill{}
}

// SetWidth sets the input's width.
func (m *Model) SetWidth(w int) { m.input.SetWidth(max(w-30, 10)) }

// Actions of a line that has the keyboard.
func (m *Model) Actions() []keymap.State {
	return []keymap.State{keymap.On(keymap.Accept).Does(m.accept), keymap.On(keymap.Cancel).Does(func() tea.Cmd {
		m.Clear()
		return nil
	})}
}

// accept gives the keyboard back and keeps the pattern typed (none: no
// filter).
func (m *Model) accept() tea.Cmd {
	m.typing = false
	m.input.Blur()
	if m.query.IsEmpty() {
		m.Clear()
	}
	return nil
}

// Update edits the pattern (running the filter on each change), keeps it on
// enter, drops it on esc; it takes its own results.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ResultMsg:
		if msg.owner != m {
			return nil
		}
		if m.busy && msg.seq == m.busySeq {
			m.busy = false
		}
		if msg.seq != m.seq {
			return m.runDue()
		}
		m.err, m.answered = msg.err, msg.seq
		// The cursor stays where it is only when the rows shown already
		// answered this query: more rows after them, or the same query
		// over rows that changed. A refresh that overtook a keystroke's
		// answer is that keystroke's answer.
		m.keeps = msg.extends || msg.refreshed && m.matches != nil && m.shown == msg.query
		if !msg.extends {
			m.openDue, m.openAfter = m.openAfter, false
		}
		if msg.err == nil {
			m.matches, m.names, m.prev.Primary = msg.matches, msg.names, msg.narrow.Primary
			m.tiers, m.whole = msg.tiers, !msg.rest
			m.prev.Secondary = msg.narrow.Secondary
			if msg.narrow.Secondary.Query != msg.query {
				// The second part is to come: until then, what narrows an
				// extension is the result on these names before it.
				m.prev.Secondary = msg.narrowRest
			}
			m.shown = msg.query
			m.prep = nil
			m.pending = m.pending[min(msg.merged, len(m.pending)):]
		}
		if msg.rest && msg.err == nil {
			return m.rest(msg)
		}
		// Rows that came while this ran are searched now.
		return m.runDue()
	case tea.KeyPressMsg:
		if !m.typing {
			return nil
		}
		if cmd, ok := views.Press(m.common.Keys, msg, m.Actions()); ok {
			return cmd
		}
		return m.typed(msg)
	case tea.PasteMsg:
		// Pasted text is typed text: it filters (and is held to the
		// line's limit) as keys do.
		if !m.typing {
			return nil
		}
		return m.typed(msg)
	}
	if m.typing {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return cmd
	}
	return nil
}

// typed takes a key or a paste into the open line: what does not fit is
// refused before it costs anything (a flood of typed keys past the limit
// stays cheap), and a changed value runs the filter.
func (m *Model) typed(msg tea.Msg) tea.Cmd {
	refused, full := views.Overflow(m.input, msg)
	if full {
		return m.fill.Update(m.input, true, "the filter")
	}
	var cmd tea.Cmd
	before := m.input.Value()
	m.input, cmd = m.input.Update(msg)
	cmd = tea.Batch(cmd, m.fill.Update(m.input, refused, "the filter"))
	if v := m.input.Value(); v != before {
		m.setQuery(filter.ParseQuery(v))
		if m.query.IsEmpty() {
			m.supersede()
			m.due = dueNone
			m.matches, m.err = nil, nil
			return cmd
		}
		return tea.Batch(cmd, m.run())
	}
	return cmd
}

// View is the line: the input, or the kept query, with a count.
func (m *Model) View(width int, count string) string {
	th := m.common.Theme
	right := th.Muted.Render(count)
	if m.err != nil {
		right = th.Bad.Render(safe.String(m.err.Error()))
	}
	// The pattern typed comes first: a long count (a table's hint of the
	// server filter) gives way to it rather than squeeze it.
	need := text.Width(m.input.Prompt) + text.Width(m.input.Value()) + 2
	if !m.typing {
		need = 1 + text.Width(m.query.String()) + 1
	}
	if width-text.Width(right)-2 < need {
		right = text.Cut(right, max(width-need-2, 0), th.Glyphs.Ellipsis)
	}
	room := width - text.Width(right) - 2
	// The input pads itself to its width: fitted to the room the count
	// leaves, it is never cut (which would show an ellipsis after blanks).
	// Its scroll follows the width (a wider screen shows more of it).
	if w := max(room-text.Width(m.input.Prompt)-1, 1); w != m.input.Width() {
		m.input.SetWidth(w)
		m.input.SetCursor(m.input.Position())
	}
	left := m.input.View()
	if !m.typing {
		left = th.Prompt.Render("/") + th.Value.Render(m.query.String())
		// The hint goes whole or not at all: "esc clea" helps nobody.
		if hint := "  (" + m.common.Key(keymap.Filter) + " edits, " + m.common.Key(keymap.Back) + " clears)"; text.Width(left)+text.Width(hint) <= room {
			left += th.Muted.Render(hint)
		}
	}
	left = text.Cut(left, max(room, 1), th.Glyphs.Ellipsis)
	return left + strings.Repeat(" ", max(width-text.Width(left)-text.Width(right), 1)) + right
}

// Mark styles the characters of s[from:] that the fuzzy query matches
// (computed for this one string: only shown rows are marked), writing
// resume after each so the surrounding style goes on.
func (m *Model) Mark(s string, from int, hl theme.Paint, resume string) string {
	if from >= len(s) {
		return s
	}
	idx := m.Matched(s[from:])
	for k := range idx {
		idx[k] += from
	}
	return MarkAt(s, idx, hl, resume)
}

// Matched is the byte offsets in s of the letters the fuzzy query matches,
// nil when it does not match s or the query is not fuzzy.
func (m *Model) Matched(s string) []int {
	if q := m.query; q.Kind == filter.Fuzzy && !q.IsEmpty() && s != "" {
		return m.highlight.Indexes(s)
	}
	return nil
}

// setQuery takes the query typed, with its highlighter: a frame's rows are
// marked with a pattern prepared once per query.
func (m *Model) setQuery(q filter.Query) {
	m.query = q
	m.highlight = filter.Highlighter{}
	if q.Kind == filter.Fuzzy {
		m.highlight = filter.NewHighlighter(q.Pattern)
	}
}

// MarkAt styles the characters of s starting at the byte offsets idx
// (ascending), writing resume after each.
func MarkAt(s string, idx []int, hl theme.Paint, resume string) string {
	if len(idx) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, i := range idx {
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

// Removed takes rows out of the matches shown, at once, in Update (a
// delete from a filtered table): the matches of the rows at these list
// positions go, and the rows after them move up. The names taken are
// copied, not changed, so a search on its way keeps its own.
func (m *Model) Removed(positions []int) {
	if m.matches == nil || len(positions) == 0 || m.names.Rows == nil {
		return
	}
	sorted := slices.Sorted(slices.Values(positions))
	rows := make([]int, len(m.names.Rows))
	for i, p := range m.names.Rows {
		n, found := slices.BinarySearch(sorted, p)
		switch {
		case found:
			rows[i] = -1
		default:
			rows[i] = p - n
		}
	}
	m.names.Rows = rows
	kept := make([]int, 0, len(m.matches))
	for _, ix := range m.matches {
		if ix < len(rows) && rows[ix] >= 0 {
			kept = append(kept, ix)
		}
	}
	m.matches = kept
	// Narrowing from these matches would meet the rows that went: the
	// next query starts from the names again; nor can rows be merged into
	// them (the positions moved).
	m.prev, m.tiers, m.whole, m.pending = Narrowing{}, tiers{}, false, nil
}
