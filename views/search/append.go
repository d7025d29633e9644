package search

import (
	"cmp"
	"context"
	"slices"
	"sort"

	tea "charm.land/bubbletea/v2"

	"canopy/views/filter"
)

// Rows that arrive under a kept filter (a page while scrolling, a scan's
// pages) are filtered alone and merged into the matches by score: a page
// costs the filter O(page) and the merge O(matches), not a run over every
// row loaded. Runs still go one at a time: pages that come while one runs
// wait (pending) and are merged together by the next.

// Append takes rows the owner added after those of the names (extra
// builds their names, Rows their owner positions); the query runs over
// them alone and their matches join the ones shown, each tier in score
// order, ties in row order, as a run over all the rows would place them.
// keep is the owner's row its cursor is on (see Refresh). When the answer
// shown cannot take rows (another query is on its way, the names are
// being built, an error is shown), the query runs again over new names,
// as Refresh does.
func (m *Model) Append(extra Snapshot, keep int) tea.Cmd {
	if m.query.IsEmpty() {
		m.stale = true
		return nil
	}
	if m.busy && m.due == dueNone && !m.stale {
		// The run going on answers the query shown or extends it; the
		// rows are merged after it (a run started later takes new names
		// with these rows in them: begin drops pending).
		m.pending = append(m.pending, extra)
		m.due, m.dueKeep = dueAppend, keep
		return nil
	}
	if m.busy && m.due == dueAppend {
		m.pending = append(m.pending, extra)
		m.dueKeep = keep
		return nil
	}
	if m.busy || !m.merges() {
		return m.Refresh(keep)
	}
	m.pending = append(m.pending, extra)
	return m.appendRun(keep)
}

// merges reports whether the answer shown can take appended rows: it is
// whole (both tiers), answers the query typed, over names that are current.
func (m *Model) merges() bool {
	return m.whole && m.err == nil && m.matches != nil && m.shown == m.query && m.prep == nil && !m.stale &&
		(len(m.names.Primary) == 0 || m.names.Rows != nil)
}

// appendRun merges the pending rows in a command.
func (m *Model) appendRun(keep int) tea.Cmd {
	if !m.merges() || len(m.pending) == 0 {
		return m.Refresh(keep)
	}
	// The rows stay pending until their answer is taken: a keystroke that
	// drops it takes new names with them in (begin).
	extras := m.pending[:len(m.pending):len(m.pending)]
	m.supersede()
	m.runs++
	ctx, cancel := context.WithCancel(context.Background())
	m.ctx, m.cancel = ctx, cancel
	j := job{owner: m, seq: m.seq, ctx: ctx, query: m.query, names: m.names, prev: m.prev}
	m.busy, m.busySeq = true, j.seq
	shown := m.tiers
	return func() tea.Msg {
		names, added := appendNames(j.names, extras)
		t, narrow, err := mergeRows(ctx, j.query, names, added, shown, j.prev)
		j.names = names
		msg := j.answer(t, narrow, err)
		msg.refreshed, msg.kept, msg.merged = true, keptAt(msg.matches, names.Rows, keep), len(extras)
		return msg
	}
}

// appendNames builds the extras' names and appends them to base's; added
// are the extras' names alone. base's slices grow in place: only one run
// of a line goes at a time, and no answer reads past its own length.
func appendNames(base Names, extras []Snapshot) (all, added Names) {
	for _, e := range extras {
		n := e()
		added.Primary = append(added.Primary, n.Primary...)
		added.Rows = append(added.Rows, n.Rows...)
		if base.Secondary != nil || base.Later != nil {
			n.buildSecondary()
			if n.Secondary == nil {
				n.Secondary = make([]string, len(n.Primary))
			}
			added.Secondary = append(added.Secondary, n.Secondary...)
		}
	}
	if !ascending(nil, added.Rows) {
		added = byRow(added)
	}
	base.buildSecondary()
	all = base
	all.unordered = base.unordered || !ascending(base.Rows, added.Rows)
	all.Primary = append(base.Primary, added.Primary...)
	all.Rows = append(base.Rows, added.Rows...)
	if base.Secondary != nil {
		all.Secondary = append(base.Secondary, added.Secondary...)
	}
	return all, added
}

// byRow is names in the order of their rows: pages that were merged
// together out of order are ranked among themselves as a run over the
// rows in order would rank them (ties by row).
func byRow(n Names) Names {
	order := make([]int, len(n.Rows))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(n.Rows[a], n.Rows[b]) })
	out := Names{Primary: make([]string, len(order)), Rows: make([]int, len(order))}
	if n.Secondary != nil {
		out.Secondary = make([]string, len(order))
	}
	for k, i := range order {
		out.Primary[k], out.Rows[k] = n.Primary[i], n.Rows[i]
		if n.Secondary != nil {
			out.Secondary[k] = n.Secondary[i]
		}
	}
	return out
}

// ascending reports whether rows, after base, go on in ascending order.
func ascending(base, rows []int) bool {
	last := -1
	if len(base) > 0 {
		last = base[len(base)-1]
	}
	for _, r := range rows {
		if r <= last {
			return false
		}
		last = r
	}
	return true
}

// mergeRows runs q over the added rows (the last len(added.Primary) of
// names) and merges their tiers into shown's; the narrowing results cover
// every row, so the next keystroke narrows as before.
func mergeRows(ctx context.Context, q filter.Query, names, added Names, shown tiers, prev Narrowing) (tiers, Narrowing, error) {
	t, narrow, err := runTiers(ctx, q, added, Narrowing{})
	if err != nil {
		return tiers{}, Narrowing{}, err
	}
	base := len(names.Primary) - len(added.Primary)
	shift(t.first, base)
	shift(t.second, base)
	merged := tiers{first: mergeTier(shown.first, t.first, names.Rows), second: mergeTier(shown.second, t.second, names.Rows)}
	out := Narrowing{}
	if q.Kind == filter.Fuzzy {
		out.Primary = filter.Result{Query: q, Matches: merged.first, Total: len(names.Primary)}
		if names.Secondary != nil && prev.Secondary.Query == q {
			// Narrowing reads the set, not the order: the page's matches
			// go after the rest, in place (as the names grow, see
			// appendNames), so a page costs its own matches here.
			shift(narrow.Secondary.Matches, base)
			all := append(prev.Secondary.Matches, narrow.Secondary.Matches...)
			out.Secondary = filter.Result{Query: q, Matches: all, Total: len(names.Secondary)}
		}
	}
	return merged, out, nil
}

// shift moves matches' indexes by base (they were found in the added rows
// alone).
func shift(ms []filter.Match, base int) {
	for i := range ms {
		ms[i].Index += base
	}
}

// mergeTier merges b into a (each best first, ties in row order) into a
// new tier in that order. b is a page's matches, a every row's: each of b's
// places is found by binary search and a is copied between them in runs,
// so the merge costs a copy of a, not a comparison per row.
func mergeTier(a, b []filter.Match, rows []int) []filter.Match {
	if len(b) == 0 {
		return a
	}
	out := make([]filter.Match, 0, len(a)+len(b))
	from := 0
	for _, x := range b {
		at := from + sort.Search(len(a)-from, func(k int) bool { return before(x, a[from+k], rows) })
		out = append(append(out, a[from:at]...), x)
		from = at
	}
	return append(out, a[from:]...)
}

// before reports whether x ranks before y: a higher score, or the same
// score on an earlier row.
func before(x, y filter.Match, rows []int) bool {
	if x.Score != y.Score {
		return x.Score > y.Score
	}
	return rows[x.Index] < rows[y.Index]
}
