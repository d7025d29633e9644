package detail

import (
	"fmt"
	"slices"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views/advisory"
)

// DocumentPage is the page of an advisory document: its package, how its
// advisories stand, then each advisory (most recently changed first) with
// the ids it goes by and its events oldest first. `a` lists the feed's
// advisories of the package.
func DocumentPage() Page {
	p := pageOf((*Model).renderDocument)
	p.image = imageOfIt(func(_ *Model, d *api.Document) imageOf { return imageOf{name: d.ID} })
	return p
}

func (m *Model) renderDocument(s *sheet, d *api.Document) {
	th := m.common.Theme
	s.field("package", safe.Of(d.ID))
	var spaces []string
	for _, a := range d.Advisories {
		if a.PackageNamespace != "" && !slices.Contains(spaces, a.PackageNamespace) {
			spaces = append(spaces, a.PackageNamespace)
		}
	}
	s.field("namespace", list(spaces))
	c := advisory.CountDocument(d)
	s.own("advisories", fmt.Sprintf("%s: %s open %s %s resolved", text.Count(len(d.Advisories)), text.Count(c.Open),
		th.Glyphs.Dot, text.Count(c.Resolved)))
	if !c.Latest.IsZero() {
		s.when("updated", c.Latest)
	}
	if m.fetch.Advisories != nil {
		s.muted("  " + m.common.Key(keymap.Advisories) + " lists the feed's advisories of " + safe.String(d.ID))
	}
	advs := slices.Clone(d.Advisories)
	slices.SortStableFunc(advs, func(x, y api.DocumentAdvisory) int { return latestOf(&y).Compare(latestOf(&x)) })
	for i := range advs {
		a := &advs[i]
		status := ""
		if last := a.Latest(); last != nil {
			status = advisory.EventName(last.Kind)
		}
		s.section(safe.String(a.ID))
		if status != "" {
			s.own("status", status)
		}
		s.field("aliases", list(a.Aliases))
		evs := make([]api.AdvisoryEvent, len(a.Events))
		for j := range a.Events {
			evs[j] = a.Events[j].Event()
		}
		m.renderEvents(s, evs)
	}
}

// latestOf is when a document's advisory last changed (zero without
// events).
func latestOf(a *api.DocumentAdvisory) api.Time {
	if last := a.Latest(); last != nil {
		return last.Timestamp
	}
	return api.Time{}
}
