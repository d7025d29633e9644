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
	m.stale = true
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
		matches, prev, err := Run(j.ctx, j.query, j.names, j.prev)
		kept := -1
		if keep >= 0 && err == nil && j.names.Rows != nil {
			for i, ix := range matches {
				if j.names.Rows[ix] == keep {
					kept = i
					break
				}
			}
		}
		return ResultMsg{owner: j.owner, seq: j.seq, query: j.query, matches: matches, names: j.names, primary: prev.Primary,
			secondary: prev.Secondary, err: err, refreshed: true, kept: kept}
	}
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
	case m.stale:
		m.prep, m.stale = &prepared{build: m.snap()}, false
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
			matches, prev, err := Run(j.ctx, j.query, j.names, j.prev)
			return ResultMsg{owner: j.owner, seq: j.seq, query: j.query, matches: matches, names: j.names, primary: prev.Primary,
				secondary: prev.Secondary, err: err}
		}
		matches, primary, err := RunPrimary(j.ctx, j.query, j.names, j.prev.Primary)
		rest := j.names.Secondary != nil || j.names.Later != nil
		return ResultMsg{owner: j.owner, seq: j.seq, query: j.query, matches: matches, names: j.names, primary: primary, err: err, rest: rest}
	}
}

// rest answers the second part of first: the rows that match only on
// Secondary, after first's matches (Secondary is built now if it must be,
// and kept for the next keystrokes).
func (m *Model) rest(first ResultMsg) tea.Cmd {
	ctx := m.ctx // the same query's: the next keystroke cancels it
	m.busy, m.busySeq = true, first.seq
	prev := m.prev.Secondary
	return func() tea.Msg {
		names := first.names
		names.buildSecondary()
		matches, secondary, err := RunSecondary(ctx, first.query, names, first.matches, prev)
		return ResultMsg{owner: first.owner, seq: first.seq, query: first.query, matches: matches, names: names,
			primary: first.primary, secondary: secondary, err: err, extends: true}
	}
}

// Narrowing is what the last answer leaves for the next keystroke: its
// fuzzy results on Primary and on Secondary, so that a pattern extended by
// a letter searches only their matches, in both tiers.
type Narrowing struct{ Primary, Secondary filter.Result }

// Run filters names: rows whose Primary matches come first (ranked as
// fuzzy.Find ranks them), then rows that match only on Secondary; an
// inverse query keeps the rows that match on neither. prev (the last
// answer's fuzzy results) lets an extended pattern search only their
// matches; this answer's are returned for the next keystroke.
func Run(ctx context.Context, q filter.Query, names Names, prev Narrowing) ([]int, Narrowing, error) {
	out, res, err := RunPrimary(ctx, q, names, prev.Primary)
	if err != nil {
		return out, Narrowing{}, err
	}
	names.buildSecondary()
	if q.Kind == filter.Inverse {
		out, err = dropSecondary(ctx, q, names, out)
		return out, Narrowing{Primary: res}, err
	}
	out, sec, err := RunSecondary(ctx, q, names, out, prev.Secondary)
	return out, Narrowing{Primary: res, Secondary: sec}, err
}

// buildSecondary makes Secondary now if it was left for Later.
func (n *Names) buildSecondary() {
	if n.Secondary == nil && n.Later != nil {
		n.Secondary, n.Later = n.Later(), nil
	}
}

// dropSecondary takes from kept (the rows whose Primary an inverse query
// keeps) those whose Secondary the pattern matches.
func dropSecondary(ctx context.Context, q filter.Query, names Names, kept []int) ([]int, error) {
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
	out := kept[:0]
	for _, i := range kept {
		if !drop[i] {
			out = append(out, i)
		}
	}
	return out, nil
}

// RunPrimary is the first part of Run: the rows whose Primary matches.
func RunPrimary(ctx context.Context, q filter.Query, names Names, prev filter.Result) ([]int, filter.Result, error) {
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
	return out, res, nil
}

// RunSecondary is the second part of Run: primary (the first part's
// answer) followed by the rows that match only on Secondary. prev, the
// last fuzzy result on Secondary, narrows an extended pattern's search to
// its matches; the fuzzy result is returned for the next keystroke.
func RunSecondary(ctx context.Context, q filter.Query, names Names, primary []int, prev filter.Result) ([]int, filter.Result, error) {
	if names.Secondary == nil {
		return primary, filter.Result{}, nil
	}
	inPrimary := make([]bool, len(names.Primary))
	for _, i := range primary {
		inPrimary[i] = true
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
	out := make([]int, len(primary), len(primary)+len(sec.Matches))
	copy(out, primary)
	for _, mt := range sec.Matches {
		if !inPrimary[mt.Index] {
			out = append(out, mt.Index)
		}
	}
	if q.Kind != filter.Fuzzy {
		return out, filter.Result{}, nil
	}
	return out, sec, nil
}
