package detail

import (
	"fmt"
	"strings"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views/advisory"
)

// lazy writes the state of a lazily fetched part: loading, failed, or
// nothing when it is there.
func (m *Model) lazy(s *sheet) (*extras, bool) {
	e := m.cache[m.uid]
	th := m.common.Theme
	switch {
	case e == nil || (!e.fetched && !e.loading):
		s.muted("  (loads when the selection rests)")
		return nil, false
	case e.loading:
		frames := th.Glyphs.Spinner
		s.muted("  " + frames[m.frame%len(frames)] + " loading")
		return nil, false
	case e.err != nil:
		// Whole, however narrow the pane: the end says what went wrong.
		s.plainWrapped(th.Glyphs.Failed+" "+safe.String(e.err.Error())+" ("+m.common.Key(keymap.Refresh)+" to retry)", th.Bad.Render)
		return nil, false
	}
	return e, true
}

// renderRepo writes a repo: its fields, then what src counts and reads.
func (m *Model) renderRepo(s *sheet, r *api.Repo, src RepoSources) {
	s.field("uid", safe.Of(r.UID))
	s.field("description", safe.Of(r.Description))
	s.field("tier", safe.Of(tier(r.CatalogTier)))
	s.field("bundles", list(r.Bundles))
	s.field("aliases", list(r.Aliases))
	s.field("active tags", list(r.ActiveTags))
	if sc := r.SyncConfig; sc != nil {
		// Tier, bundles, aliases and active tags come from the source.
		s.field("synced from", safe.Of(sc.Source))
		if dest := joinNonEmpty(", ", by("google ", sc.Google), by("amazon ", sc.Amazon), by("azure ", sc.Azure)); dest != "" {
			s.field("synced to", safe.Of(dest))
		}
		if !sc.ExpirationTime.IsZero() {
			s.when("sync ends", sc.ExpirationTime)
		}
	}
	s.times(r.CreateTime, r.UpdateTime)
	if src.Stats != nil {
		m.renderStats(s, r)
	}
	m.renderResolved(s)
	if src.Readme == nil {
		return
	}
	s.section("README")
	th := m.common.Theme
	e, ok := m.lazy(s)
	if !ok {
		return
	}
	switch {
	case e.readme == "":
		s.muted("  (empty)")
	case e.renderedW == 0 || e.renderBusy && e.renderedW != m.width:
		s.muted("  rendering")
	default:
		if e.note != "" {
			s.plainWrapped(e.note, th.Muted.Render)
		}
		if e.readmeSize > len(e.readme) {
			s.plainWrapped(fmt.Sprintf("showing the first %s of %s", text.Bytes(int64(len(e.readme))), text.Bytes(int64(e.readmeSize))), th.Muted.Render)
		}
		if e.rendered == "" {
			s.muted("  (nothing to show)")
		} else {
			s.line(e.rendered)
		}
	}
}

// renderTag writes a tag: its fields, then its image and relations as
// src reads them.
func (m *Model) renderTag(s *sheet, t *api.Tag, src TagSources) {
	th := m.common.Theme
	if name, ref, _ := m.tagRepo(t, src); name != "" {
		s.field("repo", safe.Of(name))
		if ref != "" {
			s.field("pull", safe.Of(ref))
		}
	}
	s.field("uid", safe.Of(t.UID))
	s.field("digest", safe.Of(t.Digest))
	dep := "no"
	if t.Deprecated {
		dep = th.Badge.Render("yes") + ", end of life"
		if !t.UpdateTime.IsZero() {
			days := int(m.common.Clock().Sub(t.UpdateTime.Time()).Hours() / 24)
			dep += fmt.Sprintf(" · %s days old", text.Count(days))
		}
	}
	s.own("deprecated", dep)
	s.field("bundles", list(t.Bundles))
	s.when("updated", t.UpdateTime) // a tag has no creation time
	if src.Image == nil {
		return
	}
	s.section("IMAGE")
	e, ok := m.lazy(s)
	if e := m.cache[m.uid]; e != nil {
		defer m.renderRelated(s, e)
	}
	if !ok {
		return
	}
	if len(e.image) == 0 {
		s.muted("  no architectures")
		return
	}
	var total int64
	for _, a := range e.image {
		size := text.Bytes(a.Size)
		if a.Err != nil {
			size = th.Bad.Render("size unknown: " + safe.String(a.Err.Error()))
		}
		total += a.Size
		s.line("  " + text.Fit(safe.String(a.Arch), 10, false, "") + " " + size)
	}
	if len(e.image) > 1 {
		s.muted(fmt.Sprintf("  %d architectures, %s in all", len(e.image), text.Bytes(total)))
	}
}

// renderRelated shows the tags sharing the digest (deprecated ones marked)
// and the advisories for the repo's artifact names. What is known shows
// while the search goes on.
func (m *Model) renderRelated(s *sheet, e *extras) {
	th := m.common.Theme
	rel := e.related
	if rel == nil {
		if e.relatedErr == nil && !e.relating {
			return
		}
		s.section("SAME DIGEST")
		if e.relatedErr != nil {
			s.failure(e.relatedErr)
		} else {
			s.muted("  " + th.Glyphs.Spinner[m.frame%len(th.Glyphs.Spinner)] + " searching the repo's tags")
		}
		return
	}
	s.section("SAME DIGEST")
	searching := rel.Partial
	if len(rel.Siblings) == 0 && !searching && e.relatedErr == nil {
		s.muted("  no other tag of " + safe.String(rel.Repo) + " points here")
	} else if len(rel.Siblings) > 0 {
		parts := make([]string, len(rel.Siblings))
		for i, sib := range rel.Siblings {
			parts[i] = safe.String(sib.Name)
			if sib.Deprecated {
				parts[i] = th.Deprecated.Render(parts[i]) + th.Badge.Render(" [deprecated]")
			}
		}
		s.wrapped("  ", strings.Join(parts, ", "))
	}
	switch {
	case e.relatedErr != nil:
		s.failure(e.relatedErr)
	case searching && rel.Of > 0:
		s.muted(fmt.Sprintf("  searched %s/%s tags…", text.Count(rel.Searched), text.Count(rel.Of)))
	case searching:
		s.muted("  searching the rest of the repo's tags…")
	case rel.Searched < rel.Of:
		s.muted(fmt.Sprintf("  among the first %s of %s tags only", text.Count(rel.Searched), text.Count(rel.Of)))
	}
	if rel.Partial || e.relatedErr != nil {
		return // the advisories come with the search (the failure said why not)
	}
	names := strings.Join(rel.Artifacts, ", ")
	if names == "" {
		names = rel.Repo
	}
	s.section(fmt.Sprintf("ADVISORIES FOR %s (%d)", safe.String(strings.ToUpper(names)), len(rel.Advisories)))
	if len(rel.Advisories) == 0 {
		s.muted("  none")
	}
	shown := rel.Advisories[:min(len(rel.Advisories), maxTagAdvisories)]
	// Versioned packages' advisories ("go-1.23" for go) name their
	// artifact, in a column as wide as the widest shown.
	artW := 0
	for _, a := range shown {
		if a.ArtifactName != rel.Repo {
			artW = max(artW, min(text.Width(safe.String(a.ArtifactName)), 20)+1)
		}
	}
	for _, a := range shown {
		sc, _ := advisory.TopScore(&a)
		score := safe.String(sc.Short())
		status := advisory.Status(&a)
		art := ""
		if artW > 0 {
			art = text.Fit(safe.String(a.ArtifactName), artW, false, th.Glyphs.Ellipsis)
		}
		// The aliases take the width the id, artifact, score and status
		// leave, down to none; then the status is cut, marked.
		fixed := 2 + 19 + artW + 5
		aliasW := m.width - fixed - 1 - text.Width(status)
		aliases := ""
		if aliasW >= 8 {
			aliases = text.Fit(safe.String(strings.Join(a.Aliases, " ")), aliasW, false, th.Glyphs.Ellipsis) + " "
		}
		status = text.Cut(status, max(m.width-fixed-text.Width(aliases), 1), th.Glyphs.Ellipsis)
		s.line("  " + text.Fit(safe.String(a.AdvisoryID), 19, false, th.Glyphs.Ellipsis) + art + text.Fit(score, 5, false, "") +
			aliases + th.Muted.Render(status))
	}
	more := ""
	if n := len(rel.Advisories) - len(shown); n > 0 {
		more = fmt.Sprintf("… and %d more; ", n)
	}
	if m.fetch.Advisories != nil && len(rel.Advisories) > 0 {
		s.muted("  " + more + m.common.Key(keymap.Advisories) + " lists them all")
	} else if more != "" {
		s.muted(fmt.Sprintf("  %s:advisories, / %s", more, safe.String(rel.Repo)))
	}
}

// maxTagAdvisories is how many advisories a tag's page lists.
const maxTagAdvisories = 12

func refName(r *api.Ref) string {
	if r == nil {
		return "?"
	}
	return r.Name
}

// renderBinding shows every field of a hydrated binding: its role,
// identity and group with their uids and descriptions.
func (m *Model) renderBinding(s *sheet, b *api.RoleBinding) {
	s.field("uid", safe.Of(b.UID))
	if r := b.Role; r != nil {
		s.section("ROLE")
		s.field("name", safe.Of(r.Name))
		s.field("uid", safe.Of(r.UID))
		s.field("description", safe.Of(r.Description))
	}
	if id := b.Identity; id != nil {
		s.section("IDENTITY")
		s.field("name", safe.Of(id.Name))
		s.field("uid", safe.Of(id.UID))
		s.field("description", safe.Of(id.Description))
		s.field("email", safe.Of(id.Email))
		s.field("issuer", safe.Of(id.Issuer))
		s.field("subject", safe.Of(id.Subject))
	}
	if g := b.Group; g != nil {
		s.section("FOLDER")
		s.field("name", safe.Of(g.Name))
		s.field("uid", safe.Of(g.UID))
		s.field("description", safe.Of(g.Description))
	}
	s.b.WriteByte('\n')
	s.when("created", b.CreateTime) // a binding is never changed, only made and deleted
}

// tagRepo is a tag's repo's name, as its relations found it, and its
// pull reference (src.PullRef's); "" for what is not known yet.
func (m *Model) tagRepo(t *api.Tag, src TagSources) (name, ref, what string) {
	e := m.cache[m.uid]
	if e == nil || e.related == nil || e.related.Repo == "" {
		return "", "", ""
	}
	name = e.related.Repo
	if src.PullRef != nil {
		ref, what = src.PullRef(name, t)
	}
	return name, ref, what
}
