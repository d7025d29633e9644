package paging

import (
	"sort"

	tea "charm.land/bubbletea/v2"
)

// Ensure makes sure the rows from cursor-ahead to cursor+ahead are loaded or
// on their way: called after every cursor move with ahead = one screen.
// It sends at most one request per gap and none for what is in flight or
// failed (Retry clears a failure): a page that failed stays failed until r,
// while moving elsewhere goes on loading.
func (l *List[T]) Ensure(cursor, ahead int) tea.Cmd {
	if l.total < 0 || l.refreshing || l.Stale() {
		return nil // nothing to ask for rows that are not this generation's
	}
	var cmds []tea.Cmd
	for _, p := range []int{cursor, cursor + ahead, cursor - ahead} {
		if p >= l.total && !l.exact {
			p = l.total - 1 // without a total, the row that loads the rest
		}
		if p < 0 || p >= l.total {
			continue
		}
		cmds = append(cmds, l.ensureAt(p))
	}
	return tea.Batch(cmds...)
}

// ensureAt fetches the page that covers position p when it is missing.
func (l *List[T]) ensureAt(p int) tea.Cmd {
	if l.windowAt(p) != nil || l.Loading(p) || l.FailedAt(p) {
		return nil
	}
	// The gap around p: from the end of the window before it to the start
	// of the window after it.
	k := sort.Search(len(l.windows), func(k int) bool { return l.windows[k].start > p })
	gapStart, gapEnd := 0, l.total
	var prev *window[T]
	if k > 0 {
		prev = &l.windows[k-1]
		gapStart = prev.end()
	}
	if k < len(l.windows) {
		gapEnd = l.windows[k].start
	} else if !l.exact {
		// The last position stands for the rest, however many follow.
		gapEnd = max(l.total, gapStart+l.size)
	}
	spans := l.pending
	if l.err != nil {
		spans = append(spans[:len(spans):len(spans)], span{l.errAt, l.errEnd})
	}
	for _, s := range spans {
		if s.end <= p && s.end > gapStart {
			gapStart = s.end
		}
		if s.start > p && s.start < gapEnd {
			gapEnd = s.start
		}
	}
	if l.noSkip {
		// The server ignores skip: only the page after a window's end, by
		// its token, can be asked for; the walk goes on page by page.
		if prev == nil && gapStart == 0 {
			return l.fetch(Request{Size: l.size, OrderBy: l.order}, 0)
		}
		if prev == nil || prev.next == "" || gapStart != prev.end() {
			return nil // on its way (a pending page ends the gap's start), or no way there
		}
		return l.fetch(Request{Token: prev.next, Size: min(l.size, gapEnd-gapStart), OrderBy: l.order}, gapStart)
	}
	switch {
	case prev != nil && prev.next != "" && gapStart == prev.end() && p-gapStart < l.size && l.read.HeadKnown():
		// Walking forward: follow the window's token. Only once the first
		// page is known: that is how a token that expired (and restarted the
		// list from the top) is recognised. Before, a skip request does.
		return l.fetch(Request{Token: prev.next, Size: min(l.size, gapEnd-gapStart), OrderBy: l.order}, gapStart)
	case gapEnd-p <= l.size/2 && gapEnd < l.total || gapEnd == l.total && gapEnd-p < l.size:
		// Near the end of the gap (scrolling up into it, or a jump to the
		// end): one page that finishes exactly where the gap does.
		start := max(gapStart, gapEnd-l.size)
		return l.fetch(Request{Skip: start, Size: gapEnd - start, OrderBy: l.order}, start)
	default:
		start := max(gapStart, p-l.size/4)
		return l.fetch(Request{Skip: start, Size: min(l.size, gapEnd-start), OrderBy: l.order}, start)
	}
}

// Retry clears the last error (and what was fruitless) and fetches again
// around cursor.
func (l *List[T]) Retry(cursor, ahead int) tea.Cmd {
	l.fruitless, l.stale = nil, 0
	if l.Stale() {
		return l.Refresh()
	}
	if l.total < 0 {
		return l.Reset(l.order)
	}
	l.err = nil
	return l.Ensure(cursor, ahead)
}

// fetch returns the command for one request and marks its span in flight.
// A request that brought nothing new last time is not sent again (until r).
func (l *List[T]) fetch(req Request, at int) tea.Cmd {
	if req.Size <= 0 || l.fruitless != nil && *l.fruitless == req {
		return nil
	}
	l.pending = append(l.pending, span{at, at + req.Size})
	l.requests++
	ctx, src, owner, gen := l.ctx, l.src, any(l), l.gen
	return func() tea.Msg {
		res, err := src(ctx, req)
		return PageMsg{owner: owner, gen: gen, req: req, at: at, items: res.Items,
			next: res.Next, total: res.Total, noTotal: res.NoTotal, skip: res.Skipped, ignored: res.Ignored, partial: res.Partial, dropped: res.Dropped, err: err}
	}
}
