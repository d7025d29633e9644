package form

// Drawing: a field in place (its reason beside it, wrapped, never cut),
// the short status under an in-place form, the footer lines with the exact
// request and what went wrong, and the full-screen form.

import (
	"slices"
	"strings"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
)

// wrap breaks s into lines of at most w cells (at least 10).
func wrap(s string, w int) []string {
	return strings.Split(text.Wrap(s, max(w, 10), " /?&"), "\n")
}

// Request is the request the values would send, made safe ("" without a
// preview).
func (m *Model) Request() string {
	if m.cfg.Preview == nil {
		return ""
	}
	return safe.String(m.cfg.Preview(m.Values()))
}

// Status is the short line under an in-place form: sending, or the keys.
// The request itself and what went wrong are in Footer, at full width.
func (m *Model) Status() string { return m.StatusFit(1 << 20) }

// StatusFit is Status in width cells: keys give way before what it says,
// the way out (esc) last, so that no key is shown cut ("esc c…").
func (m *Model) StatusFit(width int) string {
	th := m.common.Theme
	say, keys := m.statusLine()
	for drop := range len(keys) + 1 {
		s := say
		if kept := keys[drop:]; len(kept) > 0 {
			s += th.Muted.Render(" · " + strings.Join(kept, " · "))
		}
		if text.Width(s) <= width {
			return s
		}
	}
	return text.Cut(say, width, th.Glyphs.Ellipsis)
}

// statusLine is what the status says, styled, and the keys that apply
// (plain), the way out last.
func (m *Model) statusLine() (string, []string) {
	th := m.common.Theme
	send, cancel := m.common.Key(keymap.Accept), m.common.Key(keymap.Cancel)
	switch {
	case m.sending:
		return th.Muted.Render("sending…"), nil
	case m.look.sendNext:
		return th.Muted.Render("checking what this would change…"), nil
	case m.lost != nil:
		return m.lostStatus()
	case len(m.formErr) > 0:
		return th.Bad.Render(th.Glyphs.Failed + " not changed (see below)"), []string{send + " sends again", cancel + " cancels"}
	case m.unfit():
		return th.Muted.Render("fix the fields marked"), []string{cancel + " cancels"}
	}
	return th.Muted.Render(send + " sends"), []string{cancel + " cancels"}
}

// Footer are the lines an in-place form's owner shows across the whole
// width: the exact request, what a lookup found, and what went wrong,
// wrapped. withFields adds the reasons about fields, for an owner that
// cannot show them beside the field in full (a table row).
func (m *Model) Footer(width int, withFields bool) []string {
	if c := m.foot; !c.ok || c.ver != m.ver || c.width != width || c.withFields != withFields {
		m.foot = footCache{ver: m.ver, width: width, withFields: withFields, ok: true, lines: m.footer(width, withFields)}
	}
	return slices.Clone(m.foot.lines) // the owner may change what it gets
}

func (m *Model) footer(width int, withFields bool) []string {
	th := m.common.Theme
	var out []string
	if r := m.Request(); r != "" {
		verb := "sends "
		if m.sending {
			verb = "sending "
		}
		for _, l := range wrap(verb+r, width-1) {
			out = append(out, " "+th.Muted.Render(l))
		}
	}
	if note, confirm := m.warning(); note != "" && m.lost == nil {
		switch {
		case confirm && m.look.armed == m.signature():
			note += " — " + m.common.Key(keymap.Accept) + " again to go on"
		case confirm:
			note += " — " + m.common.Key(keymap.Accept) + " twice to go on"
		}
		for _, l := range wrap(note, width-1) {
			out = append(out, " "+th.Warn.Render(l))
		}
	}
	var bad []string
	if withFields {
		for i, f := range m.cfg.Fields {
			if r, ok := m.reason(i); ok {
				bad = append(bad, f.Label+": "+safe.String(r))
			}
		}
	}
	if m.lost != nil {
		// Not a failure: what is known of the change, in the colour of a
		// warning.
		for _, e := range append(bad, append(m.formErr, m.lostFooter())...) {
			if e == "" {
				continue
			}
			for _, l := range wrap(e, width-1) {
				out = append(out, " "+th.Warn.Render(l))
			}
		}
		return out
	}
	for _, e := range append(bad, m.formErr...) {
		for _, l := range wrap(e, width-1) {
			out = append(out, " "+th.Bad.Render(l))
		}
	}
	return out
}

// Line draws field i in place on one line: label, input, and its reason
// (cut when it does not fit: Lines wraps it).
func (m *Model) Line(i, width, labelW int) string {
	return text.Cut(m.Lines(i, 1<<20, labelW)[0], width, m.common.Theme.Glyphs.Ellipsis)
}

// Lines draws field i in place: label and input, and its reason beside
// it, wrapped under itself when it is long (never cut).
func (m *Model) Lines(i, width, labelW int) []string {
	th := m.common.Theme
	label := th.Label.Render(text.Fit(m.cfg.Fields[i].Label, labelW, false, ""))
	if i == m.focus {
		label = th.Prompt.Render(text.Fit(m.cfg.Fields[i].Label, labelW, false, ""))
	}
	in := m.inputs[i].View()
	if f := m.cfg.Fields[i]; f.Choices != nil {
		v := m.inputs[i].Value()
		if f.ChoiceLabel != nil {
			v = f.ChoiceLabel(v)
		}
		in = th.Value.Render("‹ " + v + " ›")
		if i == m.focus {
			in += th.Muted.Render("  ←/→ change")
		}
	}
	line := label + " " + in
	r, ok := m.reason(i)
	if !ok {
		return []string{text.Cut(line, width, th.Glyphs.Ellipsis)}
	}
	reason := th.Glyphs.Failed + " " + safe.String(r)
	indent := text.Width(line) + 2
	if width-indent < 24 {
		// No room beside the input: the reason goes under it.
		indent = labelW + 1
		out := []string{text.Cut(line, width, th.Glyphs.Ellipsis)}
		for _, l := range wrap(reason, width-indent) {
			out = append(out, strings.Repeat(" ", indent)+th.Bad.Render(l))
		}
		return out
	}
	parts := wrap(reason, width-indent)
	out := []string{line + "  " + th.Bad.Render(parts[0])}
	for _, l := range parts[1:] {
		out = append(out, strings.Repeat(" ", indent)+th.Bad.Render(l))
	}
	return out
}

// Label is field i's label.
func (m *Model) Label(i int) string { return m.cfg.Fields[i].Label }

// Fields is how many fields the form has.
func (m *Model) Fields() int { return len(m.inputs) }

// View draws a full-screen form: the fields, then the request it sends,
// what a lookup found and what went wrong (each once, wrapped).
func (m *Model) View() string {
	th := m.common.Theme
	lines := []string{th.OverlayTitle.Render(text.Cut(string(m.cfg.Title), m.width, th.Glyphs.Ellipsis)), ""}
	labelW := 12
	for _, f := range m.cfg.Fields {
		labelW = max(labelW, text.Width(f.Label)+1)
	}
	for i := range m.inputs {
		lines = append(lines, m.Lines(i, m.width, labelW)...)
	}
	lines = append(lines, "")
	lines = append(lines, m.Footer(m.width, false)...)
	lines = append(lines, " "+m.Status())
	if len(m.inputs) > 1 {
		lines = append(lines, th.Muted.Render(" "+m.common.Key(keymap.Complete)+" / "+m.common.Key(keymap.Prev, "shift+tab")+" move between fields"))
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:max(m.height, 0)], "\n")
}
