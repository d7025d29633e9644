package detail

import (
	"strings"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
)

// sheet accumulates the lines of a detail page.
type sheet struct {
	m *Model
	b strings.Builder
}

// title is the page's name, wrapped (a subscription's is its sink URL).
func (s *sheet) title(t string) {
	for _, l := range strings.Split(text.Wrap(t, max(s.m.width, 10), " /,"), "\n") {
		s.b.WriteString(s.m.common.Theme.Strong.Render(l))
		s.b.WriteByte('\n')
	}
}

// field writes "label  value", wrapping long values under themselves.
func (s *sheet) field(label string, value safe.Text) { s.own(label, string(value)) }

// given is a field of server text the page shows only when the server
// gave it.
func (s *sheet) given(label, value string) {
	if value != "" {
		s.field(label, safe.Of(value))
	}
}

// own is a field whose value is canopy's own, maybe styled (a state in
// colour, a count): never text the server sent.
func (s *sheet) own(label, value string) {
	if value == "" {
		value = "—"
	}
	th := s.m.common.Theme
	const labelW = 13
	w := max(s.m.width-labelW-1, 10)
	wrapped := strings.Split(text.Wrap(value, w, " /,"), "\n")
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
	for _, l := range strings.Split(text.Wrap(str, w, " /,:"), "\n") {
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
	s.own(label, text.When(t.Time(), s.m.common.Clock()))
}

func list(items []string) safe.Text {
	out := make([]safe.Text, len(items))
	for i, it := range items {
		out[i] = safe.Of(it)
	}
	return safe.Join(out, ", ")
}

func tier(t string) string { return api.TierWord(t) }

// ecosystem is an ecosystem as people say it: "java".
func ecosystem(e string) safe.Text {
	return safe.Of(strings.ToLower(strings.TrimPrefix(e, "ECOSYSTEM_")))
}

// render is the whole text of the page for the current item and width.
func (m *Model) render() string {
	s := &sheet{m: m}
	if m.item == nil {
		s.muted("nothing selected")
		return strings.TrimRight(s.b.String(), "\n")
	}
	s.title(string(m.titleOf(m.item)))
	switch it := m.item.(type) {
	case *Summary:
		m.renderSummary(s, it)
	case *Failure:
		s.field("loading", it.What)
		s.section("ERROR")
		s.failure(it.Err)
	default:
		if k := m.kind(it); k != nil && k.Page.write != nil {
			k.Page.write(m, s, it)
		}
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
		s.own("total", "at least "+text.Count(total)+" "+it.What+" (the server gives no count)")
	case total >= 0:
		what := it.What
		if total == 1 {
			what = text.Singular(what)
		}
		s.own("total", text.Count(total)+" "+what)
	case views.IsUnavailable(err):
		s.own("total", th.Muted.Render("not available on this server"))
	case err != nil:
		s.own("total", th.Bad.Render(th.Glyphs.Failed+" failed"))
	case busy:
		frames := th.Glyphs.Spinner
		s.own("total", frames[m.frame%len(frames)]+" loading")
	default:
		s.own("total", "not loaded yet")
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
