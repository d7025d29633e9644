package overview

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"canopy/census"
	"canopy/safe"
	"canopy/text"
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

// scrollTo keeps the cursor's line in view, with the lines above it that
// say what it is (its part's heading, its list's name) when they fit.
func (m *Model) scrollTo() {
	if m.height <= 0 {
		return
	}
	if m.cursor < 0 {
		m.offset = 0
		return
	}
	top := m.cursor
	for top > 0 && !m.lines[top-1].selectable() && m.cursor-top+1 < m.height {
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
		note := l.note
		if !l.at.IsZero() {
			note += ", the oldest " + text.Age(l.at, m.common.Clock()) + " ago"
		}
		note += l.after
		s = t.Section.Render(l.text)
		if note != "" {
			s += "  " + t.Muted.Render(text.Cut(note, max(w-text.Width(l.text)-2, 0), t.Glyphs.Ellipsis))
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
	case lineFewer:
		return m.row(fmt.Sprintf("  %s the first %d only", t.Glyphs.Fewer, l.n), "", selected)
	case lineCount:
		// The count stands where the bars' counts do.
		lw, bw := m.labelWidth(), m.barWidth()
		head := "  " + text.Fit(l.text, lw, false, t.Glyphs.Ellipsis) + "  " + strings.Repeat(" ", bw) + " "
		return m.row(head, fmt.Sprintf("%7s", text.Count(l.n)), selected)
	case lineStatuses:
		return m.statusesLine(l)
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

// labelWidth is the room of a line's label: a third of the width, or
// all the bars would have had when there is no room for them.
func (m *Model) labelWidth() int {
	lw := min(max(m.width/3, 12), 40)
	if m.width-2-lw-2-2-numsWidth < 4 {
		lw = max(lw, m.width-2-2-numsWidth)
	}
	return lw
}

// numsWidth is the room of a bar's numbers: "  412 of 3,020      13.6%   2m".
const numsWidth = 7 + 4 + 9 + 1 + 6 + 2 + 4

// barWidth is the room of every bar: the same in every list, so that
// their lengths compare and their numbers line up; 40 cells, more on a
// wide screen (half of it), so that small differences show.
func (m *Model) barWidth() int {
	w := m.width - 2 - m.labelWidth() - 2 - 2 - numsWidth
	if w < 4 {
		return 0
	}
	return min(w, max(40, m.width/2))
}

// barLine is "  label  ████░░░  412 of 3,020  13.6%  2m".
func (m *Model) barLine(l *line, selected bool) string {
	t := m.common.Theme
	b := l.bar
	lw, bw := m.labelWidth(), m.barWidth()
	label := text.Fit(safe.String(b.Label), lw, false, t.Glyphs.Ellipsis)
	nums := fmt.Sprintf("%7s", text.Count(b.N))
	if b.Of > 0 {
		nums += fmt.Sprintf(" of %-9s %5.1f%%", text.Count(b.Of), 100*float64(b.N)/float64(b.Of))
	}
	if !l.at.IsZero() {
		nums = text.Fit(nums, numsWidth-6, false, "") + fmt.Sprintf("  %4s", text.Age(l.at, m.common.Clock()))
	}
	head := "  " + label + "  "
	if selected {
		line := head + plainBar(b.N, l.scale, bw, t.Glyphs.Bar, t.Glyphs.BarRest) + "  " + nums
		return t.Selected.Render(text.Fit(line, m.width, false, t.Glyphs.Ellipsis))
	}
	return text.Fit(head+m.bar(b.N, l.scale, bw)+"  "+nums, m.width, false, t.Glyphs.Ellipsis)
}

// bar is n of scale as a bar w cells wide; any n above zero fills a cell.
func (m *Model) bar(n, scale, w int) string {
	if w <= 0 {
		return ""
	}
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

// statusNames head the advisory columns, short enough for 80 columns
// ("upstream": a fix pending upstream).
var statusNames = [census.Statuses]string{"detected", "upstream", "fixed", "not affected", "not planned"}

// statusWidth is the room of a status's column: its name, or a count.
func statusWidth(s census.Status) int { return max(len(statusNames[s]), 5) + 1 }

// advLabelWidth is the room of an advisory line's name: the label's, or
// less when the five columns need it.
func (m *Model) advLabelWidth() int {
	cols := 0
	for s := range census.Statuses {
		cols += statusWidth(s)
	}
	return max(8, min(m.labelWidth(), m.width-2-cols))
}

// statusesLine names the advisory columns, with the totals of the repos
// listed under them.
func (m *Model) statusesLine(l *line) string {
	t := m.common.Theme
	lw := m.advLabelWidth()
	var names, sums strings.Builder
	for s := range census.Statuses {
		names.WriteString(fmt.Sprintf("%*s", statusWidth(s), statusNames[s]))
		sums.WriteString(fmt.Sprintf("%*s", statusWidth(s), text.Count(l.adv.N[s])))
	}
	if l.n == 0 {
		return text.Fit(t.Label.Render(text.Fit("", lw+2, false, "")+names.String()), m.width, false, "")
	}
	head := "  " + text.Fit(l.text, lw, false, t.Glyphs.Ellipsis)
	return text.Fit(t.Muted.Render(head+sums.String()), m.width, false, "")
}

// advisoryLine is a repo's counts under the statuses' names.
func (m *Model) advisoryLine(l *line, selected bool) string {
	t := m.common.Theme
	lw := m.advLabelWidth()
	styles := [census.Statuses]lipgloss.Style{t.Bad, t.Warn, t.Good, t.Muted, t.Muted}
	var styled, plain strings.Builder
	plain.WriteString("  " + text.Fit(l.text, lw, false, t.Glyphs.Ellipsis))
	styled.WriteString(plain.String())
	for s := range census.Statuses {
		n := l.adv.N[s]
		cell := t.Glyphs.Dot
		if n > 0 {
			cell = text.Count(n)
			if l.adv.Partial {
				cell += "+"
			}
		}
		cell = fmt.Sprintf("%*s", statusWidth(s), cell)
		plain.WriteString(cell)
		if n > 0 {
			styled.WriteString(styles[s].Render(cell))
		} else {
			styled.WriteString(t.Dim.Render(cell))
		}
	}
	if selected {
		return t.Selected.Render(text.Fit(plain.String(), m.width, false, t.Glyphs.Ellipsis))
	}
	return text.Fit(styled.String(), m.width, false, t.Glyphs.Ellipsis)
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
