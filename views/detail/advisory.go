package detail

import (
	"slices"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views/advisory"
)

// renderAdvisory shows an advisory: what it is about, what is known of
// the vulnerabilities it goes by (withVulns: its page reads them), its
// scores made readable (the base score and rating; the vector as sent),
// and its event timeline oldest first, each event with what it says.
func (m *Model) renderAdvisory(s *sheet, a *api.Advisory, withVulns bool) {
	s.field("uid", safe.Of(a.UID))
	if a.LegacyAdvisoryID != "" {
		s.field("legacy id", safe.Of(a.LegacyAdvisoryID))
	}
	s.field("status", safe.Of(advisory.Status(a)))
	s.field("artifact", safe.Of(a.ArtifactName))
	s.field("type", safe.Of(a.ArtifactType))
	if a.ArtifactArchitecture != "" {
		s.field("architecture", safe.Of(a.ArtifactArchitecture))
	}
	s.field("component", safe.Of(a.ComponentName))
	if a.ComponentType != "" || a.ComponentLocation != "" {
		s.field("location", safe.Of(joinNonEmpty(" ", a.ComponentType, a.ComponentLocation)))
	}
	s.field("aliases", list(a.Aliases))
	if a.Author != "" {
		s.field("author", safe.Of(a.Author))
	}
	s.times(a.CreateTime, a.UpdateTime)
	if !a.DeleteTime.IsZero() {
		s.when("withdrawn", a.DeleteTime)
	}
	if withVulns {
		m.renderVulns(s, a.Aliases)
	}
	if len(a.Severities) > 0 {
		s.section("SEVERITIES")
		m.renderSeverities(s, a.Severities)
	}
	if len(a.Events) == 0 {
		return
	}
	s.section("EVENTS")
	m.renderEvents(s, a.Events)
}

// renderSeverities writes scores made readable: the scheme, the base
// score and rating, and the vector as sent.
func (m *Model) renderSeverities(s *sheet, sevs []api.Severity) {
	th := m.common.Theme
	for _, sev := range sevs {
		sc := advisory.ParseScore(sev.Score)
		head := text.Fit(advisory.SchemeName(sev.Type), 9, false, "~")
		switch {
		case sc.Known:
			head += " " + sc.Short() + " " + sc.Rating()
		case sc.Version != "":
			head += " version " + safe.String(sc.Version)
		}
		s.line("  " + head)
		if sc.Vector != "" {
			s.wrapped("    ", th.Muted.Render(safe.String(sc.Vector)))
		}
	}
}

// renderEvents writes an event timeline oldest first, each event with
// what it says and who said it.
func (m *Model) renderEvents(s *sheet, events []api.AdvisoryEvent) {
	th := m.common.Theme
	now := m.common.Clock()
	evs := slices.Clone(events)
	slices.SortStableFunc(evs, func(x, y api.AdvisoryEvent) int { return x.CreateTime.Compare(y.CreateTime) })
	for i := range evs {
		ev := &evs[i]
		style := th.Value
		switch {
		case advisory.Resolved(ev.Kind):
			style = th.Good
		case advisory.Affected(ev.Kind):
			style = th.Warn
		}
		name := advisory.EventName(ev.Kind)
		if name == "" {
			name = "(no kind)"
		}
		s.line("  " + text.Fit(ev.CreateTime.UTC().Format("2006-01-02"), 11, false, "") +
			style.Render(text.Fit(name, 22, false, "~")) + th.Muted.Render(text.Ago(ev.CreateTime.Time(), now)))
		if d := advisory.Detail(ev); d != "" {
			s.wrapped("             ", d)
		}
		who := joinNonEmpty(" · ", by("by ", ev.Author), by("reviewed by ", ev.Reviewer), advisory.Review(ev.ReviewState))
		if ev.Issue != "" {
			who = joinNonEmpty(" · ", who, safe.String(ev.Issue))
		}
		if who != "" {
			s.wrapped("             ", th.Muted.Render(who))
		}
	}
}

// by is prefix and the name made safe, or "" without a name.
func by(prefix, name string) string {
	if name == "" {
		return ""
	}
	return prefix + safe.String(name)
}

// joinNonEmpty joins the parts that are not empty.
func joinNonEmpty(sep string, parts ...string) string {
	out := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		if out != "" {
			out += sep
		}
		out += p
	}
	return out
}
