package table

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views/filter"
	"canopy/views/paging"
	"canopy/views/search"
)

// ServerFilter is an exact filter the API has for a collection (repo
// `name`, advisory ids or text): it replaces the loaded list by the server's
// answer, shown as a chip until removed.
type ServerFilter[T any] struct {
	// Chip names the filter for a pattern, e.g. `name = "nginx"`; "" when
	// the pattern cannot be asked of the server.
	Chip func(pattern string) string
	// List makes the filtered list for a pattern.
	List func(pattern string) *paging.List[T]
	// Empty, when set, says what an answer with no rows means and what
	// to try instead (no tag is named "python": :tags python lists the
	// repo's); "" for the plain "(none)".
	Empty func(pattern string) string
}

// NamesMsg says the shell learned names that columns resolve by uid
// (FOLDER, REPO: columns with Snap): a table filtering on them searches
// again, so rows whose name came after the snapshot are found.
type NamesMsg struct{}

// namesLearned takes the filter's snapshot again when a column searches
// names the shell resolves.
func (m *Model[T]) namesLearned() tea.Cmd {
	if m.search == nil || !slices.ContainsFunc(m.cfg.Columns, func(c Column[T]) bool { return c.Search && c.Snap != nil }) {
		return nil
	}
	return m.search.Refresh(m.position(m.cursor))
}

// filtering reports whether a local filter narrows the rows.
func (m *Model[T]) filtering() bool { return m.search != nil && m.search.Matches() != nil }

// TakesText reports whether typed keys go to the filter line.
func (m *Model[T]) TakesText() bool { return m.editing() || m.search != nil && m.search.Typing() }

// snapshot captures the loaded windows; the names are built in the filter's
// command from the columns marked Search (which must be pure).
func (m *Model[T]) snapshot() search.Snapshot {
	runs := m.cfg.List.Runs()
	if m.only {
		runs = pick(runs, m.onlyRows)
	}
	m.snapGen = m.cfg.List.Gen()
	return m.namesOf(runs)
}

// refilterPage gives the filter the page just loaded: its rows (the
// flagged ones in a view of those) are merged into the matches when the
// page added rows and changed nothing else; otherwise the filter runs again
// over every loaded row.
func (m *Model[T]) refilterPage(flagged []int, flagOK bool) tea.Cmd {
	keep := m.position(m.cursor)
	runs, ok := m.cfg.List.AddedRuns()
	if !ok || m.cfg.List.Gen() != m.snapGen || m.only && !flagOK {
		return m.search.Refresh(keep)
	}
	if m.only {
		if len(flagged) == 0 {
			return nil // no row the filter searches came
		}
		runs = pick(runs, flagged)
	}
	return m.search.Append(m.namesOf(runs), keep)
}

// namesOf is the filter's names of these runs, built when called.
func (m *Model[T]) namesOf(runs []paging.Run[T]) search.Snapshot {
	name := plain(m.cfg.Columns[0].Cell)
	var others []func(*T) string
	for _, c := range m.cfg.Columns[1:] {
		switch {
		case c.Search && c.Snap != nil:
			others = append(others, plain(c.Snap()))
		case c.Search:
			others = append(others, plain(c.Cell))
		}
	}
	return func() search.Names {
		// Offsets of each run in the names, so workers fill their runs
		// in place: the cells of 10⁶ rows are most of a first keystroke.
		at := make([]int, len(runs)+1)
		for i, r := range runs {
			at[i+1] = at[i] + len(r.Items)
		}
		n := at[len(runs)]
		out := search.Names{Primary: make([]string, n), Rows: make([]int, n)}
		parallel(len(runs), func(k int) {
			r, o := runs[k], at[k]
			for i := range r.Items {
				out.Primary[o+i], out.Rows[o+i] = name(&r.Items[i]), r.Start+i
			}
		})
		if len(others) == 0 {
			return out
		}
		out.Later = func() []string {
			secondary := make([]string, n)
			parallel(len(runs), func(k int) {
				r, o := runs[k], at[k]
				var b strings.Builder
				for i := range r.Items {
					b.Reset()
					for j, f := range others {
						if j > 0 {
							b.WriteByte(' ')
						}
						b.WriteString(f(&r.Items[i]))
					}
					secondary[o+i] = b.String()
				}
			})
			return secondary
		}
		return out
	}
}

// parallel calls do(0) … do(n-1) on GOMAXPROCS workers.
func parallel(n int, do func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1) - 1); k < n; k = int(next.Add(1) - 1) {
				do(k)
			}
		}()
	}
	wg.Wait()
}

// openFilter gives the filter line the keyboard.
func (m *Model[T]) openFilter() tea.Cmd {
	if m.search == nil {
		m.search = search.New(m.common, m.snapshot)
		m.search.SetWidth(m.width)
	}
	m.unfiltered = m.position(m.cursor)
	return m.search.Open()
}

// updateFilter passes a message to the filter line and follows its state:
// a new result puts the cursor on the best match; clearing puts it back on
// the row it was on.
func (m *Model[T]) updateFilter(msg tea.Msg) tea.Cmd {
	was := m.filtering()
	cmd := m.search.Update(msg)
	r, took := msg.(search.ResultMsg)
	took = took && m.search.Current(r)
	if took {
		i, kept := r.Kept()
		switch keeps := m.search.KeepsCursor(); {
		case keeps && kept:
			// The rows changed under the same query: stay on the row.
			m.offset += i - m.cursor
			m.cursor = i
		case keeps && r.Extends():
		default:
			m.cursor, m.offset = 0, 0
		}
	}
	if was && !m.filtering() {
		m.cursor = max(m.unfiltered, 0)
		m.offset = max(0, m.cursor-m.bodyRows()/2)
	}
	m.clamp()
	return tea.Batch(cmd, m.selectCmd(), m.search.DueOpen(func() tea.Cmd { return m.run(keymap.Open) }))
}

// applyServerFilter replaces the list by the server's answer for the
// pattern typed.
func (m *Model[T]) applyServerFilter() tea.Cmd {
	sf := m.cfg.Server
	pattern := m.search.Query().Pattern
	chip := sf.Chip(pattern)
	if chip == "" || m.search.Query().Kind != filter.Fuzzy {
		return nil
	}
	if m.base == nil {
		m.base, m.baseCursor = m.cfg.List, m.position(m.cursor)
	}
	m.cfg.List = sf.List(pattern)
	m.thinList()
	m.chip, m.chipPattern = chip, pattern
	m.search.Clear()
	m.cursor, m.offset = 0, 0
	return m.cfg.List.Reset(m.cfg.Orders[m.order].OrderBy)
}

// removeChip goes back to the list the server filter replaced.
func (m *Model[T]) removeChip() tea.Cmd {
	m.cfg.List, m.base = m.base, nil
	m.thinList()
	m.chip, m.chipPattern = "", ""
	m.cursor = m.baseCursor
	m.offset = max(0, m.cursor-m.bodyRows()/2)
	m.clamp()
	var first tea.Cmd
	if m.cfg.List.Total() < 0 && !m.cfg.List.Busy() {
		// A saved view opened with the server filter: the whole list
		// was never asked for.
		first = m.cfg.List.Reset(m.cfg.Orders[m.order].OrderBy)
	}
	return tea.Batch(first, m.ensure(), m.selectCmd())
}

// serverChip is the chip a server filter for the current pattern would
// get, or "".
func (m *Model[T]) serverChip() string {
	if m.cfg.Server == nil || m.search == nil || m.search.Query().Kind != filter.Fuzzy || m.search.Query().IsEmpty() ||
		m.cfg.List.Loaded() >= m.cfg.List.Total() {
		// Every row is loaded: the local filter already sees them all.
		return ""
	}
	return m.cfg.Server.Chip(m.search.Query().Pattern)
}

// filterCount is the right side of the filter line: matches of loaded,
// whether the loaded rows are all of them, and the server filter on offer;
// shorter forms when the line is narrow, so the pattern typed keeps its
// room (the offer goes last but one: it is what to do next).
func (m *Model[T]) filterCount() string {
	list := m.cfg.List
	loaded, total := list.Loaded(), list.Total()
	if m.only {
		return m.onlyFilterCount()
	}
	matches := ""
	if ms := m.search.Matches(); ms != nil {
		matches = text.Count(len(ms)) + "/" + text.Count(loaded)
	}
	rank := ""
	if m.ranked() {
		// Not the table's order meanwhile: the header's sort mark is off.
		rank = "best first"
	}
	if total <= loaded {
		return joinParts([]string{matches, rank})
	}
	of := text.Count(loaded) + " of " + countOf(list) + " loaded"
	offer := ""
	if chip := m.serverChip(); chip != "" {
		if d, ok := m.common.Keys.Def("server-filter"); ok {
			offer = d.KeyLabel() + ": server " + chip
		}
	}
	room := m.width - text.Width(m.search.Query().String()) - 5
	forms := [][]string{{matches, "filtering " + of, offer, rank}, {matches, "filtering " + of, offer}, {matches, of, offer}, {matches, offer}, {offer}, {matches, of}}
	var count string
	for _, f := range forms {
		count = joinParts(f)
		if count != "" && text.Width(count) <= room {
			break
		}
	}
	return count
}

// onlyFilterCount is filterCount in a view of the flagged rows only (D):
// the filter searches those, so its matches are counted against them, and
// while the scan goes on the line says so.
func (m *Model[T]) onlyFilterCount() string {
	ms := m.search.Matches()
	if ms == nil {
		return ""
	}
	count := text.Count(len(ms)) + "/" + text.Count(len(m.search.Names().Primary)) + " " + m.cfg.Flag.Name
	if l := m.cfg.List; !l.Done() {
		count += " · scanned " + text.Count(l.Loaded()) + "/" + countOf(l)
	}
	if m.ranked() {
		count += " · best first"
	}
	return count
}

// joinParts joins the non-empty parts with " · ".
func joinParts(parts []string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " · ")
}

// highlight styles, in a row's cells already fitted to their widths (""
// for a column not shown), the characters a fuzzy query matched, as the
// filter ranks them: in the name when it matches; else in one searched
// column that matches alone; else across the searched columns shown, as
// the filter's second tier joins them. After each, the row's own paint
// resumes.
func (m *Model[T]) highlight(cells []string, resume string) {
	hl := m.paints.match
	if idx := m.search.Matched(cells[0]); idx != nil {
		cells[0] = search.MarkAt(cells[0], idx, hl, resume)
		return
	}
	var joined strings.Builder
	for i, c := range m.cfg.Columns {
		if i == 0 || !c.Search || cells[i] == "" {
			continue
		}
		if idx := m.search.Matched(cells[i]); idx != nil {
			cells[i] = search.MarkAt(cells[i], idx, hl, resume)
			return
		}
		if joined.Len() > 0 {
			joined.WriteByte(' ')
		}
		joined.WriteString(cells[i])
	}
	idx := m.search.Matched(joined.String())
	if idx == nil {
		return // the match is in a column not shown
	}
	// Hand each column the offsets that fall in it, made its own.
	at := 0
	for i, c := range m.cfg.Columns {
		if i == 0 || !c.Search || cells[i] == "" {
			continue
		}
		end := at + len(cells[i])
		var own []int
		for len(idx) > 0 && idx[0] < end {
			if idx[0] >= at {
				own = append(own, idx[0]-at)
			}
			idx = idx[1:]
		}
		cells[i] = search.MarkAt(cells[i], own, hl, resume)
		at = end + 1
	}
}

// pick keeps, of the loaded runs, the items at the given positions (in
// order), each as a run of one.
func pick[T any](runs []paging.Run[T], positions []int) []paging.Run[T] {
	out := make([]paging.Run[T], 0, len(positions))
	r := 0
	for _, p := range positions {
		for r < len(runs) && runs[r].Start+len(runs[r].Items) <= p {
			r++
		}
		if r < len(runs) && p >= runs[r].Start {
			out = append(out, paging.Run[T]{Start: p, Items: runs[r].Items[p-runs[r].Start : p-runs[r].Start+1]})
		}
	}
	return out
}

// plain is a cell's text as the filter matches it.
func plain[T any](cell func(*T) safe.Text) func(*T) string {
	return func(it *T) string { return string(cell(it)) }
}
