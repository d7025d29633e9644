package census

import (
	"slices"
	"time"

	"canopy/api"
)

// Status is where an advisory stands, by its latest approved event.
type Status int

// The statuses the overview counts: every event kind is in one, so an
// advisory with an approved event is counted once.
const (
	Detected        Status = iota // detected, or confirmed as a true positive
	PendingUpstream               // waiting for a fix upstream
	Fixed                         // fixed or patched
	NotAffected                   // a false positive
	NotPlanned                    // no fix or no analysis planned
	Statuses
)

// String names the status as a person would.
func (s Status) String() string {
	return [...]string{"detected", "pending upstream", "fixed", "not affected", "not planned"}[s]
}

// Kinds are the event kinds whose being latest puts an advisory in s.
func (s Status) Kinds() []string {
	switch s {
	case Detected:
		return []string{api.EventDetection, api.EventTruePositiveDetermination}
	case PendingUpstream:
		return []string{api.EventPendingUpstreamFix}
	case Fixed:
		return []string{api.EventFixed, api.EventPatched}
	case NotAffected:
		return []string{api.EventFalsePositiveDetermination}
	case NotPlanned:
		return []string{api.EventFixNotPlanned, api.EventAnalysisNotPlanned}
	}
	return nil
}

// AdvisoryCount is a repo's advisories by status. Partial says a listing
// stopped at its bound, so the counts are at least these.
type AdvisoryCount struct {
	N       [Statuses]int
	Partial bool
	// Own: the server ignored the status filter, so canopy sorted the
	// advisories it read (Read of them) by status itself.
	Own  bool
	Read int
}

// StatusOf is the status an advisory's latest approved event puts it in;
// ok false for none (no approved event, or a kind of no status).
func StatusOf(a *api.Advisory) (Status, bool) {
	last := a.LatestApproved()
	if last == nil {
		return 0, false
	}
	return StatusOfKind(last.Kind)
}

// StatusOfKind is the status an event kind's being latest puts an
// advisory in; ok false for a kind of no status.
func StatusOfKind(kind string) (Status, bool) {
	for s := range Statuses {
		if slices.Contains(s.Kinds(), kind) {
			return s, true
		}
	}
	return 0, false
}

// Open is the advisories still to act on: detected or pending upstream.
func (c AdvisoryCount) Open() int { return c.N[Detected] + c.N[PendingUpstream] }

// Total is every advisory counted.
func (c AdvisoryCount) Total() int {
	n := 0
	for _, v := range c.N {
		n += v
	}
	return n
}

// AdvisoryLine is one repo's line of the advisories part.
type AdvisoryLine struct {
	Repo        Repo
	Count       AdvisoryCount
	open, total int // the count's, kept for ranking
}

// RankAdvisories are the repos with advisories (get is a name's count, if
// known), the most open first, then the most of all, then by name.
func RankAdvisories(repos []Repo, get func(name string) (AdvisoryCount, bool)) []AdvisoryLine {
	var out []AdvisoryLine
	for _, r := range repos {
		if c, ok := get(r.Name); ok {
			if t := c.Total(); t > 0 {
				out = append(out, AdvisoryLine{Repo: r, Count: c, open: c.Open(), total: t})
			}
		}
	}
	slicesSortLines(out)
	return out
}

// AdvisoryCache keeps the advisory counts of artifact names, with when
// each was taken. It belongs to one goroutine (the UI loop).
type AdvisoryCache struct {
	counts map[string]AdvisoryCount
	at     map[string]time.Time
}

// NewAdvisoryCache is an empty cache.
func NewAdvisoryCache() *AdvisoryCache {
	return &AdvisoryCache{counts: map[string]AdvisoryCount{}, at: map[string]time.Time{}}
}

// Get is a name's count and when it was taken.
func (c *AdvisoryCache) Get(name string) (AdvisoryCount, time.Time, bool) {
	n, ok := c.counts[name]
	return n, c.at[name], ok
}

// Forget drops a name's count (it is taken again).
func (c *AdvisoryCache) Forget(name string) { delete(c.counts, name); delete(c.at, name) }

// Put keeps a name's count, taken at at.
func (c *AdvisoryCache) Put(name string, n AdvisoryCount, at time.Time) {
	c.counts[name], c.at[name] = n, at
}
