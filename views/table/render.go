package table

import (
	"strings"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/theme"
	"canopy/views"
	"canopy/views/paging"
)

// paints are the row styles reduced to escape sequences: rows are fitted
// to the width already, and a frame draws dozens of them.
type paints struct {
	row, selected, dim, deprecated, match, cell theme.Paint
}

func paintsOf(th *theme.Theme) paints {
	return paints{row: theme.PaintOf(th.Row), selected: theme.PaintOf(th.Selected),
		dim: theme.PaintOf(th.Dim), deprecated: theme.PaintOf(th.Deprecated), match: theme.PaintOf(th.Match), cell: theme.PaintOf(th.Cell)}
}

// FitsWidth says the table cuts and pads its own lines (views.Fitted):
// every cell to its column, every other line to the width.
func (m *Model[T]) FitsWidth() {}

// View renders the header, the visible rows and the info line. Only the
// rows on screen are read, once, and the columns sized from them: the cost
// does not grow with the list.
func (m *Model[T]) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	m.relayout()
	th := m.common.Theme
	var b strings.Builder
	b.Grow((m.width + 16) * m.height)
	b.WriteString(m.header())
	rows := m.bodyRows()
	list := m.cfg.List
	n := m.rows()
	errErr, _ := list.Err()
	for r := 0; r < rows; r++ {
		b.WriteByte('\n')
		i := m.offset + r
		if i >= n {
			if i == 0 && n == 0 {
				b.WriteString(m.emptyRow())
			}
			continue
		}
		pos := m.position(i)
		it := m.win.items[r]
		if it == nil {
			var line string
			switch {
			case list.FailedAt(pos):
				line = th.Bad.Render(text.Fit(" "+th.Glyphs.Failed+" failed: "+safe.String(errErr.Error())+" ("+m.common.Key(keymap.Refresh)+" to retry)",
					m.width, false, th.Glyphs.Ellipsis))
			default:
				line = th.Dim.Render(text.Fit(" "+m.spinner()+" loading", m.width, false, ""))
			}
			if i == m.cursor {
				line = th.Selected.Render(text.Fit(" "+m.spinner()+" loading", m.width, false, ""))
			}
			b.WriteString(line)
			continue
		}
		if i == m.cursor && m.editing() {
			b.WriteString(m.editRow(it))
			continue
		}
		b.WriteString(m.row(r, it, i == m.cursor))
	}
	b.WriteByte('\n')
	if m.editing() {
		b.WriteString(text.Cut(" "+m.editor.StatusFit(m.width-1), m.width, th.Glyphs.Ellipsis))
	} else if m.search != nil && (m.search.Typing() || m.search.Active()) {
		b.WriteString(m.search.View(m.width, m.filterCount()))
	} else {
		b.WriteString(m.info())
	}
	return b.String()
}

func (m *Model[T]) spinner() string {
	frames := m.common.Theme.Glyphs.Spinner
	return frames[m.frame%len(frames)]
}

func (m *Model[T]) emptyRow() string {
	th := m.common.Theme
	list := m.cfg.List
	switch {
	case list.Total() < 0 && list.Busy():
		return th.Dim.Render(text.Fit(" "+m.spinner()+" loading", m.width, false, ""))
	case m.filtering():
		return th.Muted.Render(text.Fit(" no loaded row matches", m.width, false, ""))
	case m.only:
		line := " no " + m.cfg.Flag.Name + " rows (" + m.onlyProgress() + ")"
		if note := m.hiddenNote(); note != "" {
			line += " · " + note
		}
		return th.Muted.Render(text.Fit(line, m.width, false, th.Glyphs.Ellipsis))
	case list.Total() < 0:
		if err, _ := list.Err(); views.IsUnavailable(err) {
			return th.Muted.Render(text.Fit(" not available on this server", m.width, false, th.Glyphs.Ellipsis))
		} else if err != nil {
			return th.Bad.Render(text.Fit(" "+th.Glyphs.Failed+" failed: "+safe.String(err.Error())+" ("+m.common.Key(keymap.Refresh)+" to retry)",
				m.width, false, th.Glyphs.Ellipsis))
		}
		return ""
	case m.chip != "" && m.cfg.Server.Empty != nil:
		if why := m.cfg.Server.Empty(m.chipPattern); why != "" {
			return th.Muted.Render(text.Fit(" (none) "+safe.String(why), m.width, false, th.Glyphs.Ellipsis))
		}
	}
	return th.Muted.Render(text.Fit(" (none)", m.width, false, ""))
}

// header is the column titles, the sorted one marked.
func (m *Model[T]) header() string {
	th := m.common.Theme
	field, desc, _ := strings.Cut(m.sortedBy(), " ")
	var b strings.Builder
	for i, c := range m.cfg.Columns {
		w := m.widths[i]
		if w == 0 {
			continue
		}
		title := c.Title
		style := th.TableHeader
		if m.cellOn(i) {
			style = th.TableHeaderSorted
		}
		if c.Order != "" && c.Order == field {
			mark := th.Glyphs.SortAsc
			if desc == "desc" {
				mark = th.Glyphs.SortDesc
			}
			style = th.TableHeaderSorted
			if room := w - 1 - text.Width(mark); text.Width(title) > room && room > 0 {
				// A narrow column (UPDATED): the title gives way to the mark,
				// which never touches it ("UPDAT v", not "vUPDATED").
				title = text.Cut(title, room, "")
			}
			title += " " + mark
		}
		b.WriteString(" ")
		b.WriteString(style.Render(text.Fit(title, w, c.Right, "")))
	}
	return text.Fit(b.String(), m.width, false, "")
}

// row renders body row r, a loaded item; while filtering, the matched
// characters are highlighted (in its name, or the other column that
// matched).
func (m *Model[T]) row(r int, it *T, selected bool) string {
	th := m.common.Theme
	paint := m.paints.row
	switch {
	case selected:
		paint = m.paints.selected
	case m.cfg.RowKind != nil:
		switch m.cfg.RowKind(it) {
		case RowDim:
			paint = m.paints.dim
		case RowDeprecated:
			paint = m.paints.deprecated
		}
	}
	// The cells are fitted first: a match in any of them is highlighted
	// (see highlight). The array keeps a row's cells off the heap.
	var fitted [16]string
	cells := fitted[:0]
	used := 0
	at := r * len(m.cfg.Columns)
	for i, c := range m.cfg.Columns {
		cells = append(cells, "")
		w := m.widths[i]
		if w == 0 || used+w+1 > m.width {
			continue
		}
		used += w + 1
		cells[i] = m.cell(c, it, m.win.cells[at+i], m.win.cellW[at+i], w)
	}
	if m.search != nil && m.search.Active() {
		m.highlight(cells, paint.Pre())
	}
	if selected && m.cfg.Cells != nil && m.cellAt < len(cells) && cells[m.cellAt] != "" {
		cells[m.cellAt] = m.paints.cell.Render(cells[m.cellAt]) + paint.Pre()
	}
	var b strings.Builder
	b.Grow(m.width + 8)
	for _, cell := range cells {
		if cell == "" {
			continue // not shown: fitted cells are never empty
		}
		if b.Len() == 0 && m.marked(it) {
			b.WriteString(th.Glyphs.Mark)
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(cell)
	}
	if used < m.width {
		b.WriteString(spaces(m.width - used))
	}
	return paint.Render(b.String())
}

// cell fits a column's text, sw cells wide, in w cells: padded when it
// fits (it was measured already: most cells of a frame take this path),
// else a shorter text the column has for the item, cut in its middle or at
// its end.
func (m *Model[T]) cell(c Column[T], it *T, s string, sw, w int) string {
	if sw <= w {
		if sw == w {
			return s
		}
		if c.Right {
			return spaces(w-sw) + s
		}
		return s + spaces(w-sw)
	}
	ellipsis := m.common.Theme.Glyphs.Ellipsis
	if c.Shorter != nil {
		for _, alt := range c.Shorter(it) {
			if s = string(alt); text.Width(s) <= w {
				break
			}
		}
	}
	if c.Middle {
		s = text.Middle(s, w, ellipsis)
	}
	return text.Fit(s, w, c.Right, ellipsis)
}

// blanks are the spaces rows are padded with: columns sized to their cells
// leave room at the right, and a frame pads dozens of rows.
const blanks = "                                                                " +
	"                                                                " +
	"                                                                " +
	"                                                                "

// spaces is n spaces, without allocating for the usual widths.
func spaces(n int) string {
	if n <= len(blanks) {
		return blanks[:n]
	}
	return strings.Repeat(" ", n)
}

// countOf is the list's count as far as it is known: "4,210", or "200+"
// while the server gives no total and the last page has not come.
func countOf[T any](l *paging.List[T]) string {
	n, exact := l.Count()
	if exact {
		return text.Count(n)
	}
	return text.Count(max(n, 0)) + "+"
}

// info is the line under the rows: position, loaded/total, sort, errors.
func (m *Model[T]) info() string {
	th := m.common.Theme
	list := m.cfg.List
	parts := []string{}
	switch total := list.Total(); {
	case m.only:
		pos := 0
		if len(m.onlyRows) > 0 {
			pos = m.cursor + 1
		}
		f, total := m.cfg.Flag, list.Total()
		parts = append(parts, text.Count(pos)+" of "+text.Count(len(m.onlyRows))+" "+f.Name)
		switch {
		case total < 0:
		case !list.Done():
			parts = append(parts, "scanned "+text.Count(list.Loaded())+"/"+countOf(list)+" "+f.Noun)
		default:
			parts = append(parts, "all "+text.Count(total)+" "+f.Noun+" scanned")
		}
	case total >= 0 && !list.Exact():
		// No total from the server: how many there are is known only as
		// far as the pages went.
		parts = append(parts, text.Count(min(m.cursor+1, list.Loaded()))+" of "+countOf(list),
			text.Count(list.Loaded())+" loaded")
	case total >= 0:
		pos := 0
		if total > 0 {
			pos = m.cursor + 1
		}
		parts = append(parts, text.Count(pos)+" of "+text.Count(total),
			text.Count(list.Loaded())+"/"+text.Count(total)+" loaded")
	}
	if note := m.hiddenNote(); note != "" {
		parts = append(parts, note)
	}
	if ignored := list.Ignored(); len(ignored) > 0 {
		// The rows are canopy's own filtering of what the server sent.
		parts = append(parts, "filtered by canopy: the server ignored "+strings.Join(ignored, ", "))
	}
	if p := list.Partial(); p != "" {
		parts = append(parts, "partial: "+p)
	}
	if len(m.marks) > 0 {
		parts = append(parts, text.Count(len(m.marks))+" marked")
	}
	switch {
	case m.ranked():
		// The sort mark is off the header meanwhile: the rows are not in
		// that order.
		parts = append(parts, "best match first (sort: "+m.cfg.Orders[m.order].Label+" when cleared)")
	case len(m.cfg.Orders) > 1:
		parts = append(parts, "sort: "+m.cfg.Orders[m.order].Label)
	}
	if m.local() && !m.sortedNow() {
		parts = append(parts, m.localProgress())
	}
	switch {
	case m.toEnd && list.Busy():
		parts = append(parts, m.spinner()+" going to the end")
	case list.Busy():
		parts = append(parts, m.spinner()+" loading")
	}
	line := " " + strings.Join(parts, " "+th.Glyphs.Dot+" ")
	if err, _ := list.Err(); views.IsUnavailable(err) {
		return th.Muted.Render(text.Fit(line+" "+th.Glyphs.Dot+" not available on this server", m.width, false, th.Glyphs.Ellipsis))
	} else if err != nil {
		return th.Bad.Render(text.Fit(line+" "+th.Glyphs.Dot+" failed: "+safe.String(err.Error()), m.width, false, th.Glyphs.Ellipsis))
	}
	return th.Muted.Render(text.Fit(line, m.width, false, th.Glyphs.Ellipsis))
}
