package detail

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/census"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
)

// RepoStats is what a repo's page counts beside what the repo says: its
// tags' activity (a scan of every tag) and its image's advisories by
// their latest status.
type RepoStats struct {
	// Activity is the tags' history by week; its Tags is -1 when not
	// known, its Deprecated -1 unless every tag was read (Complete).
	Activity    census.TagCount
	HasActivity bool
	Complete    bool
	// Partial: the reading stopped at its bound before the history's
	// year was read: the history has at least these.
	Partial bool
	// At is when the activity was counted, when it was earlier (the
	// overview's count); zero: now.
	At            time.Time
	Advisories    census.AdvisoryCount
	HasAdvisories bool
	// Origin counts the advisories of the repo's name as an origin
	// package, its subpackages included (OriginCounted: it was asked).
	Origin        census.AdvisoryCount
	OriginCounted bool
}

// statsMsg carries a repo's counts.
type statsMsg struct {
	owner *Model
	uid   string
	repo  *api.Repo
	stats *RepoStats
	err   error
}

// relateRepo counts a repo's tags and advisories with src in their own
// command, so the readme does not wait for them; what the shell already
// knows shows at once and is not asked again.
func (m *Model) relateRepo(e *extras, r *api.Repo, src RepoSources) tea.Cmd {
	var known RepoStats
	if src.KnownStats != nil {
		known = src.KnownStats(r)
	}
	e.counting = true
	ctx, owner, uid := m.ctx, m, m.uid
	return func() tea.Msg {
		st, err := src.Stats(ctx, r, known)
		return statsMsg{owner: owner, uid: uid, repo: r, stats: &st, err: err}
	}
}

// gotStats keeps a repo's counts (in Update) and tells its page's
// Counted.
func (m *Model) gotStats(msg statsMsg) {
	if msg.owner != m {
		return
	}
	e := m.entry(msg.uid)
	e.counting, e.statsErr = false, msg.err
	if msg.err == nil {
		e.stats = msg.stats
		if k := m.kind(msg.repo); k != nil && k.Page.repo.Counted != nil {
			k.Page.repo.Counted(msg.repo, *msg.stats)
		}
	}
	if msg.uid == m.uid {
		m.relayout()
	}
}

// byStatus is a count in words: "3 detected · 1 fixed", or "none".
func (m *Model) byStatus(c census.AdvisoryCount) string {
	var parts []string
	for status := range census.Statuses {
		if n := c.N[status]; n > 0 {
			word := text.Count(n)
			if c.Partial {
				word += "+"
			}
			parts = append(parts, word+" "+status.String())
		}
	}
	own := ""
	switch {
	case c.Own && c.Read > 0:
		own = m.common.Theme.Muted.Render(fmt.Sprintf(" (canopy's count, of %s read: the server's status filter did not hold)", text.Count(c.Read)))
	case c.Own:
		own = m.common.Theme.Muted.Render(" (canopy's count: the server's status filter did not hold)")
	}
	if len(parts) == 0 {
		return m.common.Theme.Muted.Render("none") + own
	}
	return strings.Join(parts, " "+m.common.Theme.Glyphs.Dot+" ") + own
}

// renderStats writes a repo's activity and advisories.
func (m *Model) renderStats(s *sheet, r *api.Repo) {
	th := m.common.Theme
	e := m.cache[m.uid]
	s.section("ACTIVITY")
	switch {
	case e == nil || (!e.counting && e.stats == nil && e.statsErr == nil):
		s.muted("  (counts when the selection rests)")
		return
	case e.statsErr != nil:
		s.failure(e.statsErr)
		return
	case e.stats == nil:
		frames := th.Glyphs.Spinner
		s.muted("  " + frames[m.frame%len(frames)] + " counting tags and advisories")
		return
	}
	st := e.stats
	a := st.Activity
	switch {
	case a.Deprecated >= 0:
		s.own("tags", fmt.Sprintf("%s, %s deprecated", text.Count(a.Tags), text.Count(a.Deprecated)))
	case a.Tags >= 0:
		s.own("tags", text.Count(a.Tags))
	}
	weeks := min(census.Weeks, max(m.width-16, 0))
	if weeks >= 4 {
		plus := ""
		if st.Partial {
			plus = "+"
		}
		s.own("updates", th.Accent.Render(text.Spark(a.Updated[census.Weeks-weeks:], th.Glyphs.Spark)))
		s.own("", th.Muted.Render(fmt.Sprintf("tags updated per week: %s%s in the last %d weeks, this week at the right",
			text.Count(int(a.Updated.Sum(weeks))), plus, weeks)))
		if !st.At.IsZero() {
			s.own("", th.Muted.Render("counted "+text.Ago(st.At, m.common.Clock())+" (kept for the session; "+m.common.Key(keymap.Refresh)+" counts again)"))
		}
	}
	s.section("ADVISORIES")
	s.muted("  by latest status, for the image name " + safe.String(r.Name))
	s.wrapped("  ", m.byStatus(st.Advisories))
	if st.OriginCounted && st.Origin != st.Advisories {
		s.muted("  with its subpackages (as an origin package)")
		s.wrapped("  ", m.byStatus(st.Origin))
	}
	if m.fetch.Advisories != nil {
		s.muted("  " + m.common.Key(keymap.Advisories) + " lists them")
	}
}
