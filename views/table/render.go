package table

import (
	"strings"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/paging"
	"canopy/views/safe"
	"canopy/views/text"
)

// paints are the row styles reduced to escape sequences: rows are fitted
// to the width already, and a frame draws dozens of them.
type paints struct {
	row, selected, dim, deprecated, match theme.Paint
}

func paintsOf(th *theme.Theme) paints {
	return paints{row: theme.PaintOf(th.Row), selected: theme.PaintOf(th.Selected),
		dim: theme.PaintOf(th.Dim), deprecated: theme.PaintOf(th.Deprecated), match: theme.PaintOf(th.Match)}
}

// share gives spare cells to the shown flex columns by their Flex; what a
// column cannot take past its Max goes to the others, so a wide screen
// widens FOLDER or DESCRIPTION rather than leaving NAME's excess blank.
func share[T any](cols []Column[T], widths []int, spare int) {
	full := make([]bool, len(cols))
	for spare > 0 {
		flex := 0
		for i, c := range cols {
			if widths[i] > 0 && c.Flex > 0 && !full[i] {
				flex += c.Flex
			}
		}
		if flex == 0 {
			return
		}
		given := 0
		for i, c := range cols {
			if widths[i] == 0 || c.Flex == 0 || full[i] {
				continue
			}
			add := spare * c.Flex / flex
			if c.Max > 0 && widths[i]+add >= max(c.Max, c.Min) {
				add, full[i] = max(max(c.Max, c.Min)-widths[i], 0), true
			}
			widths[i] += add
			given += add
		}
		if given == 0 {
			return // less than a cell each: left blank, as before
		}
		spare -= given
	}
}

// fit lays columns out in width w: fixed columns get their Width, flex
// columns share the rest; when even the minimums do not fit, the columns
// with the highest Drop go first. The result holds 0 for a hidden column.
func fit[T any](cols []Column[T], w int) []int {
	widths := make([]int, len(cols))
	shown := make([]bool, len(cols))
	for i := range cols {
		shown[i] = true
	}
	for {
		need, flex := 0, 0
		for i, c := range cols {
			if !shown[i] {
				continue
			}
			need += 1 // the gap before a column (the first one's is the cursor mark)
			if c.Flex > 0 {
				need += max(c.Min, 4)
				flex += c.Flex
			} else {
				need += c.Width
			}
		}
		if need <= w {
			for i, c := range cols {
				switch {
				case !shown[i]:
					widths[i] = 0
				case c.Flex > 0:
					widths[i] = max(c.Min, 4)
				default:
					widths[i] = c.Width
				}
			}
			share(cols, widths, w-need)
			return widths
		}
		drop := -1
		for i, c := range cols {
			if shown[i] && c.Drop > 0 && (drop < 0 || c.Drop > cols[drop].Drop) {
				drop = i
			}
		}
		if drop < 0 {
			// Nothing left to drop: squeeze the last shown column.
			for i := range cols {
				if shown[i] {
					widths[i] = max(cols[i].Width, cols[i].Min)
				}
			}
			return widths
		}
		shown[drop] = false
	}
}

// View renders the header, the visible rows and the info line. Only the
// rows on screen are built: the cost does not grow with the list.
func (m *Model[T]) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
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
		it, ok := list.At(pos)
		if !ok {
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
		b.WriteString(m.row(it, i == m.cursor))
	}
	b.WriteByte('\n')
	if m.editing() {
		b.WriteString(text.Cut(" "+m.editor.Status(), m.width, th.Glyphs.Ellipsis))
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
	default:
		return th.Muted.Render(text.Fit(" (none)", m.width, false, ""))
	}
}

// header is the column titles, the sorted one marked.
func (m *Model[T]) header() string {
	th := m.common.Theme
	order := m.cfg.Orders[m.order].OrderBy
	field, desc, _ := strings.Cut(order, " ")
	var b strings.Builder
	for i, c := range m.cfg.Columns {
		w := m.widths[i]
		if w == 0 {
			continue
		}
		title := c.Title
		style := th.TableHeader
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

// row renders one loaded item; while filtering, the matched characters are
// highlighted (in its name, or the other column that matched).
func (m *Model[T]) row(it *T, selected bool) string {
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
	for i, c := range m.cfg.Columns {
		cells = append(cells, "")
		w := m.widths[i]
		if w == 0 || used+w+1 > m.width {
			continue
		}
		used += w + 1
		str := string(c.Cell(it))
		if c.Shorter != nil && text.Width(str) > w {
			for _, alt := range c.Shorter(it) {
				if str = string(alt); text.Width(str) <= w {
					break
				}
			}
		}
		if c.Middle {
			str = text.Middle(str, w, th.Glyphs.Ellipsis)
		}
		cells[i] = text.Fit(str, w, c.Right, th.Glyphs.Ellipsis)
	}
	if m.search != nil && m.search.Active() {
		m.highlight(cells, paint.Pre())
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
		b.WriteString(strings.Repeat(" ", m.width-used))
	}
	return paint.Render(b.String())
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
	if len(m.marks) > 0 {
		parts = append(parts, text.Count(len(m.marks))+" marked")
	}
	if len(m.cfg.Orders) > 1 {
		parts = append(parts, "sort: "+m.cfg.Orders[m.order].Label)
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
