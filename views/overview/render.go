package overview

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"canopy/census"
	"canopy/views/safe"
	"canopy/views/text"
)

// current is the line under the cursor, nil when none takes it.
func (m *Model) current() *line {
	if m.cursor < 0 || m.cursor >= len(m.lines) {
		return nil
	}
	return &m.lines[m.cursor]
}

// move moves the cursor n lines (up when negative), to the selectable
// line there or the next one beyond it; at the end, to the last one.
func (m *Model) move(n int) {
	if m.cursor < 0 || n == 0 {
		return
	}
	step := 1
	if n < 0 {
		step = -1
	}
	goal := m.cursor + n
	at := m.cursor
	for i := m.cursor + step; i >= 0 && i < len(m.lines); i += step {
		if !m.lines[i].selectable() {
			continue
		}
		at = i
		if (step > 0 && i >= goal) || (step < 0 && i <= goal) {
			break
		}
	}
	m.cursor = at
	m.scrollTo()
}

// scrollTo keeps the cursor's line in view, and a heading just above it.
func (m *Model) scrollTo() {
	if m.height <= 0 {
		return
	}
	if m.cursor < 0 {
		m.offset = 0
		return
	}
	top := m.cursor
	if top > 0 && m.lines[top-1].kind == lineHeading {
		top--
	}
	if top < m.offset {
		m.offset = top
	}
	if m.cursor >= m.offset+m.height {
		m.offset = m.cursor - m.height + 1
	}
	m.offset = max(0, min(m.offset, len(m.lines)-m.height))
}

// View draws the lines in view, each cut to the width.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var b strings.Builder
	end := min(len(m.lines), m.offset+m.height)
	for i := m.offset; i < end; i++ {
		if i > m.offset {
			b.WriteByte('\n')
		}
		b.WriteString(m.render(&m.lines[i], i == m.cursor))
	}
	for i := end - m.offset; i < m.height; i++ {
		b.WriteString("\n")
	}
	return b.String()
}

// render draws one line; selected lines show as the selection.
func (m *Model) render(l *line, selected bool) string {
	t := m.common.Theme
	w := m.width
	var s string
	switch l.kind {
	case lineHeading:
		head := t.Section.Render(l.text)
		s = head
		if l.note != "" {
			s += "  " + t.Muted.Render(text.Cut(l.note, max(w-text.Width(l.text)-2, 0), t.Glyphs.Ellipsis))
		}
		return text.Fit(s, w, false, t.Glyphs.Ellipsis)
	case lineSub:
		return text.Fit("  "+t.Label.Render(l.text), w, false, t.Glyphs.Ellipsis)
	case lineText:
		st := t.Muted
		if l.bad {
			st = t.Bad
		}
		return text.Fit("  "+st.Render(text.Cut(l.text, max(w-2, 0), t.Glyphs.Ellipsis)), w, false, "")
	case lineSpark:
		// The newest weeks are the ones kept when the width is short.
		head := "  " + l.text + "  "
		weeks := min(census.Weeks, max(w-text.Width(head)-1, 0))
		tail := fmt.Sprintf("  %s in %s, a cell %s", text.Count(int(l.hist.Sum(weeks))), span(weeks*int(l.cell/census.Week)), span(int(l.cell/census.Week)))
		if text.Width(head)+weeks+text.Width(tail) <= w {
			return text.Fit("  "+t.Label.Render(l.text)+"  "+m.spark(l.hist, weeks)+t.Muted.Render(tail), w, false, "")
		}
		return text.Fit("  "+t.Label.Render(l.text)+"  "+m.spark(l.hist, weeks), w, false, "")
	case lineMore:
		s = fmt.Sprintf("%s %s more", t.Glyphs.More, text.Count(l.n))
		return m.row("  "+s, "", selected)
	case lineCount:
		label := text.Fit(l.text, m.labelWidth()+10, false, t.Glyphs.Ellipsis)
		return m.row("  "+label, fmt.Sprintf("%7s", text.Count(l.n)), selected)
	case lineBar:
		return m.barLine(l, selected)
	case lineAdvisory:
		return m.advisoryLine(l, selected)
	}
	return text.Fit(s, w, false, "")
}

// row is a selectable line: its text, then the rest, styled as selected
// when it is.
func (m *Model) row(head, rest string, selected bool) string {
	t := m.common.Theme
	s := text.Fit(head+" "+rest, m.width, false, t.Glyphs.Ellipsis)
	if selected {
		return t.Selected.Render(s)
	}
	return s
}

// labelWidth is the room of a line's label.
func (m *Model) labelWidth() int { return min(max(m.width/3, 12), 40) }

// barLine is "  label  ████░░░  412 of 3,020  13.6%  2m".
func (m *Model) barLine(l *line, selected bool) string {
	t := m.common.Theme
	b := l.bar
	lw := m.labelWidth()
	label := text.Fit(safe.String(b.Label), lw, false, t.Glyphs.Ellipsis)
	nums := fmt.Sprintf("%7s", text.Count(b.N))
	if b.Of > 0 {
		nums += fmt.Sprintf(" of %-9s %5.1f%%", text.Count(b.Of), 100*float64(b.N)/float64(b.Of))
	}
	if !l.at.IsZero() {
		nums += fmt.Sprintf("  %4s", text.Age(l.at, m.common.Clock()))
	}
	room := m.width - 2 - lw - 2 - text.Width(nums) - 2
	bar := ""
	if room >= 4 {
		bar = m.bar(b.N, l.scale, min(room, 40))
	}
	head := "  " + label + "  "
	if selected {
		return t.Selected.Render(text.Fit(head+text.Fit(plainBar(b.N, l.scale, min(room, 40), t.Glyphs.Bar, t.Glyphs.BarRest), max(min(room, 40), 0), false, "")+"  "+nums, m.width, false, t.Glyphs.Ellipsis))
	}
	return text.Fit(head+bar+"  "+nums, m.width, false, t.Glyphs.Ellipsis)
}

// bar is n of scale as a bar w cells wide; any n above zero fills a cell.
func (m *Model) bar(n, scale, w int) string {
	t := m.common.Theme
	fill := filled(n, scale, w)
	return t.Warn.Render(strings.Repeat(t.Glyphs.Bar, fill)) + t.Dim.Render(strings.Repeat(t.Glyphs.BarRest, w-fill))
}

func plainBar(n, scale, w int, full, rest string) string {
	if w <= 0 {
		return ""
	}
	fill := filled(n, scale, w)
	return strings.Repeat(full, fill) + strings.Repeat(rest, w-fill)
}

func filled(n, scale, w int) int {
	if scale <= 0 || n <= 0 || w <= 0 {
		return 0
	}
	return max(1, min(w, (n*w+scale-1)/scale))
}

// spark draws the last weeks of a history.
func (m *Model) spark(h census.History, weeks int) string {
	t := m.common.Theme
	return t.Warn.Render(text.Spark(h[census.Weeks-weeks:], t.Glyphs.Spark))
}

// advisoryLine is "  python  3 detected · 1 pending upstream · 4 fixed · 2 not affected".
func (m *Model) advisoryLine(l *line, selected bool) string {
	t := m.common.Theme
	lw := m.labelWidth()
	label := text.Fit(l.text, lw, false, t.Glyphs.Ellipsis)
	styles := [census.Statuses]lipgloss.Style{t.Bad, t.Warn, t.Good, t.Muted}
	var parts, plain []string
	for s := range census.Statuses {
		n := l.adv.N[s]
		if n == 0 {
			continue
		}
		words := fmt.Sprintf("%s %s", text.Count(n), s)
		if l.adv.Partial {
			words = text.Count(n) + "+ " + s.String()
		}
		plain = append(plain, words)
		parts = append(parts, styles[s].Render(words))
	}
	dot := " " + t.Glyphs.Dot + " "
	if selected {
		return t.Selected.Render(text.Fit("  "+label+"  "+strings.Join(plain, dot), m.width, false, t.Glyphs.Ellipsis))
	}
	return text.Fit("  "+label+"  "+strings.Join(parts, t.Muted.Render(dot)), m.width, false, t.Glyphs.Ellipsis)
}

// span words a number of weeks: "4 weeks", "3 years".
func span(weeks int) string {
	switch {
	case weeks == 1:
		return "a week"
	case weeks >= 104 && weeks%52 == 0:
		return fmt.Sprintf("%d years", weeks/52)
	case weeks == 52:
		return "a year"
	}
	return fmt.Sprintf("%d weeks", weeks)
}
