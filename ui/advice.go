package ui

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/census"
	"canopy/safe"
	"canopy/text"
	"canopy/views/detail"
	"canopy/views/overview"
)

// Bounds of an advisory count: the names of one request (bytes), and the
// pages one listing of a status reads (then the count says "at least").
const (
	adviceNamesBytes = 2048
	adviceMaxPages   = 50
)

// advice is what the shell knows of the advisories of repo names (one
// image name each): the counts the tree's repo rows show, taken a batch
// at a time in the background as repos load, one request at a time. Only
// Update touches it.
type advice struct {
	want     map[string]bool
	failed   map[string]bool // not asked again until the tree is refreshed
	inFlight bool
}

// advisedMsg carries the counts of a batch of names.
type advisedMsg struct {
	org    string
	names  []string
	counts map[string]census.AdvisoryCount
	err    error
}

// caches are the organization's counts, shared by the overview, the
// tree's repo rows and repo pages; made on first use.
func (e *env) caches() overview.Caches {
	org := e.org.UID
	c := e.overviews[org]
	if c.Tags == nil {
		c = overview.Caches{Tags: census.NewCache(), Advisories: census.NewAdvisoryCache()}
		e.overviews[org] = c
	}
	return c
}

// recount changes the kept count of a repo's tags by what was made or
// deleted here (in Update; a repo never counted keeps no count).
func (e *env) recount(repo string, change func(s *census.Scan, now time.Time)) {
	if e.org == nil {
		return
	}
	cache := e.caches().Tags
	if s, ok := cache.Get(repo); ok {
		change(&s, e.common.Clock())
		cache.Put(repo, s)
	}
}

// keptTags is the kept count of a repo's tags when it is whole: the
// deprecated ones, of how many.
func (e *env) keptTags(repo string) (deprecated, of int, ok bool) {
	if e.org == nil {
		return 0, 0, false
	}
	s, ok := e.caches().Tags.Get(repo)
	if !ok || s.Partial {
		return 0, 0, false
	}
	return s.Deprecated, s.Tags, true
}

// wantAdvice asks for the advisory counts of repo names not known yet (in
// Update; the shell starts the count after it).
func (e *env) wantAdvice(names ...string) {
	if e.org == nil {
		return
	}
	c := e.caches().Advisories
	for _, n := range names {
		if _, _, ok := c.Get(n); !ok && n != "" && !e.advice.failed[n] {
			e.advice.want[n] = true
		}
	}
}

// advise starts counting the next batch of wanted names, unless a count
// runs or nothing is wanted.
func (e *env) advise() tea.Cmd {
	a := e.advice
	if a.inFlight || len(a.want) == 0 || e.org == nil {
		return nil
	}
	var batch []string
	size := 0
	for _, n := range slices.Sorted(maps.Keys(a.want)) {
		if len(batch) > 0 && size+len(n) > adviceNamesBytes {
			break
		}
		batch = append(batch, n)
		size += len(n)
		delete(a.want, n)
	}
	a.inFlight = true
	ctx, c, org := e.ctx, e.client, e.org.UID
	return func() tea.Msg {
		counts, err := countAdvisories(ctx, c, batch)
		return advisedMsg{org: org, names: batch, counts: counts, err: err}
	}
}

// advised keeps a batch's counts (in Update) and starts the next.
func (e *env) advised(msg advisedMsg) tea.Cmd {
	e.advice.inFlight = false
	if e.org == nil || msg.org != e.org.UID {
		return e.advise()
	}
	if msg.err != nil {
		for _, n := range msg.names {
			e.advice.failed[n] = true
		}
		return e.advise()
	}
	c, now := e.caches().Advisories, e.common.Clock()
	for _, n := range msg.names {
		c.Put(n, msg.counts[n], now)
	}
	return e.advise()
}

// countAdvisories counts the advisories of artifact names by the status
// their latest approved event puts them in: one listing per event kind,
// counted per name. One name is counted from the totals when the server
// gives them.
func countAdvisories(ctx context.Context, c *api.Client, names []string) (map[string]census.AdvisoryCount, error) {
	return countAdvisoriesBy(ctx, c, names, "")
}

// countOrigin counts the advisories of an origin package and its
// subpackages (the server resolves them) by status.
func countOrigin(ctx context.Context, c *api.Client, origin string) (census.AdvisoryCount, error) {
	out, err := countAdvisoriesBy(ctx, c, []string{origin}, origin)
	return out[origin], err
}

// countAdvisoriesBy is countAdvisories, or with origin the advisories of
// that origin package (then names is that one name).
func countAdvisoriesBy(ctx context.Context, c *api.Client, names []string, origin string) (map[string]census.AdvisoryCount, error) {
	whole := api.ListOptions{ArtifactNames: names}
	if origin != "" {
		whole.ArtifactNames, whole.Origin = nil, origin
	}
	if statusIgnored(c) {
		return sortAdvisories(ctx, c, names, whole)
	}
	out := make(map[string]census.AdvisoryCount, len(names))
	for s := range census.Statuses {
		for _, kind := range s.Kinds() {
			o := api.ListOptions{ArtifactNames: names, LatestEventType: kind}
			if origin != "" {
				o.ArtifactNames, o.Origin = nil, origin
			}
			if len(names) == 1 {
				n, err := api.CountItems(ctx, c.ListAdvisories, o, adviceMaxPages)
				if err != nil {
					return nil, fmt.Errorf("advisories of %s: %w", names[0], err)
				}
				if n.Own {
					// The server ignores the status filter: one reading
					// sorts them all.
					return sortAdvisories(ctx, c, names, whole)
				}
				cnt := out[names[0]]
				cnt.N[s] += int(n.N)
				cnt.Partial = cnt.Partial || !n.Exact
				out[names[0]] = cnt
				continue
			}
			counts, partial, err := countByArtifact(ctx, c, o)
			if err != nil {
				return nil, err
			}
			if statusIgnored(c) {
				return sortAdvisories(ctx, c, names, whole)
			}
			for name, n := range counts {
				cnt := out[name]
				cnt.N[s] += n
				cnt.Partial = cnt.Partial || partial
				out[name] = cnt
			}
		}
	}
	if len(names) == 1 && !out[names[0]].Partial {
		// Totals are checked for sense: the parts never exceed the whole.
		// A server that ignores the status filter and gives totals shows
		// it here (each part is every advisory), when no item did.
		all, err := api.CountItems(ctx, c.ListAdvisories, whole, adviceMaxPages)
		if err != nil {
			return nil, fmt.Errorf("advisories of %s: %w", names[0], err)
		}
		if all.Exact && int64(out[names[0]].Total()) > all.N {
			return sortAdvisories(ctx, c, names, whole)
		}
	}
	return out, nil
}

// statusIgnored reports whether the server was seen to ignore the
// advisories' status filter this session.
func statusIgnored(c *api.Client) bool {
	return slices.Contains(c.IgnoredFilters("advisories"), "latest_event_type")
}

// sortAdvisories counts the advisories of names (or of an origin) by
// status as canopy sorts them itself, from one reading of every one, for
// a server whose status filter cannot be believed (ignored, or totals
// that add up to more than the whole). Read says how many it read.
func sortAdvisories(ctx context.Context, c *api.Client, names []string, o api.ListOptions) (map[string]census.AdvisoryCount, error) {
	o.PageSize = api.MaxPageSize
	out := make(map[string]census.AdvisoryCount, len(names))
	add := func(name string, f func(*census.AdvisoryCount)) {
		cnt := out[name]
		cnt.Own = true
		f(&cnt)
		out[name] = cnt
	}
	for _, n := range names {
		add(n, func(*census.AdvisoryCount) {})
	}
	for range adviceMaxPages {
		p, err := c.ListAdvisories(ctx, o)
		if err != nil {
			return nil, fmt.Errorf("advisories: %w", err)
		}
		for i := range p.Items {
			a := &p.Items[i]
			name := a.ArtifactName
			if o.Origin != "" {
				name = names[0] // an origin's subpackages count as it
			}
			add(name, func(cnt *census.AdvisoryCount) {
				cnt.Read++
				if s, ok := census.StatusOf(a); ok {
					cnt.N[s]++
				}
			})
		}
		if p.Last() {
			return out, nil
		}
		o.PageToken = p.NextPageToken
	}
	for _, n := range names {
		add(n, func(cnt *census.AdvisoryCount) { cnt.Partial = true })
	}
	return out, nil
}

// countByArtifact counts a listing's advisories per artifact name, reading at
// most adviceMaxPages pages (partial: there were more).
func countByArtifact(ctx context.Context, c *api.Client, o api.ListOptions) (map[string]int, bool, error) {
	o.PageSize = api.MaxPageSize
	counts := map[string]int{}
	for range adviceMaxPages {
		p, err := c.ListAdvisories(ctx, o)
		if err != nil {
			return nil, false, fmt.Errorf("advisories: %w", err)
		}
		for i := range p.Items {
			counts[p.Items[i].ArtifactName]++
		}
		if p.Last() {
			return counts, false, nil
		}
		o.PageToken = p.NextPageToken
	}
	return counts, true, nil
}

// adviceNotes is a repo row's note: its advisories by every status a
// repo's page counts them by (census), in its order, so the row and the
// page agree; shorter forms for narrow rows drop a status at a time (the
// not affected first, then the fixed, the not planned and the pending
// upstream), down to the detected alone when it has any, so even a deep
// row has room for one, each marked as leaving some out ("…"); none when
// it has none.
func adviceNotes(c census.AdvisoryCount) []safe.Text {
	plus := ""
	if c.Partial {
		plus = "+"
	}
	// How long each status stays as the note shortens: the open ones
	// longest, a false positive least.
	keep := [census.Statuses]int{census.Detected: 4, census.PendingUpstream: 3, census.NotPlanned: 2, census.Fixed: 1,
		census.NotAffected: 0}
	join := func(least int) string {
		var b strings.Builder
		for s := range census.Statuses {
			if c.N[s] > 0 && keep[s] >= least {
				if b.Len() > 0 {
					b.WriteString(", ")
				}
				b.WriteString(text.Count(c.N[s]) + plus + " " + s.String())
			}
		}
		return b.String()
	}
	all := join(0)
	if all == "" {
		return nil
	}
	long, short := "advisories: ", "adv: "
	if c.Own {
		// Sorted by canopy: the server's status filter was not believed.
		long, short = "advisories (canopy's count): ", "adv (own count): "
	}
	notes := []safe.Text{safe.Of(long + all), safe.Of(short + all)}
	for least := 1; least <= keep[census.Detected]; least++ {
		// A form that drops a status says so: "1 detected" alone would
		// read as the whole count.
		if fewer := join(least); fewer != "" && fewer != all && string(notes[len(notes)-1]) != short+fewer+", …" {
			notes = append(notes, safe.Of(short+fewer+", …"))
		}
	}
	return notes
}

// maxStatsPages bounds a repo page's reading of its tags (200 a page).
const maxStatsPages = 50

// repoStats counts a repo's tag updates by week and its image's
// advisories (off the UI loop: it reads no cache; known is what the
// caches had, asked in Update, and is not asked again). Tags are read
// newest first and the reading stops past the history's year, so a repo
// of any size costs a few pages; a count of every tag (and of the
// deprecated ones) comes when they all fit in those pages, or from the
// overview. A server that refuses the order is read in its own, as far
// as the bound goes.
func (e *env) repoStats(ctx context.Context, r *api.Repo, known detail.RepoStats) (detail.RepoStats, error) {
	st := known
	c := e.client
	if !st.HasActivity {
		if err := e.readActivity(ctx, r, &st); err != nil {
			return st, err
		}
	}
	if !st.HasAdvisories {
		counts, err := countAdvisories(ctx, c, []string{r.Name})
		if err != nil {
			return st, err
		}
		st.Advisories, st.HasAdvisories = counts[r.Name], true
	}
	// Its subpackages' too, when the server knows the name as an origin
	// package (one name: a few small requests).
	if !st.OriginCounted {
		origin, err := countOrigin(ctx, c, r.Name)
		if err != nil {
			return st, err
		}
		st.Origin, st.OriginCounted = origin, true
	}
	return st, nil
}

// readActivity reads a repo's tags newest first into st.Activity.
func (e *env) readActivity(ctx context.Context, r *api.Repo, st *detail.RepoStats) error {
	now := e.common.Clock()
	span := api.TimeOf(now.Add(-census.Weeks * census.Week))
	o := api.ListOptions{ChildrenOf: r.UID, PageSize: api.MaxPageSize, OrderBy: api.OrderUpdatedDesc}
	var act census.TagCount
	total := -1
	for pages := 0; ; pages++ {
		if pages == maxStatsPages {
			st.Partial = true
			break
		}
		p, err := e.client.ListTags(ctx, o)
		if err != nil && o.OrderBy != "" && o.PageToken == "" && api.RefusedOrder(err) {
			o.OrderBy = "" // the server's own order: every page until the bound
			p, err = e.client.ListTags(ctx, o)
		}
		if err != nil {
			return fmt.Errorf("tags: %w", err)
		}
		if total < 0 {
			total = int(p.TotalOr(-1))
		}
		act.Add(p.Items, now)
		if p.Last() {
			break
		}
		if n := len(p.Items); o.OrderBy != "" && n > 0 && p.Items[n-1].UpdateTime.Before(span) {
			// Newest first: what is left is older than the history, which
			// is whole; the counts of every tag are not.
			st.Complete = false
			st.Activity, st.HasActivity = withoutCounts(act, total), true
			return nil
		}
		o.PageToken = p.NextPageToken
	}
	st.Complete = !st.Partial
	if st.Partial {
		act = withoutCounts(act, total)
	}
	st.Activity, st.HasActivity = act, true
	return nil
}

// withoutCounts is a history read in part: the tags are the server's
// total (-1: none given), the deprecated ones unknown (-1: the tree and
// the overview count them).
func withoutCounts(act census.TagCount, total int) census.TagCount {
	act.Tags, act.Deprecated = total, -1
	return act
}

// knownStats is what the caches hold of a repo's counts (in Update): the
// overview's count of its tags, the advisories of its name.
func (e *env) knownStats(r *api.Repo) detail.RepoStats {
	var st detail.RepoStats
	if e.org == nil {
		return st
	}
	c := e.caches()
	if s, ok := c.Tags.Get(r.UID); ok && !s.Partial {
		st.Activity, st.HasActivity, st.Complete, st.At = s.TagCount, true, true, s.At
	}
	if n, _, ok := c.Advisories.Get(r.Name); ok {
		st.Advisories, st.HasAdvisories = n, true
	}
	return st
}

// counted keeps what a repo's page counted (in Update): every tag's
// count, and its name's advisories.
func (e *env) counted(r *api.Repo, st detail.RepoStats) {
	if e.org == nil || r == nil {
		return
	}
	c, now := e.caches(), e.common.Clock()
	if st.HasActivity && st.Complete && st.At.IsZero() {
		c.Tags.Put(r.UID, census.Scan{TagCount: st.Activity, At: now})
	}
	if st.HasAdvisories {
		if _, _, ok := c.Advisories.Get(r.Name); !ok {
			c.Advisories.Put(r.Name, st.Advisories, now)
		}
	}
}
