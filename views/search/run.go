package search

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"canopy/views/filter"
)

// prepared is a snapshot built once, by whichever comes first: the command
// Open starts, or the first keystroke's (which then waits for it).
type prepared struct {
	once  sync.Once
	build Snapshot
	names Names
}

func (p *prepared) get() Names {
	p.once.Do(func() { p.names, p.build = p.build(), nil })
	return p.names
}

// Refresh runs the query again on a new snapshot (the rows changed), both
// parts at once: no keystroke waits on it. keep is the owner's row (as in
// Names.Rows) its cursor is on, or -1; the answer says where that row is
// among the new matches (ResultMsg.Kept).
func (m *Model) Refresh(keep int) tea.Cmd {
	m.stale, m.pending = true, nil
	if m.query.IsEmpty() {
		return nil
	}
	if m.busy {
		// The run going on finishes (its answer is shown), then one
		// refresh runs over the rows as they are by then: rows arriving
		// faster than a refresh takes never cancel every refresh in turn
		// (a scan would show no match until its end).
		if m.due != dueQuery {
			// A query typed since runs on the new names anyway (stale).
			m.due, m.dueKeep = dueRefresh, keep
		}
		return nil
	}
	j := m.begin()
	m.busy, m.busySeq = true, j.seq
	return func() tea.Msg {
		j.takeNames()
		j.names.buildSecondary()
		t, narrow, err := runTiers(j.ctx, j.query, j.names, j.prev)
		msg := j.answer(t, narrow, err)
		msg.refreshed, msg.kept = true, keptAt(msg.matches, j.names.Rows, keep)
		return msg
	}
}

// keptAt is the index in matches of the owner's row keep, or -1.
func keptAt(matches, rows []int, keep int) int {
	if keep < 0 || rows == nil {
		return -1
	}
	for i, ix := range matches {
		if rows[ix] == keep {
			return i
		}
	}
	return -1
}

// job is one query's run, as begin sets it up.
type job struct {
	owner *Model
	seq   int
	ctx   context.Context
	query filter.Query
	names Names
	prev  Narrowing
	prep  *prepared
}

// names are the job's names: those on their way when there are (then
// without a previous result to narrow), else the last answer's.
func (j *job) takeNames() {
	if j.prep != nil {
		j.names, j.prev = j.prep.get(), Narrowing{}
	}
}

// supersede makes the running query's answer stale: it is cancelled, and
// dropped when it comes.
func (m *Model) supersede() {
	if m.cancel != nil {
		m.cancel()
	}
	m.seq++
}

// runDue starts the run put off while another was running, if any (the
// running one has just answered).
func (m *Model) runDue() tea.Cmd {
	if m.busy {
		return nil // another run answers first
	}
	due := m.due
	m.due = dueNone
	switch {
	case due == dueNone || m.query.IsEmpty():
		return nil
	case due == dueRefresh:
		return m.Refresh(m.dueKeep)
	case due == dueAppend:
		return m.appendRun(m.dueKeep)
	}
	return m.start()
}

// begin starts a query: it cancels the one before and picks the names to
// search.
func (m *Model) begin() job {
	m.supersede()
	m.runs++
	ctx, cancel := context.WithCancel(context.Background())
	m.ctx, m.cancel = ctx, cancel
	// New names when the rows changed; else those on their way; else the
	// last answer's; else new ones. They stay in prep until an answer
	// brings them back (a keystroke may cancel this query first).
	switch {
	case m.stale || len(m.pending) > 0 || m.names.unordered:
		// Rows appended and not merged yet are in the new names.
		m.prep, m.stale, m.pending = &prepared{build: m.snap()}, false, nil
	case m.prep != nil:
	case len(m.names.Primary) == 0:
		m.prep = &prepared{build: m.snap()}
	}
	return job{owner: m, seq: m.seq, ctx: ctx, query: m.query, names: m.names, prev: m.prev, prep: m.prep}
}

// run answers a keystroke: at once when no run of this line is going on,
// else once the running one (cancelled now) has answered (see Update).
// Each keystroke costs O(1) here however fast keys come; the filter runs
// at most once per answer.
func (m *Model) run() tea.Cmd {
	if m.busy {
		m.supersede()
		m.due = dueQuery
		return nil
	}
	return m.start()
}

// start answers the query in a command: the rows whose name matches first
// (see rest for the others).
func (m *Model) start() tea.Cmd {
	j := m.begin()
	m.busy, m.busySeq = true, j.seq
	return func() tea.Msg {
		j.takeNames()
		if j.query.Kind == filter.Inverse {
			// Rows that match on no column: the other columns take rows
			// away, so the answer cannot come in two parts.
			j.names.buildSecondary()
			t, narrow, err := runTiers(j.ctx, j.query, j.names, j.prev)
			return j.answer(t, narrow, err)
		}
		first, res, err := primaryTier(j.ctx, j.query, j.names, j.prev.Primary)
		msg := j.answer(tiers{first: first}, Narrowing{Primary: res}, err)
		msg.rest = j.names.Secondary != nil || j.names.Later != nil
		msg.narrowRest = j.prev.Secondary // none when the names are new
		return msg
	}
}

// answer is the job's result message for these tiers.
func (j *job) answer(t tiers, narrow Narrowing, err error) ResultMsg {
	msg := ResultMsg{owner: j.owner, seq: j.seq, query: j.query, names: j.names, err: err}
	if err == nil {
		msg.tiers, msg.narrow, msg.matches = t, narrow, t.indexes()
	}
	return msg
}

// rest answers the second part of first: the rows that match only on
// Secondary, after first's matches (Secondary is built now if it must be,
// and kept for the next keystrokes).
func (m *Model) rest(first ResultMsg) tea.Cmd {
	ctx := m.ctx // the same query's: the next keystroke cancels it
	m.busy, m.busySeq = true, first.seq
	prev := first.narrowRest
	return func() tea.Msg {
		names := first.names
		names.buildSecondary()
		second, sec, err := secondaryTier(ctx, first.query, names, first.tiers.first, prev)
		j := job{owner: first.owner, seq: first.seq, query: first.query, names: names}
		msg := j.answer(tiers{first: first.tiers.first, second: second}, Narrowing{Primary: first.narrow.Primary, Secondary: sec}, err)
		msg.extends = true
		return msg
	}
}

// Narrowing is what the last answer leaves for the next keystroke: its
// fuzzy results on Primary and on Secondary, so that a pattern extended by
// a letter searches only their matches, in both tiers.
type Narrowing struct{ Primary, Secondary filter.Result }

// tiers are an answer's matches as the line shows them, each with its
// score: the rows whose Primary matches, best first, then the rows that
// match only on Secondary, best first (ties in row order; a query that is
// not fuzzy scores 0, so its tiers are in row order). An inverse query has
// one tier. Appended rows merge into each tier by score (append.go).
type tiers struct{ first, second []filter.Match }

// indexes are the tiers' rows in the order shown.
func (t tiers) indexes() []int {
	out := make([]int, 0, len(t.first)+len(t.second))
	for _, mt := range t.first {
		out = append(out, mt.Index)
	}
	for _, mt := range t.second {
		out = append(out, mt.Index)
	}
	return out
}

// Run filters names: rows whose Primary matches come first (ranked as
// fuzzy.Find ranks them), then rows that match only on Secondary; an
// inverse query keeps the rows that match on neither. prev (the last
// answer's fuzzy results) lets an extended pattern search only their
// matches; this answer's are returned for the next keystroke.
func Run(ctx context.Context, q filter.Query, names Names, prev Narrowing) ([]int, Narrowing, error) {
	t, next, err := runTiers(ctx, q, names, prev)
	if err != nil {
		return nil, Narrowing{}, err
	}
	return t.indexes(), next, nil
}

// runTiers is Run, with each tier's scores.
func runTiers(ctx context.Context, q filter.Query, names Names, prev Narrowing) (tiers, Narrowing, error) {
	first, res, err := primaryTier(ctx, q, names, prev.Primary)
	if err != nil {
		return tiers{}, Narrowing{}, err
	}
	names.buildSecondary()
	if q.Kind == filter.Inverse {
		first, err = dropSecondary(ctx, q, names, first)
		return tiers{first: first}, Narrowing{Primary: res}, err
	}
	second, sec, err := secondaryTier(ctx, q, names, first, prev.Secondary)
	return tiers{first: first, second: second}, Narrowing{Primary: res, Secondary: sec}, err
}

// buildSecondary makes Secondary now if it was left for Later.
func (n *Names) buildSecondary() {
	if n.Secondary == nil && n.Later != nil {
		n.Secondary, n.Later = n.Later(), nil
	}
}

// dropSecondary takes from kept (the rows whose Primary an inverse query
// keeps) those whose Secondary the pattern matches.
func dropSecondary(ctx context.Context, q filter.Query, names Names, kept []filter.Match) ([]filter.Match, error) {
	if names.Secondary == nil {
		return kept, nil
	}
	sec, err := filter.Filter(ctx, filter.Query{Kind: filter.Fuzzy, Pattern: q.Pattern}, names.Secondary)
	if err != nil {
		return nil, err
	}
	drop := make([]bool, len(names.Secondary))
	for _, mt := range sec.Matches {
		drop[mt.Index] = true
	}
	out := make([]filter.Match, 0, len(kept))
	for _, mt := range kept {
		if !drop[mt.Index] {
			out = append(out, mt)
		}
	}
	return out, nil
}

// primaryTier is the first tier: the rows whose Primary matches. Its
// result narrows the next keystroke when both are fuzzy (Narrow checks).
func primaryTier(ctx context.Context, q filter.Query, names Names, prev filter.Result) ([]filter.Match, filter.Result, error) {
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
	return res.Matches, res, nil
}

// secondaryTier is the second tier: the rows that match on Secondary and
// are not in first. prev, the last result on Secondary, narrows an
// extended pattern's search to its matches; the whole result on Secondary
// is returned for the next keystroke.
func secondaryTier(ctx context.Context, q filter.Query, names Names, first []filter.Match, prev filter.Result) ([]filter.Match, filter.Result, error) {
	if names.Secondary == nil {
		return nil, filter.Result{}, nil
	}
	var sec filter.Result
	var err error
	if q.Kind == filter.Fuzzy && prev.Total == len(names.Secondary) {
		sec, err = filter.Narrow(ctx, q, names.Secondary, prev)
	} else {
		sec, err = filter.Filter(ctx, q, names.Secondary)
	}
	if err != nil {
		return nil, filter.Result{}, err
	}
	inFirst := newBitset(len(names.Primary))
	for _, mt := range first {
		inFirst.set(mt.Index)
	}
	var second []filter.Match
	for _, mt := range sec.Matches {
		if !inFirst.has(mt.Index) {
			second = append(second, mt)
		}
	}
	return second, sec, nil
}

// bitset is a set of row indexes: n bits, cleared in n/64 words.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)      { b[i>>6] |= 1 << (i & 63) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }
