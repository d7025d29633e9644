package table

import (
	"fmt"
	"sort"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/dialog"
	"canopy/views/paging"
)

// scanParallel bounds the requests in flight while a flag filter loads the
// whole collection: fast, but polite to the server.
const scanParallel = 3

// Flag is a property some items have that the API cannot filter on (a tag's
// `deprecated`): `D` shows only flagged items, loading the whole collection
// to find them, and `V` marks the flagged rows shown.
type Flag[T any] struct {
	Name string // "deprecated"
	Noun string // what the rows are: "tags"
	Is   func(*T) bool
	// Counted is told the exact number of flagged rows once every row is
	// scanned, and again after deletes; nil when nobody needs it.
	Counted func(count, total int) tea.Cmd
}

// Delete is how a table deletes its items.
type Delete[T any] struct {
	// Noun names one item ("tag"), Nouns several ("tags"): for the flash.
	Noun, Nouns string
	// Name is what the dialog calls one item ("viewer → ci bot on data"),
	// for the flash once it went; nil: its first column.
	Name func(*T) string
	// Ask asks before deleting the items (one, or the marked ones) and
	// deletes them: a dialog whose Done is done, so that the table hears
	// which rows went, in a message of its own. The shell's dialog names
	// each and what goes with them.
	Ask func(items []*T, done func(dialog.Settled) tea.Msg) tea.Cmd
}

// deletedMsg tells the table that asked what its delete dialog did.
type deletedMsg[T any] struct {
	owner   *Model[T]
	settled dialog.Settled
}

// nouns is n items in words: "1 tag", "3 tags".
func (d *Delete[T]) nouns(n int) string {
	if n == 1 {
		return "1 " + d.Noun
	}
	return text.Count(n) + " " + d.Nouns
}

// marked reports whether the item is marked.
func (m *Model[T]) marked(it *T) bool { return m.marks[m.cfg.Key(it)] }

// toggleMark marks or unmarks the row under the cursor and moves down.
func (m *Model[T]) toggleMark() tea.Cmd {
	it, ok := m.Selected()
	if !ok {
		return nil
	}
	k := m.cfg.Key(it)
	if m.marks[k] {
		delete(m.marks, k)
	} else {
		m.marks[k] = true
	}
	return m.moveTo(m.cursor + 1)
}

// unmark drops the marks of rows whose work is done; the others stay.
func (m *Model[T]) unmark(keys []string) {
	for _, k := range keys {
		delete(m.marks, k)
	}
}

// markFlagged marks every flagged row shown (all of them in flag mode,
// else the loaded ones).
func (m *Model[T]) markFlagged() tea.Cmd {
	n := 0
	for i := range m.rows() {
		it, ok := m.cfg.List.At(m.position(i))
		if ok && m.cfg.Flag.Is(it) && !m.marks[m.cfg.Key(it)] {
			m.marks[m.cfg.Key(it)] = true
			n++
		}
	}
	say := fmt.Sprintf("marked %s %s rows (%s marked in all)", text.Count(n), m.cfg.Flag.Name, text.Count(len(m.marks)))
	if l := m.cfg.List; !l.Done() && l.Total() >= 0 {
		// Only loaded rows can be looked at: say how many were not, and
		// how to see them all.
		unseen := text.Count(l.Total()-l.Loaded()) + " " + m.cfg.Flag.Noun
		if !l.Exact() {
			unseen = "more " + m.cfg.Flag.Noun
		}
		say += "; " + unseen + " not loaded were not looked at"
		if !m.only {
			say += " (" + m.common.Key(keymap.OnlyFlagged) + " scans them all)"
		}
	}
	return views.Flash(say)
}

// targets are the marked items, or the one under the cursor.
func (m *Model[T]) targets() []*T {
	var out []*T
	if len(m.marks) > 0 {
		m.cfg.List.Each(func(_ int, it *T) bool {
			if m.marks[m.cfg.Key(it)] {
				out = append(out, it)
			}
			return true
		})
		return out
	}
	if it, ok := m.Selected(); ok {
		out = append(out, it)
	}
	return out
}

// deleteDialog asks before deleting the targets.
func (m *Model[T]) deleteDialog() tea.Cmd {
	targets := m.targets()
	if len(targets) == 0 {
		return views.Flash("nothing to delete here")
	}
	items := make([]*T, len(targets))
	for i, it := range targets {
		c := *it
		items[i] = &c
	}
	return m.cfg.Delete.Ask(items, func(s dialog.Settled) tea.Msg { return deletedMsg[T]{owner: m, settled: s} })
}

// deleted removes what a delete dialog did from the rows and the marks,
// and says how many went.
func (m *Model[T]) deleted(msg dialog.Settled) tea.Cmd {
	defer m.clamp()
	var gone []int
	name := "" // of the one row deleted, for the flash
	for _, k := range msg.Done {
		if p := m.cfg.List.Position(k); p >= 0 {
			gone = append(gone, p)
			if it, ok := m.cfg.List.At(p); ok && len(msg.Done) == 1 && len(msg.Unknown) == 0 {
				name = string(m.cfg.Columns[0].Cell(it))
				if m.cfg.Delete.Name != nil {
					name = safe.String(m.cfg.Delete.Name(it))
				}
			}
		}
	}
	// The cursor stays on its row when rows above it go (rows shown in
	// load order: a row's index is its list position).
	above := 0
	if !m.filtering() && !m.only && !m.sortedNow() {
		for _, p := range gone {
			if p < m.cursor {
				above++
			}
		}
	}
	for _, k := range msg.Done {
		m.removeRow(k)
	}
	m.cursor = max(m.cursor-above, 0)
	var counted tea.Cmd
	if m.only {
		m.rescanFlag()
		m.counted = false
		counted = m.countFlagged()
	}
	counted = tea.Batch(counted, m.sortLocal())
	var refilter tea.Cmd
	if m.filtering() {
		// The filter stays: the rows that went leave its matches now, and
		// it searches the list as it is, the cursor kept at its place.
		m.search.Removed(gone)
		m.clamp()
		refilter = m.search.Refresh(m.position(m.cursor))
	}
	d := m.cfg.Delete
	say := "deleted " + d.nouns(len(msg.Done))
	if name != "" {
		say = "deleted " + d.Noun + " " + name
	}
	if len(msg.Unknown) > 0 {
		say += " · " + d.nouns(len(msg.Unknown)) + " unknown (no answer): " + m.common.Key(keymap.Refresh) + " refreshes to see"
	}
	if n := len(m.marks); n > 0 {
		say += fmt.Sprintf(" · %s still marked", text.Count(n))
	}
	return tea.Batch(counted, refilter, views.Flash(say))
}

// copyTargets copies what `y` copies for the marked rows (or the one under
// the cursor).
func (m *Model[T]) copyTargets() tea.Cmd {
	if len(m.marks) == 0 || m.cfg.CopyMany == nil {
		it, ok := m.Selected()
		if !ok {
			return nil
		}
		text, what := m.cfg.Copy(it)
		return views.Copy(text, what)
	}
	text, what := m.cfg.CopyMany(m.targets())
	return views.Copy(text, what)
}

// toggleOnly shows only flagged rows (or everything again). The whole
// collection loads, a few pages at a time, to find them; the list holds
// only what the view shows (see keeps), and the other rows load again when
// everything shows.
func (m *Model[T]) toggleOnly() tea.Cmd {
	was := m.position(m.cursor) // the row's list position, read in the view it is in
	m.only = !m.only
	if m.search != nil {
		// The filter searched the rows shown, which change.
		m.search.Clear()
	}
	m.perm = nil // a local order sorts the rows shown: again
	if !m.only {
		m.onlyRows = nil
		m.thinList()
		m.cursor = max(was, 0)
		m.offset = max(0, m.cursor-m.bodyRows()/2)
		m.clamp()
		return tea.Batch(m.ensure(), m.sortLocal(), m.selectCmd(), views.Flash("showing every row"))
	}
	m.keepFrom = max(was-paging.DefaultPageSize/2, 0)
	m.thinList()
	m.rescanFlag()
	m.cursor, m.offset = 0, 0
	return tea.Batch(m.cfg.List.Scan(scanParallel), m.sortLocal(), m.selectCmd(), m.countFlagged(), m.countHidden())
}

// thinList has the list hold only what a view of flagged rows keeps while
// one shows, and every row it reads otherwise.
func (m *Model[T]) thinList() {
	if m.only && m.cfg.Flag != nil {
		m.cfg.List.Thin(m.keeps)
		return
	}
	m.cfg.List.Thin(nil)
}

// keeps is what a view of flagged rows holds of the rows its scan reads:
// the flagged ones (they are what it shows), the marked ones (work about
// to be done on them), and one page about the row the cursor was on when
// it opened, so that showing every row again there needs no request.
// Every other row is dropped as it comes: what the view keeps grows with
// the rows it shows, not with the collection.
func (m *Model[T]) keeps(pos int, it *T) bool {
	return m.cfg.Flag.Is(it) || pos >= m.keepFrom && pos < m.keepFrom+paging.DefaultPageSize ||
		len(m.marks) > 0 && m.marks[m.cfg.Key(it)]
}

// rescanFlag finds the flagged rows among everything loaded.
func (m *Model[T]) rescanFlag() {
	m.onlyRows = m.onlyRows[:0]
	m.cfg.List.Each(func(pos int, it *T) bool {
		if m.cfg.Flag.Is(it) {
			m.onlyRows = append(m.onlyRows, pos)
		}
		return true
	})
	m.onlyGen = m.cfg.List.Gen()
}

// flagPage adds the flagged rows of the page just loaded (only its
// positions are looked at) and asks for more pages. found are the rows it
// added; ok is false when it looked at every row again instead.
func (m *Model[T]) flagPage() (cmd tea.Cmd, found []int, ok bool) {
	if m.cfg.List.Gen() != m.onlyGen {
		m.counted = false
		m.rescanFlag()
		return m.cfg.List.Scan(scanParallel), nil, false
	}
	start, end := m.cfg.List.Added()
	for p := start; p < end; p++ {
		if it, ok := m.cfg.List.At(p); ok && m.cfg.Flag.Is(it) {
			found = append(found, p)
		}
	}
	if len(found) > 0 {
		i := sort.SearchInts(m.onlyRows, found[0])
		onRow := m.cursor < len(m.onlyRows) && !m.filtering() && m.focusUID == ""
		m.onlyRows = append(m.onlyRows[:i], append(found, m.onlyRows[i:]...)...)
		if onRow && i <= m.cursor {
			// A page that came after the one below it (pages come three
			// at a time) puts rows above the cursor: it stays on its row.
			m.cursor += len(found)
			m.offset += len(found)
		}
	}
	return m.cfg.List.Scan(scanParallel), found, true
}

// onlyProgress is "scanned 800/4,210 tags · 37 deprecated" while the scan
// runs, then "37 deprecated of 4,210 tags".
func (m *Model[T]) onlyProgress() string {
	l := m.cfg.List
	f := m.cfg.Flag
	found := text.Count(len(m.onlyRows)) + " " + f.Name
	total := l.Total()
	switch {
	case total < 0:
		return "scanning"
	case !l.Done():
		return "scanned " + text.Count(l.Loaded()) + "/" + countOf(l) + " " + f.Noun + " · " + found
	}
	return found + " of " + text.Count(total) + " " + f.Noun
}

// Targets are the marked rows, or the one under the cursor, as resource
// pointers (*T): what the shell runs the user's tools on.
func (m *Model[T]) Targets() []any {
	ts := m.targets()
	out := make([]any, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}
