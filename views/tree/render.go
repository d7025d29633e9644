package tree

import (
	"strings"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/theme"
	"canopy/views"
)

// paints are the tree's styles reduced to escape sequences (see
// theme.Paint): a frame draws up to three styled parts per row.
type paints struct {
	row, deprecated, dim, accent, strong, muted, count, bad, selected, selectedBlur, match theme.Paint
}

func paintsOf(th *theme.Theme) paints {
	p := theme.PaintOf
	return paints{row: p(th.Row), deprecated: p(th.Deprecated), dim: p(th.Dim), accent: p(th.Accent),
		strong: p(th.Strong), muted: p(th.Muted), count: p(th.Count), bad: p(th.Bad),
		selected: p(th.Selected), selectedBlur: p(th.SelectedBlur), match: p(th.Match)}
}

// View renders the visible rows only.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow((m.width + 16) * m.height)
	rows := m.rowsHigh()
	var extra []string // an editor's lines, pushed under the row it edits
	for r := 0; r < rows; r++ {
		if r > 0 {
			b.WriteByte('\n')
		}
		if len(extra) > 0 {
			b.WriteString(extra[0])
			extra = extra[1:]
			continue
		}
		i := m.offset + r - m.pushed(r)
		if i >= m.lineCount() {
			if i == 0 && m.filtering() {
				none := " no loaded node matches"
				if m.cfg.Search != nil {
					none += " · " + m.common.Key(keymap.ServerFilter) + " asks the server"
				}
				b.WriteString(m.paints.muted.Render(text.Fit(none, m.width, false, "")))
			}
			continue
		}
		if i == m.cursor && m.editing() {
			lines := m.editRows(m.line(i))
			b.WriteString(lines[0])
			extra = lines[1:]
			continue
		}
		b.WriteString(m.renderRow(m.line(i), i == m.cursor))
	}
	if m.lineShown() {
		count := ""
		if ms := m.search.Matches(); ms != nil {
			count = text.Count(len(ms)) + "/" + text.Count(len(m.search.Names().Primary)) + " loaded nodes"
			if m.unloaded > 0 || m.unloadedMore {
				// Say what the filter cannot see, and where the server
				// filters it (a table of that list), as far as the
				// pattern typed keeps its room.
				room := m.width - text.Width(m.search.Query().String()) - 12 - text.Width(count)
				n := " · " + text.Count(m.unloaded) + " not loaded"
				switch {
				case m.unloadedMore && m.unloaded == 0:
					n = " · more not loaded"
				case m.unloadedMore:
					n = " · " + text.Count(m.unloaded) + "+ not loaded"
				}
				ask := " (" + m.common.Key(keymap.Table) + ": a table searches the server)"
				if m.cfg.Search != nil {
					ask = " (" + m.common.Key(keymap.ServerFilter) + " asks the server)"
				}
				for _, note := range []string{n + ask, n} {
					if text.Width(note) <= room {
						count += note
						break
					}
				}
			}
		}
		b.WriteByte('\n')
		b.WriteString(m.search.View(m.width, count))
	}
	return b.String()
}

// counts are what a node shows at the right, longest first: its
// children's total (loaded/total while partly loaded) with its deprecated
// count, then shorter forms for narrow panes ("112+! 200/1,212", then
// "200/1,212"). A collection still loading shows a spinner, one that failed
// the failure mark: a blank would read as "nothing happened".
func (m *Model) counts(n *Node) []string {
	l := n.Children
	if l == nil {
		return nil
	}
	g := m.common.Theme.Glyphs
	total, sc := l.Total(), m.scanOf(n)
	if err, _ := l.Err(); total < 0 && sc.ok && !l.Busy() && err == nil {
		total = sc.of // a scan elsewhere counted the children
	}
	if total < 0 {
		if err, _ := l.Err(); views.IsUnavailable(err) {
			return []string{"not available", "n/a"}
		} else if err != nil {
			return []string{g.Failed + " failed", g.Failed}
		}
		if l.Busy() || n.queued {
			// Loading, or a feed waiting for the first root's page.
			return []string{g.Spinner[m.frame%len(g.Spinner)]}
		}
		return nil
	}
	if n.Kind != nil && n.Kind.Group || n.Uncounted {
		// A group's children are folders and collections: a count of its
		// subfolders alone would read as a count of everything in it.
		return nil
	}
	out := text.Count(total)
	loaded := l.Loaded()
	if l.Total() >= 0 {
		known, exact := n.total(sc)
		switch {
		case !exact:
			// The server gave no total: at least what the pages showed.
			out = text.Count(known) + "+"
		case n.expanded && loaded < known:
			out = text.Count(loaded) + "/" + text.Count(known)
		default:
			out = text.Count(known)
		}
	}
	if l.Stale() {
		// A refresh failed: the children shown are from before.
		return []string{out + " " + g.Failed + " stale", out + " " + g.Failed}
	}
	dep, exact := n.deprecatedCount(sc)
	if dep <= 0 {
		return []string{out}
	}
	more := ""
	if !exact {
		more = "+" // only the loaded tags are counted
	}
	return []string{text.Count(dep) + more + " deprecated · " + out, text.Count(dep) + more + g.Deprecated + " " + out, out}
}

// scanOf is the full scan that counted n's deprecated children: its own
// (a table's `D`), or the shell's kept count when that one is of the
// list's total and the node's own is not (it is newer: a change made
// here counted).
func (m *Model) scanOf(n *Node) scan {
	own := scan{count: n.counted, of: n.countedOf, ok: n.hasCounted}
	if m.cfg.Counted == nil || n.Children == nil {
		return own
	}
	if count, of, ok := m.cfg.Counted(n); ok && (!own.ok || of == n.Children.Total() && own.of != of) {
		return scan{count: count, of: of, ok: true}
	}
	return own
}

// deprecatedIn is how many of n's children are known to be deprecated.
func (m *Model) deprecatedIn(n *Node) int {
	dep, _ := n.deprecatedCount(m.scanOf(n))
	return dep
}

// count is the longest form of what a node shows at the right.
func (m *Model) count(n *Node) string {
	if cs := m.counts(n); len(cs) > 0 {
		return cs[0]
	}
	return ""
}

// minLabel is the width a row's label keeps before its count is shortened.
const minLabel = 12

func (m *Model) renderRow(r row, selected bool) string {
	th := m.common.Theme
	ps := &m.paints
	g := th.Glyphs
	indent := strings.Repeat("  ", r.depth)
	if r.kind != rowNode {
		line, style := m.pseudoRow(r, indent)
		line = text.Fit(line, m.width, false, g.Ellipsis)
		if selected {
			return m.selStyle().Render(line)
		}
		return style.Render(line)
	}
	n := r.node
	glyph := g.Leaf
	if n.Expandable() {
		glyph = g.Collapsed
		if n.expanded || r.dim {
			glyph = g.Expanded
		}
	}
	prefix := indent + glyph + " "
	mark := ""
	switch {
	case n.Deprecated:
		mark = " [deprecated]"
	case m.deprecatedIn(n) > 0:
		mark = " " + g.Deprecated
	}
	// The label (and its mark) keeps a minimum width; the count gives way
	// first, to shorter forms, then entirely.
	// (The prefix's width is summed: measuring it would make it escape,
	// an allocation per row and frame.)
	pw, lw, mw := len(indent)+text.Width(glyph)+1, text.Width(string(n.Label)), text.Width(mark)
	keep := pw + min(lw, minLabel) + mw
	counts := m.counts(n)
	right := ""
	for _, c := range counts {
		if keep+2+text.Width(c) <= m.width {
			right = c
			break
		}
	}
	var more []safe.Text
	if m.cfg.Note != nil {
		more = m.cfg.Note(n)
	}
	if len(more) > 0 {
		used := pw + lw + mw
		if n.Note != "" {
			used += 2 + text.Width(string(n.Note))
		}
		if c, ok := m.besideNote(used, counts, more); ok {
			right = c
		}
	}
	avail := m.width
	if right != "" {
		avail -= text.Width(right) + 2
	}
	// A label too long is cut before its mark, which stays.
	left := prefix + text.Cut(string(n.Label), max(avail-pw-mw, 1), g.Ellipsis) + mark
	left = text.Cut(left, max(avail, 1), g.Ellipsis)
	note := ""
	if n.Note != "" && text.Width(left)+2 < avail {
		note = text.Cut("  "+string(n.Note), avail-text.Width(left), g.Ellipsis)
	}
	// What the shell knows beyond the node shows whole, in the longest of
	// its forms that fits, or not at all.
	for _, f := range more {
		if text.Width(left)+text.Width(note)+2+text.Width(string(f)) <= avail {
			note += "  " + string(f)
			break
		}
	}
	pad := max(m.width-text.Width(left)-text.Width(note)-text.Width(right), 0)
	highlight := func(s string, p theme.Paint) string {
		if m.filtering() && !r.dim {
			return m.search.Mark(s, len(prefix), ps.match, p.Pre())
		}
		return s
	}
	if selected {
		sel := m.selStyle()
		return sel.Render(highlight(left, sel) + note + strings.Repeat(" ", pad) + right)
	}
	style := ps.row
	switch {
	case r.dim:
		style = ps.dim
	case n.Deprecated:
		style = ps.deprecated
	case n.Dim:
		style = ps.dim
	case n.Kind.IsCollection() && n.Children != nil && n.Children.Total() == 0:
		style = ps.dim
	case n.Kind.IsCollection():
		style = ps.accent
	case n.Kind != nil && n.Kind.Group:
		style = ps.strong
	}
	countPaint := ps.count
	if l := n.Children; l != nil && (l.Total() < 0 || l.Stale()) {
		if err, _ := l.Err(); err != nil && !views.IsUnavailable(err) {
			countPaint = ps.bad
		}
	}
	return style.Render(highlight(left, style)) + ps.muted.Render(note) + strings.Repeat(" ", pad) + countPaint.Render(right)
}

// besideNote is the count drawn beside the shell's note (a closed repo's
// advisories, why its row is read) on a row whose label and own note take
// used columns: the note takes the longest of its forms that fits beside
// the count's shortest form, or else beside none, and the count the
// longest form that fits beside that; ok false when no form of the note
// fits even alone.
func (m *Model) besideNote(used int, counts []string, notes []safe.Text) (string, bool) {
	fits := func(f safe.Text, c string) bool {
		w := used + 2 + text.Width(string(f))
		if c != "" {
			w += 2 + text.Width(c)
		}
		return w <= m.width
	}
	least := ""
	if len(counts) > 0 {
		least = counts[len(counts)-1]
	}
	for _, beside := range []string{least, ""} {
		for _, f := range notes {
			if !fits(f, beside) {
				continue
			}
			for _, c := range counts {
				if fits(f, c) {
					return c, true
				}
			}
			return "", true
		}
	}
	return "", false
}

func (m *Model) selStyle() theme.Paint {
	if m.focused {
		return m.paints.selected
	}
	return m.paints.selectedBlur
}

// pushed is how many editor lines stand above screen row r.
func (m *Model) pushed(r int) int {
	if !m.editing() || m.cursor < m.offset || m.offset+r <= m.cursor {
		return 0
	}
	return min(m.editExtra(), m.offset+r-m.cursor)
}

// pseudoRow is what a tail or gap row says, and its style: a child loading
// (or not asked for yet: it is when seen), a failure and how to retry, or
// that there are none.
func (m *Model) pseudoRow(r row, indent string) (string, theme.Paint) {
	g := m.common.Theme.Glyphs
	if err := m.failure(r); err != nil {
		if views.IsUnavailable(err) {
			// A list the server does not have: a fact, not a failure.
			return indent + "  not available on this server", m.paints.dim
		}
		return indent + "  " + g.Failed + " failed: " + safe.String(err.Error()) + " (" + m.common.Key(keymap.Refresh) + " to retry)", m.paints.bad
	}
	if r.kind == rowGap || tailKind(r.node) == rowLoading {
		return indent + "  " + g.Spinner[m.frame%len(g.Spinner)] + " loading", m.paints.dim
	}
	return indent + "  (none)", m.paints.dim
}
