package overview

import (
	"slices"
	"time"

	"canopy/api"
	"canopy/census"
)

// scans are the listings that count the repos of l (all: every one; else
// those the cache does not hold). A folder with repos and no folder below
// it that has any is listed whole (its repos' tags in pages of 200, however
// few each has); the repos of other folders one by one. Most repos are few
// tags, so this asks far fewer pages than a listing per repo, and still
// lets three run at once.
func scans(l *census.Layout, cache *census.Cache, all bool) []job {
	// byFolder are the repos of each folder; inner, the folders that have
	// a folder with repos below them.
	byFolder := map[string][]string{}
	inner := map[string]bool{}
	for _, r := range l.Repos {
		f := api.ParentUID(r.UID)
		byFolder[f] = append(byFolder[f], r.UID)
	}
	for f := range byFolder {
		for p := api.ParentUID(f); p != ""; p = api.ParentUID(p) {
			inner[p] = true
		}
	}
	folders := make([]string, 0, len(byFolder))
	for f := range byFolder {
		folders = append(folders, f)
	}
	slices.Sort(folders)
	wanted := func(uid string) bool {
		_, ok := cache.Get(uid)
		return all || !ok
	}
	var out []job
	for _, f := range folders {
		repos := byFolder[f]
		var want []string
		for _, uid := range repos {
			if wanted(uid) {
				want = append(want, uid)
			}
		}
		switch {
		case len(want) == 0:
		case !inner[f] && f != l.Org && len(want) > 1:
			out = append(out, job{kind: jobTags, scope: Scope{UID: f, Subtree: true}, repos: repos})
		default:
			for _, uid := range want {
				out = append(out, job{kind: jobTags, scope: Scope{UID: uid}, repos: []string{uid}})
			}
		}
	}
	return out
}

// countByRepo counts a page of tags per repo.
func countByRepo(tags []api.Tag, now time.Time) map[string]*census.TagCount {
	out := map[string]*census.TagCount{}
	start := 0
	// A page comes repo after repo, mostly: count each run at once.
	for i := 1; i <= len(tags); i++ {
		if i < len(tags) && api.ParentUID(tags[i].UID) == api.ParentUID(tags[start].UID) {
			continue
		}
		uid := api.ParentUID(tags[start].UID)
		c := out[uid]
		if c == nil {
			c = &census.TagCount{}
			out[uid] = c
		}
		c.Add(tags[start:i], now)
		start = i
	}
	return out
}
