package detail

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/keymap"
	"canopy/views"
	"canopy/views/safe"
	"canopy/views/text"
)

// uidOf is the item's uid (a collection summary's title).
func uidOf(item any) string {
	switch it := item.(type) {
	case *api.Group:
		return it.UID
	case *api.Repo:
		return it.UID
	case *api.Tag:
		return it.UID
	case *api.Identity:
		return it.UID
	case *api.Role:
		return it.UID
	case *api.RoleBinding:
		return it.UID
	case *api.Advisory:
		return it.UID
	case *api.Subscription:
		return it.UID
	case *api.Artifact:
		return it.UID
	case *api.ArtifactVersion:
		return it.UID
	case *Summary:
		return "summary:" + it.Title
	case *Failure:
		return "failure:" + it.What
	}
	return ""
}

// titleOf is the item's name as the header shows it.
func titleOf(item any) string {
	switch it := item.(type) {
	case *api.Group:
		return safe.String(it.Name)
	case *api.Repo:
		return safe.String(it.Name)
	case *api.Tag:
		return safe.String(it.Name)
	case *api.Identity:
		return safe.String(it.Name)
	case *api.Role:
		return safe.String(it.Name)
	case *api.RoleBinding:
		return "binding " + bindingLabel(it)
	case *api.Advisory:
		return safe.String(it.AdvisoryID)
	case *api.Subscription:
		return safe.String(it.Sink)
	case *api.Artifact:
		return safe.String(it.Name)
	case *api.ArtifactVersion:
		return safe.String(it.Version)
	case *api.EcosystemCount:
		return ecosystem(it.Ecosystem)
	case *Summary:
		return it.Title
	case *Failure:
		return "failed: " + it.What
	}
	return ""
}

// copyOf is what `y` copies: a tag's digest, else the uid.
func copyOf(item any) (string, string) {
	if t, ok := item.(*api.Tag); ok && t.Digest != "" {
		return t.Digest, "digest"
	}
	switch item.(type) {
	case *Summary, *Failure:
		return "", ""
	}
	if uid := uidOf(item); uid != "" {
		return uid, "uid"
	}
	return "", ""
}

func bindingLabel(b *api.RoleBinding) string {
	who, role, group := "?", "?", "?"
	if b.Identity != nil {
		who = safe.String(b.Identity.Name)
	}
	if b.Role != nil {
		role = safe.String(b.Role.Name)
	}
	if b.Group != nil {
		group = safe.String(b.Group.Name)
	}
	return role + " → " + who + " on " + group
}

// sheet accumulates the lines of a detail page.
type sheet struct {
	m *Model
	b strings.Builder
}

func (s *sheet) title(t string) {
	s.b.WriteString(s.m.common.Theme.Strong.Render(t))
	s.b.WriteByte('\n')
}

// field writes "label  value", wrapping long values under themselves.
func (s *sheet) field(label, value string) {
	if value == "" {
		value = "—"
	}
	th := s.m.common.Theme
	const labelW = 13
	w := max(s.m.width-labelW-1, 10)
	wrapped := strings.Split(ansi.Wrap(value, w, " /,"), "\n")
	for i, line := range wrapped {
		l := ""
		if i == 0 {
			l = label
		}
		s.b.WriteString(th.Label.Render(text.Fit(l, labelW, false, "")))
		s.b.WriteByte(' ')
		s.b.WriteString(th.Value.Render(line))
		s.b.WriteByte('\n')
	}
}

func (s *sheet) section(name string) {
	s.b.WriteByte('\n')
	s.b.WriteString(s.m.common.Theme.Section.Render(name))
	s.b.WriteByte('\n')
}

func (s *sheet) line(str string) {
	s.b.WriteString(str)
	s.b.WriteByte('\n')
}

func (s *sheet) muted(str string) {
	s.line(s.m.common.Theme.Muted.Render(str))
}

// wrapped writes text (styled or not) wrapped to the width, each line
// indented.
func (s *sheet) wrapped(indent, str string) {
	w := max(s.m.width-text.Width(indent), 10)
	for _, l := range strings.Split(ansi.Wrap(str, w, " /,:"), "\n") {
		s.line(indent + l)
	}
}

// plainWrapped writes text made safe wrapped to the width, indented two,
// each line styled on its own so that no style runs on past a line.
func (s *sheet) plainWrapped(str string, style func(...string) string) {
	for _, l := range strings.Split(wrapPlain(str, max(s.m.width-2, 10), ""), "\n") {
		s.line("  " + style(l))
	}
}

// failure writes an error whole, wrapped, and how to retry.
func (s *sheet) failure(err error) {
	th := s.m.common.Theme
	if views.IsUnavailable(err) {
		s.muted("  not available on this server")
		return
	}
	s.wrapped("  ", th.Bad.Render(th.Glyphs.Failed+" "+safe.String(err.Error())))
	s.muted("  " + s.m.common.Key(keymap.Refresh) + " to retry")
}

func (s *sheet) times(c, u api.Time) {
	s.when("created", c)
	s.when("updated", u)
}

// when is a time field: "3 days ago (exact UTC)".
func (s *sheet) when(label string, t api.Time) {
	s.field(label, text.When(t.Time(), s.m.common.Clock()))
}

func list(items []string) string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = safe.String(it)
	}
	return strings.Join(out, ", ")
}

func tier(t string) string { return strings.TrimPrefix(t, "CATALOG_TIER_") }

// ecosystem is an ecosystem as people say it: "java".
func ecosystem(e string) string {
	return safe.String(strings.ToLower(strings.TrimPrefix(e, "ECOSYSTEM_")))
}

// render is the whole text of the page for the current item and width.
func (m *Model) render() string {
	s := &sheet{m: m}
	if m.item == nil {
		s.muted("nothing selected")
		return strings.TrimRight(s.b.String(), "\n")
	}
	s.title(titleOf(m.item))
	switch it := m.item.(type) {
	case *Summary:
		m.renderSummary(s, it)
	case *Failure:
		s.field("loading", it.What)
		s.section("ERROR")
		s.failure(it.Err)
	case *api.Group:
		s.field("uid", safe.String(it.UID))
		s.field("description", safe.String(it.Description))
		if it.Kind != "" {
			s.field("kind", safe.String(it.Kind))
		}
		if it.Status != "" {
			s.field("status", safe.String(it.Status))
		}
		if api.ParentUID(it.UID) == "" {
			s.field("verified", fmt.Sprint(it.Verified))
		}
		if len(it.ResourceLimits) > 0 {
			keys := make([]string, 0, len(it.ResourceLimits))
			for k := range it.ResourceLimits {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = safe.String(k) + " " + text.Count(int(it.ResourceLimits[k]))
			}
			s.field("limits", strings.Join(parts, ", "))
		}
		s.times(it.CreateTime, it.UpdateTime)
	case *api.Repo:
		m.renderRepo(s, it)
	case *api.Tag:
		m.renderTag(s, it)
	case *api.Identity:
		m.renderIdentity(s, it)
	case *api.Role:
		s.field("uid", safe.String(it.UID))
		s.field("description", safe.String(it.Description))
		kind := "custom"
		if !strings.Contains(it.UID, "/") {
			kind = "built-in"
		}
		s.field("kind", kind)
		s.times(it.CreateTime, it.UpdateTime)
		s.section(fmt.Sprintf("CAPABILITIES (%d)", len(it.Capabilities)))
		for _, c := range it.Capabilities {
			s.line("  " + safe.String(c))
		}
	case *api.RoleBinding:
		m.renderBinding(s, it)
	case *api.Advisory:
		m.renderAdvisory(s, it)
	case *api.Subscription:
		// A subscription is its sink: it has no name and no times.
		s.field("uid", safe.String(it.UID))
		s.field("sink", safe.String(it.Sink))
	case *api.Artifact:
		s.field("uid", safe.String(it.UID))
		s.field("description", safe.String(it.Description))
		s.field("ecosystem", ecosystem(it.Ecosystem))
		s.field("latest", safe.String(it.LatestVersion))
		s.field("versions", text.Count(int(it.VersionCount)))
		s.times(it.CreateTime, it.UpdateTime)
	case *api.EcosystemCount:
		// The libraries of one ecosystem: a collection the tree groups.
		s.field("ecosystem", ecosystem(it.Ecosystem))
		if it.TotalCount > 0 {
			s.field("artifacts", text.Count(int(it.TotalCount)))
		}
		s.b.WriteByte('\n')
		s.wrapped("", s.m.common.Theme.Muted.Render(s.m.common.Key(keymap.Open)+" opens its artifacts as a full-screen table; "+
			s.m.common.Key(keymap.Expand)+" expands it here"))
	case *api.ArtifactVersion:
		s.field("uid", safe.String(it.UID))
		s.field("artifact", safe.String(it.Name))
		s.field("description", safe.String(it.Description))
		if it.SizeBytes > 0 {
			s.field("size", text.Bytes(int64(it.SizeBytes)))
		}
		s.times(it.CreateTime, it.UpdateTime)
	}
	return strings.TrimRight(s.b.String(), "\n")
}

// renderSummary is a collection's total, or why it has none: loading,
// failed (the whole error), or not asked for yet.
func (m *Model) renderSummary(s *sheet, it *Summary) {
	th := m.common.Theme
	total, busy, err := -1, false, error(nil)
	if it.State != nil {
		total, busy, err = it.State()
	}
	switch {
	case total >= 0 && it.AtLeast != nil && it.AtLeast():
		s.field("total", "at least "+text.Count(total)+" "+it.What+" (the server gives no count)")
	case total >= 0:
		what := it.What
		if total == 1 {
			what = text.Singular(what)
		}
		s.field("total", text.Count(total)+" "+what)
	case views.IsUnavailable(err):
		s.field("total", th.Muted.Render("not available on this server"))
	case err != nil:
		s.field("total", th.Bad.Render(th.Glyphs.Failed+" failed"))
	case busy:
		frames := th.Glyphs.Spinner
		s.field("total", frames[m.frame%len(frames)]+" loading")
	default:
		s.field("total", "not loaded yet")
	}
	if err != nil {
		s.section("ERROR")
		s.failure(err)
	}
	if it.Hint != "" {
		s.b.WriteByte('\n')
		s.wrapped("", s.m.common.Theme.Muted.Render(it.Hint)) // a narrow pane wraps it, never cuts a word
	}
}
