package detail

import (
	"context"
	"strings"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views/advisory"
)

// AdvisorySources are where an advisory's page (AdvisoryPage) gets what it
// loads; a nil function leaves its part out.
type AdvisorySources struct {
	// Vulnerabilities reads what is known of the vulnerability ids an
	// advisory goes by (its aliases); an id with nothing known has none.
	Vulnerabilities func(ctx context.Context, ids []string) ([]api.VulnerabilityMetadata, error)
}

// AdvisoryPage is an advisory's page, with the metadata of the
// vulnerabilities it goes by loaded lazily from src.
func AdvisoryPage(src AdvisorySources) Page {
	withVulns := src.Vulnerabilities != nil
	p := pageOf(func(m *Model, s *sheet, a *api.Advisory) { m.renderAdvisory(s, a, withVulns) })
	p.lazy = withVulns
	p.load = loadOf(func(ctx context.Context, a *api.Advisory, out *extrasMsg) {
		if withVulns {
			out.vulns, out.err = src.Vulnerabilities(ctx, a.Aliases)
		}
	})
	return p
}

// VulnerabilityPage is the page of one vulnerability's metadata.
func VulnerabilityPage() Page {
	return pageOf(func(m *Model, s *sheet, v *api.VulnerabilityMetadata) {
		s.field("id", safe.Of(v.ID))
		s.field("summary", safe.Of(v.Summary))
		if sc, ok := advisory.Top(v.Severities); ok && sc.Known {
			s.own("severity", sc.Short()+" "+sc.Rating())
		}
		if len(v.Severities) > 0 {
			s.section("SEVERITIES")
			m.renderSeverities(s, v.Severities)
		}
		if v.Details != "" {
			s.section("DETAILS")
			s.plainWrapped(safe.String(v.Details), m.common.Theme.Value.Render)
		}
		if len(v.References) > 0 {
			s.section("REFERENCES")
			m.renderReferences(s, v.References, "  ")
		}
	})
}

// renderVulns writes what is known of the vulnerability ids an advisory
// goes by, once loaded: each id's score and summary, its details, and
// its references.
func (m *Model) renderVulns(s *sheet, ids []string) {
	if len(ids) == 1 {
		s.section("VULNERABILITY")
	} else {
		s.section("VULNERABILITIES")
	}
	e, ok := m.lazy(s)
	if !ok {
		return
	}
	th := m.common.Theme
	byID := make(map[string]*api.VulnerabilityMetadata, len(e.vulns))
	for i := range e.vulns {
		byID[e.vulns[i].ID] = &e.vulns[i]
	}
	for i, id := range ids {
		if i > 0 {
			s.line("")
		}
		v := byID[id]
		if v == nil {
			s.line("  " + safe.String(id) + th.Muted.Render("  nothing known of it"))
			continue
		}
		head := "  " + th.Strong.Render(safe.String(id))
		if sc, ok := advisory.Top(v.Severities); ok && sc.Known {
			head += "  " + sc.Short() + " " + sc.Rating()
		}
		s.line(head)
		if v.Summary != "" {
			s.plainWrapped(safe.String(v.Summary), th.Value.Render)
		}
		if v.Details != "" {
			s.plainWrapped(safe.String(v.Details), th.Muted.Render)
		}
		m.renderReferences(s, v.References, "  ")
	}
}

// maxReferences is how many references of one vulnerability a page
// lists: past them it says how many more.
const maxReferences = 12

// renderReferences writes references, each its kind and its URL, the URL
// wrapped whole under itself.
func (m *Model) renderReferences(s *sheet, refs []api.Reference, indent string) {
	th := m.common.Theme
	for _, r := range refs[:min(len(refs), maxReferences)] {
		kind := text.Fit(referenceWord(r.Type), 11, false, "~")
		lines := strings.Split(text.Wrap(safe.String(r.URL), max(m.width-text.Width(indent)-12, 10), "/?&=-"), "\n")
		for i, l := range lines {
			if i > 0 {
				kind = strings.Repeat(" ", 11)
			}
			s.line(indent + th.Muted.Render(kind) + " " + l)
		}
	}
	if n := len(refs) - maxReferences; n > 0 {
		s.muted(indent + "… and " + text.Count(n) + " more references")
	}
}

// referenceWord is a reference's kind in a word.
func referenceWord(t string) string {
	switch t {
	case api.RefAdvisory:
		return "advisory"
	case api.RefArticle:
		return "article"
	case api.RefDetection:
		return "detection"
	case api.RefDiscussion:
		return "discussion"
	case api.RefReport:
		return "report"
	case api.RefFix:
		return "fix"
	case api.RefIntroduced:
		return "introduced"
	case api.RefPackage:
		return "package"
	case api.RefEvidence:
		return "evidence"
	case api.RefWeb, "", "TYPE_UNSPECIFIED":
		return "web"
	}
	return safe.String(strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(t, "TYPE_"), "_", " ")))
}
