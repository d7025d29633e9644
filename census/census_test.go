package census_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"canopy/api"
	"canopy/census"
)

// now is the tests' clock, on a whole millisecond as the wire carries.
var now = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func ago(d time.Duration) api.Time { return api.TimeOf(now.Add(-d)) }

func tag(d time.Duration, dep bool) api.Tag { return api.Tag{UpdateTime: ago(d), Deprecated: dep} }

// hist is a history with n at each cell given as cell:n pairs.
func hist(cellN ...int) census.History {
	var h census.History
	for i := 0; i < len(cellN); i += 2 {
		h[cellN[i]] = int32(cellN[i+1])
	}
	return h
}

const last = census.Weeks - 1

func TestTagCountAdd(t *testing.T) {
	const day, cell = 24 * time.Hour, census.DeprecationCell
	zero := api.Tag{Deprecated: true} // a tag the wire gave no time
	tests := []struct {
		name  string
		pages [][]api.Tag
		want  census.TagCount
	}{
		{"no page", nil, census.TagCount{}},
		{"empty page", [][]api.Tag{{}}, census.TagCount{}},
		{"now is the newest cell", [][]api.Tag{{tag(0, false)}},
			census.TagCount{Tags: 1, Updated: hist(last, 1)}},
		{"less than a week is this week", [][]api.Tag{{tag(6*day+23*time.Hour, false)}},
			census.TagCount{Tags: 1, Updated: hist(last, 1)}},
		{"a week ago is last week", [][]api.Tag{{tag(census.Week, false)}},
			census.TagCount{Tags: 1, Updated: hist(last-1, 1)}},
		{"deprecated counts in both, by its own cell", [][]api.Tag{{tag(5*census.Week, true)}},
			census.TagCount{Tags: 1, Deprecated: 1, Updated: hist(last-5, 1), Deprecations: hist(last-1, 1)}},
		{"the oldest week", [][]api.Tag{{tag(52*census.Week-time.Millisecond, false)}},
			census.TagCount{Tags: 1, Updated: hist(0, 1)}},
		{"older than the weeks: only deprecations", [][]api.Tag{{tag(52*census.Week, true)}},
			census.TagCount{Tags: 1, Deprecated: 1, Deprecations: hist(last-13, 1)}},
		{"the oldest deprecation cell", [][]api.Tag{{tag(census.Weeks*cell-time.Millisecond, true)}},
			census.TagCount{Tags: 1, Deprecated: 1, Deprecations: hist(0, 1)}},
		{"older than the deprecations' span", [][]api.Tag{{tag(census.Weeks*cell, true), tag(10*365*day, true)}},
			census.TagCount{Tags: 2, Deprecated: 2}},
		{"future not in the histories", [][]api.Tag{{tag(-time.Millisecond, true), tag(-census.Week, false)}},
			census.TagCount{Tags: 2, Deprecated: 1}},
		{"zero time not in the histories", [][]api.Tag{{zero, {}}},
			census.TagCount{Tags: 2, Deprecated: 1}},
		{"pages add up", [][]api.Tag{
			{tag(0, false), tag(day, true), tag(census.Week, false)},
			{tag(2*day, false), tag(9*census.Week, true)},
		}, census.TagCount{Tags: 5, Deprecated: 2,
			Updated: hist(last, 3, last-1, 1, last-9, 1), Deprecations: hist(last, 1, last-2, 1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c census.TagCount
			for _, p := range tt.pages {
				c.Add(p, now)
			}
			if c != tt.want {
				t.Errorf("got %+v\nwant %+v", c, tt.want)
			}
		})
	}
}

func TestHistory(t *testing.T) {
	a, b := hist(0, 1, 10, 2, last, 3), hist(0, 4, last-1, 5, last, 6)
	if got, want := a.Plus(b), hist(0, 5, 10, 2, last-1, 5, last, 9); got != want {
		t.Errorf("Plus = %v, want %v", got, want)
	}
	if a != hist(0, 1, 10, 2, last, 3) {
		t.Errorf("Plus changed its receiver: %v", a)
	}
	for n, want := range map[int]int64{-1: 0, 0: 0, 1: 3, 2: 3, census.Weeks - 10: 5, census.Weeks - 1: 5,
		census.Weeks: 6, census.Weeks + 1: 6, 1000: 6} {
		if got := a.Sum(n); got != want {
			t.Errorf("Sum(%d) = %d, want %d", n, got, want)
		}
	}
	var big census.History
	for i := range big {
		big[i] = 1 << 30
	}
	if got, want := big.Sum(census.Weeks), int64(census.Weeks)<<30; got != want {
		t.Errorf("Sum of large cells = %d, want %d (no int32 overflow)", got, want)
	}
	for h, want := range map[census.History]int32{{}: 0, a: 3, b: 6, hist(5, 7): 7} {
		if got := h.Max(); got != want {
			t.Errorf("Max of %v = %d, want %d", h, got, want)
		}
	}
}

// layout is an organization acme (org1) with folders platform, platform/base,
// platform/base/img, apps, and org1/x whose name is not known.
func layout() *census.Layout {
	return &census.Layout{Org: "org1", Folders: map[string]string{
		"org1": "acme", "org1/p": "platform", "org1/p/b": "base", "org1/p/b/i": "img", "org1/a": "apps",
	}}
}

func TestLayoutPath(t *testing.T) {
	l := layout()
	tests := []struct{ uid, want string }{
		{"org1", ""},
		{"org1/p", "platform"},
		{"org1/p/b", "platform/base"},
		{"org1/p/b/i", "platform/base/img"},
		{"org1/a", "apps"},
		{"org1/x", "x"},
		{"org1/x/y", "x/y"},
		{"org1/p/z", "platform/z"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := l.Path(tt.uid); got != tt.want {
			t.Errorf("Path(%q) = %q, want %q", tt.uid, got, tt.want)
		}
	}
}

func scan(tags, deprecated int, at time.Time) census.Scan {
	return census.Scan{At: at, TagCount: census.TagCount{Tags: tags, Deprecated: deprecated,
		Updated: hist(last, tags), Deprecations: hist(last, deprecated)}}
}

func TestCountDeprecated(t *testing.T) {
	l := layout()
	l.Repos = []census.Repo{
		{"org1/r0", "top"}, {"org1/p/r1", "one"}, {"org1/p/b/r2", "two"}, {"org1/a/r3", "three"},
		{"org1/a/r4", "four"}, {"org1/x/r5", "five"}, {"org1/p/b/i/r6", "six"},
	}
	full := map[string]census.Scan{
		"org1/r0": scan(10, 2, now.Add(-time.Hour)), "org1/p/r1": scan(5, 1, now),
		"org1/p/b/r2": scan(8, 3, now.Add(-3*time.Hour)), "org1/a/r3": scan(4, 0, now),
		"org1/x/r5": scan(6, 3, now), "org1/p/b/i/r6": scan(2, 2, now.Add(-2*time.Hour)),
		"org1/gone": scan(100, 100, now.Add(-100*time.Hour)), // not in the layout
	}
	tests := []struct {
		name  string
		scans map[string]census.Scan
		want  census.Deprecated
	}{
		{"nothing scanned", nil, census.Deprecated{Of: 7}},
		{"only the top repo", map[string]census.Scan{"org1/r0": full["org1/r0"]}, census.Deprecated{
			Repos: []census.Bar{{"org1/r0", "top", 2, 10}}, Total: 2, Tags: 10, Scanned: 1, Of: 7,
			Oldest: now.Add(-time.Hour), Deprecations: hist(last, 2), Updated: hist(last, 10), ReposWithAny: 1,
		}},
		{"no deprecated tags", map[string]census.Scan{"org1/a/r3": full["org1/a/r3"]}, census.Deprecated{
			Tags: 4, Scanned: 1, Of: 7, Oldest: now, Updated: hist(last, 4),
		}},
		{"all", full, census.Deprecated{
			Repos: []census.Bar{
				{"org1/x/r5", "five", 3, 6}, {"org1/p/b/r2", "two", 3, 8},
				{"org1/p/b/i/r6", "six", 2, 2}, {"org1/r0", "top", 2, 10}, {"org1/p/r1", "one", 1, 5},
			},
			Folders: []census.Bar{
				{"org1/p", "platform", 6, 15}, {"org1/p/b", "platform/base", 5, 10},
				{"org1/x", "x", 3, 6}, {"org1/p/b/i", "platform/base/img", 2, 2},
			},
			Total: 11, Tags: 35, Scanned: 6, Of: 7, Oldest: now.Add(-3 * time.Hour),
			Deprecations: hist(last, 11), Updated: hist(last, 35), ReposWithAny: 5, FoldersWithAny: 4,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := census.NewCache()
			for uid, s := range tt.scans {
				c.Put(uid, s)
			}
			if got := census.CountDeprecated(l, c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

var (
	ownerRole  = &api.Ref{UID: "owner-uid", Name: census.OwnerRole}
	viewerRole = &api.Ref{UID: "viewer-uid", Name: "viewer"}
	orgRef     = &api.Ref{UID: "org1", Name: "acme-ref"}
	baseRef    = &api.Ref{UID: "org1/p/b", Name: "base"}
)

func bind(id string, group, role *api.Ref) api.RoleBinding {
	b := api.RoleBinding{Group: group, Role: role}
	if id != "" {
		b.Identity = &api.BindingIdentity{UID: id}
	}
	return b
}

func TestStatusKinds(t *testing.T) {
	seen := map[string]census.Status{}
	for s, want := range [census.Statuses][]string{
		{api.EventDetection, api.EventTruePositiveDetermination}, {api.EventPendingUpstreamFix},
		{api.EventFixed, api.EventPatched}, {api.EventFalsePositiveDetermination},
		{api.EventFixNotPlanned, api.EventAnalysisNotPlanned},
	} {
		if got := census.Status(s).Kinds(); !slices.Equal(got, want) {
			t.Errorf("%v.Kinds() = %v, want %v", census.Status(s), got, want)
		}
		for _, k := range want {
			if o, dup := seen[k]; dup {
				t.Errorf("kind %q in both %v and %v", k, o, census.Status(s))
			}
			seen[k] = census.Status(s)
		}
	}
	// Every kind is in a status: an approved advisory is counted once.
	for _, k := range api.EventKinds() {
		if _, ok := seen[k]; !ok {
			t.Errorf("kind %q in no status", k)
		}
	}
	if got := census.Statuses.Kinds(); got != nil {
		t.Errorf("Statuses.Kinds() = %v, want nil", got)
	}
}

func TestAdvisoryCount(t *testing.T) {
	for n, want := range map[[census.Statuses]int][2]int{ // open, total
		{}: {0, 0}, {1, 0, 0, 0}: {1, 1}, {0, 2, 0, 0}: {2, 2}, {0, 0, 3, 4}: {0, 7}, {1, 2, 3, 4}: {3, 10},
	} {
		c := census.AdvisoryCount{N: n, Partial: true}
		if got := [2]int{c.Open(), c.Total()}; got != want {
			t.Errorf("%v: Open, Total = %v, want %v", n, got, want)
		}
	}
}

func TestRankAdvisories(t *testing.T) {
	count := func(n ...int) census.AdvisoryCount {
		var c census.AdvisoryCount
		copy(c.N[:], n)
		return c
	}
	repos := []census.Repo{
		{"org1/a", "alpha"}, {"org1/b", "beta"}, {"org1/c", "gamma"}, {"org1/d", "delta"},
		{"org1/e", "eps"}, {"org1/f/dup", "dup"}, {"org1/g/dup", "dup"}, {"org1/z", "zeta"},
	}
	counts := map[string]census.AdvisoryCount{
		"alpha": count(2, 0, 0, 0), "beta": count(1, 1, 3, 0), "gamma": count(0, 0, 2, 1),
		"eps": count(0, 0, 0, 0), "dup": count(0, 1, 0, 0), "zeta": count(1, 1, 0, 0),
		"other": count(9, 9, 9, 9), // no repo of that name
	}
	got := census.RankAdvisories(repos, lookup(counts))
	var uids []string
	for _, l := range got {
		uids = append(uids, l.Repo.UID)
		if l.Count != counts[l.Repo.Name] {
			t.Errorf("%s: count %v, want %v", l.Repo.UID, l.Count, counts[l.Repo.Name])
		}
	}
	// beta (2 open, 5 in all), alpha and zeta (2 open, 2), both dups (1), gamma (0 open).
	want := []string{"org1/b", "org1/a", "org1/z", "org1/f/dup", "org1/g/dup", "org1/c"}
	if len(uids) == len(want) && uids[3] == "org1/g/dup" {
		uids[3], uids[4] = uids[4], uids[3] // the two dups are tied: either order
	}
	if !slices.Equal(uids, want) {
		t.Errorf("got %v\nwant %v", uids, want)
	}
	if got := census.RankAdvisories(repos, lookup(nil)); len(got) != 0 {
		t.Errorf("no counts: got %v", got)
	}
}

// A time centuries before now is outside the span: neither counted nor a
// crash (a hostile server's dates).
func TestTagCountAddAncientTimes(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	var c census.TagCount
	for _, y := range []int{1, 1441, 1500, 1700, 1733} {
		c.Add([]api.Tag{{UpdateTime: api.TimeOf(time.Date(y, 8, 13, 0, 0, 0, 0, time.UTC)), Deprecated: true}}, now)
	}
	if c.Tags != 5 || c.Deprecated != 5 || c.Updated.Sum(census.Weeks) != 0 || c.Deprecations.Sum(census.Weeks) != 0 {
		t.Errorf("count = %+v, want 5 tags, 5 deprecated, none in the histories", c)
	}
}

// counts is a map's lookup, as RankAdvisories asks for counts.
func lookup(m map[string]census.AdvisoryCount) func(string) (census.AdvisoryCount, bool) {
	return func(name string) (census.AdvisoryCount, bool) {
		c, ok := m[name]
		return c, ok
	}
}
