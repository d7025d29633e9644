package census

import (
	"time"

	"canopy/api"
)

// TagCount is what a scan of one repo's tags found: how many, how many
// deprecated, and when they were last updated, by week.
type TagCount struct {
	Tags, Deprecated int
	Updated          History // every tag, by the week of its last update
	Deprecations     History // the deprecated ones, by DeprecationCell
}

// Add counts a page of tags, seen from now.
func (c *TagCount) Add(tags []api.Tag, now time.Time) {
	c.Tags += len(tags)
	at := api.TimeOf(now)
	for i := range tags {
		t := tags[i].UpdateTime
		c.Updated.add(t, at, Week)
		if tags[i].Deprecated {
			c.Deprecated++
			c.Deprecations.add(t, at, DeprecationCell)
		}
	}
}

// Remove takes a tag deleted since out of the count, as Add put it in
// (seen from now: a week boundary passed since is a week off, no more).
func (c *TagCount) Remove(t api.Tag, now time.Time) {
	at := api.TimeOf(now)
	c.Tags = max(c.Tags-1, 0)
	c.Updated.sub(t.UpdateTime, at, Week)
	if t.Deprecated {
		c.Deprecated = max(c.Deprecated-1, 0)
		c.Deprecations.sub(t.UpdateTime, at, DeprecationCell)
	}
}

// Scan is a repo's count and when the scan ended.
type Scan struct {
	TagCount
	At time.Time
	// Partial says the scan stopped at its bound: at least these.
	Partial bool
}

// Cache keeps the last complete scan of each repo. It belongs to one
// goroutine (the UI loop).
type Cache struct{ scans map[string]Scan }

// NewCache is an empty cache.
func NewCache() *Cache { return &Cache{scans: map[string]Scan{}} }

// Get is a repo's last scan.
func (c *Cache) Get(uid string) (Scan, bool) {
	s, ok := c.scans[uid]
	return s, ok
}

// Put keeps a repo's scan.
func (c *Cache) Put(uid string, s Scan) { c.scans[uid] = s }

// Forget drops a repo's scan (it is taken again).
func (c *Cache) Forget(uid string) { delete(c.scans, uid) }

// Deprecated is the deprecated tags of the organization's repos, as far as
// they were scanned: per repo and per folder (a folder counts everything
// below it), each ranked, and the totals.
type Deprecated struct {
	Repos, Folders []Bar
	Total, Tags    int
	Scanned, Of    int       // repos with a count, of all
	Oldest         time.Time // the oldest count's time (zero: none)
	Deprecations   History
	Updated        History
	ReposWithAny   int
	FoldersWithAny int
}

// CountDeprecated adds up the scans of l's repos.
func CountDeprecated(l *Layout, c *Cache) Deprecated {
	d := Deprecated{Of: len(l.Repos)}
	type sum struct{ n, of int }
	folders := map[string]*sum{}
	for _, r := range l.Repos {
		s, ok := c.Get(r.UID)
		if !ok {
			continue
		}
		d.Scanned++
		if d.Oldest.IsZero() || s.At.Before(d.Oldest) {
			d.Oldest = s.At
		}
		d.Total += s.Deprecated
		d.Tags += s.Tags
		d.Deprecations = d.Deprecations.Plus(s.Deprecations)
		d.Updated = d.Updated.Plus(s.Updated)
		if s.Deprecated > 0 {
			d.Repos = append(d.Repos, Bar{Key: r.UID, Label: r.Name, N: s.Deprecated, Of: s.Tags})
		}
		for f := api.ParentUID(r.UID); f != "" && f != l.Org; f = api.ParentUID(f) {
			fs := folders[f]
			if fs == nil {
				fs = &sum{}
				folders[f] = fs
			}
			fs.n += s.Deprecated
			fs.of += s.Tags
		}
	}
	for uid, s := range folders {
		if s.n > 0 {
			d.Folders = append(d.Folders, Bar{Key: uid, Label: l.Path(uid), N: s.n, Of: s.of})
		}
	}
	d.ReposWithAny, d.FoldersWithAny = len(d.Repos), len(d.Folders)
	ranked(d.Repos)
	ranked(d.Folders)
	return d
}
