package detail

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views/advisory"
)

// ResolvedSources are where a repo's or a tag's page gets what its image
// had resolved lately: the vulnerabilities whose fixes reached it.
type ResolvedSources struct {
	// Ask is called in Update once the page rests on item (a repo, a
	// tag): the command it returns reads what the item's image had
	// resolved and answers with reply's message.
	Ask func(ctx context.Context, item any, reply func(Resolved, error) tea.Msg) tea.Cmd
	// Open opens the whole list of the item's image (`v`); nil offers
	// none.
	Open func(item any) tea.Cmd
}

// Resolved is what an image had resolved over a range of days, day by day
// as the service reports it.
type Resolved struct {
	Image       string // "python:latest", as canopy names it (server text)
	Since, Till time.Time
	Reports     []api.ResolvedVulnsReport
}

// resolvedMsg carries what a page's image had resolved.
type resolvedMsg struct {
	owner    *Model
	uid      string
	resolved *Resolved
	err      error
}

// withResolved is p with the part of what its resource's image had
// resolved, read beside what p loads; p as it is without src.
func withResolved(p Page, src *ResolvedSources) Page {
	if src == nil || src.Ask == nil {
		return p
	}
	p.resolved = src
	if p.load == nil || !p.lazy {
		// The page loads nothing else: its own load must do nothing.
		p.load = func(context.Context, any, *extrasMsg) {}
	}
	p.lazy = true
	relate := p.relate
	p.relate = func(m *Model, e *extras, item any) tea.Cmd {
		var first tea.Cmd
		if relate != nil {
			first = relate(m, e, item)
		}
		e.resolving = true
		owner, uid := m, m.uid
		return tea.Batch(first, src.Ask(m.ctx, item, func(r Resolved, err error) tea.Msg {
			return resolvedMsg{owner: owner, uid: uid, resolved: &r, err: err}
		}))
	}
	return p
}

// gotResolved keeps what an image had resolved (in Update).
func (m *Model) gotResolved(msg resolvedMsg) {
	if msg.owner != m {
		return
	}
	e := m.entry(msg.uid)
	e.resolving, e.resolvedErr = false, msg.err
	if msg.err == nil {
		e.resolved = msg.resolved
	}
	if msg.uid == m.uid {
		m.relayout()
	}
}

// resolvedKeys are the keys of the resolved part: `v` lists them all.
func (m *Model) resolvedKeys() []keymap.State {
	p := m.kindPage()
	if p == nil || p.resolved == nil || p.resolved.Open == nil || m.item == nil {
		return nil
	}
	open, item := p.resolved.Open, m.item
	return []keymap.State{keymap.On(keymap.Resolved).Does(func() tea.Cmd { return open(item) })}
}

// renderResolved writes what the page's image had resolved: how many and
// on how many days, how severe, the latest, and the key that lists them.
func (m *Model) renderResolved(s *sheet) {
	p := m.kindPage()
	if p == nil || p.resolved == nil {
		return
	}
	th := m.common.Theme
	e := m.cache[m.uid]
	switch {
	case e == nil || (!e.resolving && e.resolved == nil && e.resolvedErr == nil):
		s.section("RESOLVED")
		s.muted("  (reads when the selection rests)")
		return
	case e.resolvedErr != nil:
		s.section("RESOLVED")
		s.failure(e.resolvedErr)
		return
	case e.resolved == nil:
		s.section("RESOLVED")
		s.muted("  " + th.Glyphs.Spinner[m.frame%len(th.Glyphs.Spinner)] + " reading what its image had resolved")
		return
	}
	r := e.resolved
	days := int(r.Till.Sub(r.Since).Hours()/24 + 0.5)
	s.section(fmt.Sprintf("RESOLVED IN THE LAST %d DAYS", days))
	n, on, last, ratings := resolvedCounts(r.Reports)
	image := safe.String(r.Image)
	if n == 0 {
		s.wrapped("  ", th.Muted.Render("no vulnerability resolved in "+image))
	} else {
		s.wrapped("  ", fmt.Sprintf("%s in %s, on %s", plural(n, "vulnerability", "vulnerabilities"), image,
			plural(on, "day", "days")))
		var parts []string
		for _, rating := range []string{"critical", "high", "medium", "low", "none", ""} {
			if c := ratings[rating]; c > 0 {
				word := rating
				if word == "" {
					word = "unscored"
				}
				parts = append(parts, text.Count(c)+" "+word)
			}
		}
		s.wrapped("  ", strings.Join(parts, " "+th.Glyphs.Dot+" "))
		if last != nil {
			ids := make([]string, 0, len(last.ResolvedVulns))
			for _, v := range last.ResolvedVulns[:min(len(last.ResolvedVulns), 3)] {
				ids = append(ids, safe.String(v.ID))
			}
			if more := len(last.ResolvedVulns) - len(ids); more > 0 {
				ids = append(ids, fmt.Sprintf("%d more", more))
			}
			when := last.Date.Time().Format("2006-01-02") + " (" + text.Ago(last.Date.Time(), m.common.Clock()) + ")"
			s.wrapped("  ", th.Muted.Render("latest "+when+": "+strings.Join(ids, ", ")))
		}
	}
	if p.resolved.Open != nil {
		s.muted("  " + m.common.Key(keymap.Resolved) + " lists them day by day")
	}
}

// resolvedCounts are how many vulnerabilities reports resolve, on how many
// days, the latest report resolving any, and the count by rating of the
// highest score ("" for none).
func resolvedCounts(reports []api.ResolvedVulnsReport) (n, days int, last *api.ResolvedVulnsReport, ratings map[string]int) {
	ratings = map[string]int{}
	for i := range reports {
		r := &reports[i]
		if len(r.ResolvedVulns) == 0 {
			continue
		}
		days++
		n += len(r.ResolvedVulns)
		if last == nil || r.Date.After(last.Date) {
			last = r
		}
		for _, v := range r.ResolvedVulns {
			sc, _ := advisory.Top(v.CVSSSeverities)
			ratings[sc.Rating()]++
		}
	}
	return n, days, last, ratings
}

// plural is a count and its noun: "1 day", "3 days".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return text.Count(n) + " " + many
}
