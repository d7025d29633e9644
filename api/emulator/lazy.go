package emulator

import (
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// Repos are seeded without their tags (at every size: the large one's
// 7,700 generated repos hold a million tags; the small demo's 11,236
// would cost most of its start): seeding draws each repo's tags without
// making them (drawRepo with no emit), which leaves the seed's generator
// where making them would have, and keeps where the generator was as the
// repo began. A request that reaches tags makes
// those of the repos it reaches first, drawn again from there: the same
// tags, uids included, whatever order requests come in, so the server
// answers as one seeded whole does (lazy_test.go compares the two request
// by request). The organization is there in a fraction of a second; a
// list of every tag makes them all, once.

// lazyRepo is a repo whose tags are drawn when first asked for.
type lazyRepo struct {
	uid, group string
	def        *seedRepo // what it was drawn from (never changed)
	tags       int32     // how many it has
	born       time.Time // its group's create time
	pcg        rand.PCG  // the seed's generator as the repo began
}

// lazyTags is what a store has yet to make of its repos' tags.
type lazyTags struct {
	now     time.Time
	repos   []lazyRepo       // never changed once seeded: forks share it
	pending map[string]int32 // repo uid → its index in repos, until its tags are made
	tags    int              // the tags of the pending repos
}

// seedLazily adds a repo of def whose tags are made when first asked for.
func (s *seeder) seedLazily(def *seedRepo, group, name, org string) {
	if s.lazy == nil {
		s.lazy = &lazyTags{now: s.now, pending: map[string]int32{}}
	}
	at := *s.pcg
	d := s.drawRepo(def, group, nil)
	s.lazy.pending[d.uid] = int32(len(s.lazy.repos))
	s.lazy.repos = append(s.lazy.repos, lazyRepo{uid: d.uid, group: group, def: def, tags: int32(d.tags),
		born: s.born[group], pcg: at})
	s.lazy.tags += d.tags
	s.addRepo(def, d, name, org)
}

// tagTotal is the number of live tags, made or not.
func (s *store) tagTotal() int {
	if s.lazy == nil {
		return s.tags.live
	}
	return s.tags.live + s.lazy.tags
}

// pendingUnder is the pending repos at or below scope (every one for ""),
// or with direct only the repo scope itself, in seed order.
func (l *lazyTags) pendingUnder(scope string, direct bool) []int32 {
	if l == nil || len(l.pending) == 0 {
		return nil
	}
	if direct || scope != "" {
		if k, ok := l.pending[scope]; ok {
			// A repo: nothing lies below it.
			return []int32{k}
		}
		if direct {
			return nil
		}
	}
	var out []int32
	for uid, k := range l.pending {
		if scope == "" || strings.HasPrefix(uid, scope) && len(uid) > len(scope) && uid[len(scope)] == '/' {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// makeTags makes the tags of the pending repos which (lazyTags.repos
// indexes) and indexes them: one by one when they are few against the
// tags made already, else all at once with a build (a million tags
// inserted one by one into lists of a million cost far more than sorting
// them all).
func (s *store) makeTags(which []int32) {
	l := s.lazy
	n := 0
	for _, k := range which {
		n += int(l.repos[k].tags)
	}
	bulk := n > s.tags.live/4
	if bulk && n >= bigMake {
		// The tags are most of what the process keeps: collect often
		// while they are made and sorted, so that the heap does not grow
		// to twice what stays (the collector's default), and give what
		// was freed back at the end. The tags hold no pointers: a
		// collection marks little.
		defer debug.FreeOSMemory()
		defer debug.SetGCPercent(debug.SetGCPercent(makeGCPercent))
	}
	first := len(s.tags.items)
	s.tags.items = slices.Grow(s.tags.items, n)
	s.tags.dead = slices.Grow(s.tags.dead, n)
	for _, k := range which {
		r := &l.repos[k]
		s.drawTags(r, l.now)
		delete(l.pending, r.uid)
		l.tags -= int(r.tags)
	}
	if bulk {
		s.tags.build()
		return
	}
	for id := first; id < len(s.tags.items); id++ {
		s.tags.index(int32(id))
	}
}

// bigMake is the fewest tags made at once that collect often
// (makeGCPercent) as they are made: a large organization's whole (10⁶)
// or a team's share (10⁴) of it.
const (
	bigMake       = 100_000
	makeGCPercent = 10
)

// makeAllTags makes every tag not made yet, as a list of all does.
func (s *store) makeAllTags() {
	if which := s.lazy.pendingUnder("", false); len(which) > 0 {
		s.makeTags(which)
	}
}

// drawTags adds the tags of r, drawn again from where the seed's generator
// was as r began: the tags seeding would have made.
func (s *store) drawTags(r *lazyRepo, now time.Time) {
	pcg := r.pcg
	d := &seeder{store: &store{pcg: &pcg}, now: now, born: map[string]time.Time{r.group: r.born}}
	d.rng = rand.New(d.pcg)
	d.drawRepo(r.def, r.group, func(t drawnTag) {
		s.tags.add(s.newTag(t.repo, t.suffix, t.name, t.digest, t.create.UnixMilli(), t.update.UnixMilli(), t.deprecated))
	})
}

// needTags makes sure the tags at or below scope ("" every one; with
// direct, those of the repo scope only) are made. Making them changes the
// store: under the read lock it asks ServeHTTP to run the call again
// under the write lock.
func (c *call) needTags(scope string, direct bool) *apiErr {
	which := c.st.lazy.pendingUnder(scope, direct)
	if len(which) == 0 {
		return nil
	}
	if !c.write {
		return &apiErr{relock: true}
	}
	c.st.makeTags(which)
	return nil
}

// clone copies what is left to make; the repos are shared (never changed).
func (l *lazyTags) clone() *lazyTags {
	if l == nil {
		return nil
	}
	c := *l
	c.pending = make(map[string]int32, len(l.pending))
	for k, v := range l.pending {
		c.pending[k] = v
	}
	return &c
}
