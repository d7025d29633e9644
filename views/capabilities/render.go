package capabilities

import (
	"fmt"
	"strings"

	"canopy/safe"
	"canopy/text"
)

// headLines are the lines above the list: the title, the filter, what is
// chosen and shown, a blank.
const headLines = 4

// FitsWidth: every line is cut and padded to the width.
func (m *Model) FitsWidth() {}

// View draws the title, the filter, the counts and the rows that fit.
func (m *Model) View() string {
	th := m.common.Theme
	w := max(m.width, 1)
	chosen := len(m.Chosen())
	lines := []string{
		text.Fit(th.OverlayTitle.Render(text.Cut(string(m.cfg.Title), w, th.Glyphs.Ellipsis)), w, false, ""),
		text.Fit(m.input.View(), w, false, ""),
		text.Fit(th.Muted.Render(text.Cut(m.summary(chosen), w, th.Glyphs.Ellipsis)), w, false, ""),
		strings.Repeat(" ", w),
	}
	room := max(m.height-headLines, 1)
	for i := m.offset; i < len(m.rows) && i < m.offset+room; i++ {
		lines = append(lines, m.line(i, w))
	}
	if len(m.items) == 0 {
		lines = append(lines, text.Fit(th.Muted.Render("  nothing matches the filter"), w, false, ""))
	}
	for len(lines) < m.height {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines[:max(m.height, 0)], "\n")
}

// summary says how many are chosen, and what the filter shows.
func (m *Model) summary(chosen int) string {
	s := fmt.Sprintf("%d chosen of %d", chosen, len(m.cfg.Options))
	if m.input.Value() != "" {
		domains := 0
		for _, r := range m.rows {
			if r.header {
				domains++
			}
		}
		in := "domains"
		if domains == 1 {
			in = "domain"
		}
		s += fmt.Sprintf(" %s %d shown in %d %s", m.common.Theme.Glyphs.Dot, len(m.items), domains, in)
	}
	return s
}

// line draws row i: a domain's header with what is chosen of it, or an
// option with its box, its name and what it allows.
func (m *Model) line(i, w int) string {
	th := m.common.Theme
	r := m.rows[i]
	if r.header {
		n := 0
		for _, o := range m.inGroup[r.group] {
			if m.chosen[m.cfg.Options[o].Name] {
				n++
			}
		}
		head := safe.String(strings.ToUpper(m.groups[r.group]))
		count := fmt.Sprintf("  %d/%d", n, len(m.inGroup[r.group]))
		return text.Fit(th.Section.Render(text.Cut(head, max(w-len(count), 1), th.Glyphs.Ellipsis))+th.Muted.Render(count), w, false, "")
	}
	o := m.cfg.Options[r.opt]
	box := "[ ]"
	if m.chosen[o.Name] {
		box = "[x]"
	}
	nameW := min(max(w*2/5, 16), 44)
	short := text.Fit(text.Middle(safe.String(o.Short), nameW, th.Glyphs.Ellipsis), nameW, false, "")
	allows := text.Cut(safe.String(o.Allows), max(w-nameW-8, 0), th.Glyphs.Ellipsis)
	if m.cursor < len(m.items) && m.items[m.cursor] == i {
		// One style over the whole row, so the bar is not broken.
		return th.Selected.Render(text.Fit("  "+box+" "+short+"  "+allows, w, false, ""))
	}
	styled := th.Muted.Render(box)
	if m.chosen[o.Name] {
		styled = th.Accent.Render(box)
	}
	return text.Fit("  "+styled+" "+th.Row.Render(short)+"  "+th.Muted.Render(allows), w, false, "")
}
