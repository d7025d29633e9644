package api

import (
	"context"
	"slices"
)

// realign finds where the walk left off after the server restarted the
// query, with skip requests (no token), and returns the page from the first
// item after the last one the walk had.
//
// The items already yielded lie before that place and the others after it,
// but for rows inserted or deleted since (which shift positions) and rows
// whose sort key changed (which moved). So a window of the list around the
// walk's position is split where the most items fall on their side: the
// split with the most yielded items before it and the fewest after it. A
// window wholly before the place moves on, one wholly after it moves back.
// A walk whose position is unknown (it began from the caller's token) scans
// from the top, past the items before the ones it yielded.
func (c *Cursor[T]) realign(ctx context.Context) (*Page[T], error) {
	size := c.opts.PageSize
	if size <= 0 {
		size = max(c.pageLen, 1)
	}
	p, dir := 0, 1
	if c.positioned {
		p, dir = max(0, c.offset-size/2), 0
	}
	reached := c.positioned // whether a window has met the items yielded
	var prev *Page[T]
	prevAt := 0
	var lastKeys []string
	lastToken := ""
	for steps := 0; ; steps++ {
		w, err := c.fetch(ctx, "", p, c.opts.PageSize)
		if err != nil {
			return nil, err
		}
		keys := make([]string, len(w.Items))
		for i := range w.Items {
			keys[i] = c.key(&w.Items[i])
		}
		if steps > 0 && len(keys) > 0 && slices.Equal(keys, lastKeys) && w.NextPageToken == lastToken {
			return nil, ErrPagingStuck // a different skip, the same answer
		}
		// Without a total, the walk's own position bounds the search.
		if steps > 4+2*int(min(w.TotalOr(int64(c.offset+size)), 1<<40))/size {
			return nil, ErrPagingStuck
		}
		lastKeys, lastToken = keys, w.NextPageToken
		n := len(w.Items)
		if n == 0 {
			if p > 0 && dir <= 0 {
				// Past the end: the list got shorter. Look at its end.
				prev, prevAt, dir = w, p, -1
				p = max(0, min(p-size, int(w.TotalOr(int64(p)))-size))
				continue
			}
			c.offset = p
			return w, nil
		}
		from := 0
		if !reached {
			from = c.firstSeen(keys)
			if from == n {
				if w.NextPageToken == "" {
					// The items yielded are gone: nothing is left after them.
					c.offset = p + n
					w.Items = nil
					return w, nil
				}
				p += n
				continue
			}
			reached = true
		}
		k := from + c.split(keys[from:])
		switch {
		case k == n && dir < 0:
			// This window is before the place and the one after it
			// (read just before) is wholly after it.
			c.offset = prevAt
			return prev, nil
		case k == n && w.NextPageToken != "":
			dir = 1
			p += n
			continue
		case k == 0 && p > 0 && dir <= 0:
			prev, prevAt, dir = w, p, -1
			p = max(0, p-size)
			continue
		}
		c.offset = p + k
		w.Items = w.Items[k:]
		return w, nil
	}
}

// firstSeen is the index of the first key yielded before, len(keys) for none.
func (c *Cursor[T]) firstSeen(keys []string) int {
	for i, k := range keys {
		if c.read.Seen(k) {
			return i
		}
	}
	return len(keys)
}

// split is where the walk's place most likely is in keys: the index k with
// the most keys yielded before in keys[:k] plus keys not yielded in keys[k:];
// the smallest such k, so that a doubt yields a row (dropped again if it was
// a duplicate) rather than hides one.
func (c *Cursor[T]) split(keys []string) int {
	unseenAfter := 0
	for _, k := range keys {
		if !c.read.Seen(k) {
			unseenAfter++
		}
	}
	best, bestScore := 0, unseenAfter
	seenBefore := 0
	for i, k := range keys {
		if c.read.Seen(k) {
			seenBefore++
		} else {
			unseenAfter--
		}
		if s := seenBefore + unseenAfter; s > bestScore {
			best, bestScore = i+1, s
		}
	}
	return best
}
