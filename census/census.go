// Package census counts what an organization holds, for the overview:
// deprecated tags per repo and folder, tag updates per week, identities
// that need a look, role bindings per role and folder, and advisories per
// repo by their latest status. It only counts and ranks what it is given:
// the shell fetches, the overview draws. Every function is linear in what
// it counts, save the sort of the bars.
package census

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"canopy/api"
)

// Weeks is how many cells a history has, the one up to now last.
const Weeks = 52

// Week is a cell of the tag updates' history; a deprecation's cell is
// DeprecationCell, as deprecated tags were last updated long ago: the
// history of deprecations spans four years.
const (
	Week            = 7 * 24 * time.Hour
	DeprecationCell = 4 * Week
)

// History counts events by cell of a span: History[Weeks-1] is the one up
// to now, History[0] the oldest; older events are not counted.
type History [Weeks]int32

// add counts an event at t, seen from now, in cells of width.
func (h *History) add(t, now api.Time, width time.Duration) {
	if t.IsZero() || t.After(now) {
		return
	}
	if w := now.Sub(t) / width; w >= 0 && w < Weeks {
		h[Weeks-1-w]++
	}
}

// sub takes back an event add counted at t.
func (h *History) sub(t, now api.Time, width time.Duration) {
	if t.IsZero() || t.After(now) {
		return
	}
	if w := now.Sub(t) / width; w >= 0 && w < Weeks && h[Weeks-1-w] > 0 {
		h[Weeks-1-w]--
	}
}

// Plus is the sum of two histories.
func (h History) Plus(o History) History {
	for i := range h {
		h[i] += o[i]
	}
	return h
}

// Sum is the count of the last n weeks.
func (h History) Sum(n int) int64 {
	var s int64
	for _, v := range h[Weeks-min(max(n, 0), Weeks):] {
		s += int64(v)
	}
	return s
}

// Max is the largest week's count.
func (h History) Max() int32 { return slices.Max(h[:]) }

// Repo is a repo of the organization: its folder is its uid's parent.
type Repo struct{ UID, Name string }

// Layout is the organization's folders and repos.
type Layout struct {
	Org     string            // the organization's uid
	Folders map[string]string // names by uid, the organization's too
	Repos   []Repo
	// Truncated says the listing stopped at its bound: counts are of the
	// repos listed.
	Truncated bool
}

// Path is a folder's path below the organization ("platform/base"), ""
// for the organization itself; a folder whose name is not known shows its
// uid's last segment.
func (l *Layout) Path(uid string) string {
	var parts []string
	for u := uid; u != "" && u != l.Org && strings.HasPrefix(u, l.Org); u = api.ParentUID(u) {
		n := l.Folders[u]
		if n == "" {
			n = u[strings.LastIndexByte(u, '/')+1:]
		}
		parts = append(parts, n)
	}
	slices.Reverse(parts)
	return strings.Join(parts, "/")
}

// Bar is one line of a bar chart: N of Of (Of 0 when a share means
// nothing), and what the line stands for (a uid).
type Bar struct {
	Key, Label string
	N, Of      int
}

// ranked sorts bars by N, largest first, then by label.
func ranked(bars []Bar) []Bar {
	slices.SortFunc(bars, func(a, b Bar) int {
		if c := cmp.Compare(b.N, a.N); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Label, b.Label); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
	return bars
}

// slicesSortLines ranks advisory lines: most open, most of all, name.
func slicesSortLines(lines []AdvisoryLine) {
	slices.SortFunc(lines, func(a, b AdvisoryLine) int {
		if c := cmp.Compare(b.open, a.open); c != 0 {
			return c
		}
		if c := cmp.Compare(b.total, a.total); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Repo.Name, b.Repo.Name); c != 0 {
			return c
		}
		return cmp.Compare(a.Repo.UID, b.Repo.UID)
	})
}
