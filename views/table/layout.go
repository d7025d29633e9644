package table

import (
	"strings"

	"canopy/safe"
	"canopy/text"
)

// Column declares one column of a table (in the manner of k9s renderers).
// Its width comes from the rows on screen, as in k9s: the width its header
// and visible cells need, within its bounds.
type Column[T any] struct {
	Title string
	// Width is the widest a fixed column gets (narrower when its header
	// and cells are); Flex columns share the room the others leave.
	Width int
	Flex  int
	// Min is the narrowest a flex column gets before columns are dropped
	// (narrower when its header and cells are); Max (0: none) the widest.
	Min, Max int
	// Drop orders columns for dropping when the width is short: higher
	// drops first; 0 never drops.
	Drop  int
	Right bool
	// Cell is the cell's text, safe to print (safe.Of of what the server
	// sent; canopy's own words as constants).
	Cell func(*T) safe.Text
	// Shorter, when set, gives shorter texts, longest first, for when
	// Cell's does not fit ("deprecated 143d", then "deprecated", for
	// "deprecated, 143 days old").
	Shorter func(*T) []safe.Text
	// Middle cuts a text too wide in its middle instead of at its end, for
	// names told apart by their ends (signature tags `sha256-….sig`).
	Middle bool
	// Order is the order_by field this column is sorted by, for the header
	// mark ("name", "created_at", "update_time"); "" for none.
	Order string
	// Search puts the column's text in the filter's second tier (after
	// names). Its Cell runs off the UI loop, so it must read only the item,
	// unless Snap is set.
	Search bool
	// Snap, for a searched column whose Cell reads what Update changes (a
	// name lookup), is called in Update when the filter takes its snapshot;
	// the cell it returns is searched instead, reading only what it took.
	Snap func() func(*T) safe.Text
}

// unknown is the content width of a column before any row was on screen:
// it is laid out from its declaration alone.
const unknown = -1

// window is the rows on screen, read once per frame: their cells size the
// columns, then draw the rows. Its slices are reused from frame to frame.
type window[T any] struct {
	items []*T     // per body row; nil for a row not loaded or past the end
	cells []string // row r's cells at [r*len(columns), (r+1)*len(columns))
	cellW []int    // their widths, measured once
	// content is the widest cell of each column on screen; when no row is
	// loaded (a reload, a jump to a page on its way) it keeps what the last
	// window measured, so the columns do not shuffle meanwhile.
	content []int
	heads   []int // the header's width (with the sort mark)
	want    []int // what each column asks for, within its bounds
}

// measure reads the rows on screen into m.win. Only those rows: the cost of
// a frame does not grow with the list.
func (m *Model[T]) measure() {
	cols := m.cfg.Columns
	w := &m.win
	rows, n := m.bodyRows(), m.rows()
	w.items = resize(w.items, rows)
	w.cells = resize(w.cells, rows*len(cols))
	w.cellW = resize(w.cellW, rows*len(cols))
	if len(w.content) != len(cols) {
		w.content = resize(w.content, len(cols))
		for i := range w.content {
			w.content[i] = unknown
		}
	}
	seen := false
	for r := range rows {
		w.items[r] = nil
		if m.offset+r >= n {
			continue
		}
		it, ok := m.cfg.List.At(m.position(m.offset + r))
		if !ok {
			continue
		}
		if !seen {
			clear(w.content)
			seen = true
		}
		w.items[r] = it
		for i, c := range cols {
			s := string(c.Cell(it))
			sw := text.Width(s)
			w.cells[r*len(cols)+i], w.cellW[r*len(cols)+i] = s, sw
			w.content[i] = max(w.content[i], sw)
		}
	}
}

// relayout sizes the columns from the rows on screen.
func (m *Model[T]) relayout() {
	m.measure()
	w := &m.win
	th := m.common.Theme
	field, desc, _ := strings.Cut(m.sortedBy(), " ")
	mark := th.Glyphs.SortAsc
	if desc == "desc" {
		mark = th.Glyphs.SortDesc
	}
	w.heads = resize(w.heads, len(m.cfg.Columns))
	for i, c := range m.cfg.Columns {
		w.heads[i] = text.Width(c.Title)
		if c.Order != "" && c.Order == field {
			w.heads[i] += 1 + text.Width(mark)
		}
	}
	w.want = resize(w.want, len(m.cfg.Columns))
	m.widths = resize(m.widths, len(m.cfg.Columns))
	fit(m.cfg.Columns, w.heads, w.content, w.want, m.widths, m.width)
}

// wantOf is the width column c asks for: its header's or its widest
// cell's, within its bound (Width for a fixed column, Max for a flex one,
// never short of the header); before any row, what it declares.
func wantOf[T any](c Column[T], head, content, w int) int {
	bound := c.Width
	if c.Flex > 0 {
		bound = w // no Max: as wide as the screen
		if c.Max > 0 {
			bound = max(c.Max, c.Min)
		}
	}
	// The header whole, its sort mark with it ("UPDATED v", not
	// "UPDAT v"): the bound is for the cells.
	bound = max(bound, head)
	if content == unknown {
		return bound
	}
	return min(max(head, content), bound)
}

// floorOf is the narrowest a shown column gets before others are dropped:
// a fixed column's want, a flex column's Min unless it wants less. The
// first column, which tells rows apart, keeps its whole want.
func floorOf[T any](c Column[T], want int, first bool) int {
	if c.Flex == 0 || first {
		return want
	}
	return min(max(c.Min, 4), want)
}

// fit lays the columns out in width w, into widths (0 for a column not
// shown). A column whose cells on screen are all empty is not shown while
// they are (the first excepted). Every shown column starts at its floor;
// while the floors do not fit, the column with the highest Drop goes, and
// when none is left, the first column gives way down to its Min. What
// room is left goes to the flex columns cut short of their want.
func fit[T any](cols []Column[T], heads, content, want, widths []int, w int) {
	for i, c := range cols {
		want[i] = wantOf(c, heads[i], content[i], w)
		widths[i] = 0
		if i == 0 || content[i] != 0 {
			widths[i] = floorOf(c, want[i], i == 0 && content[i] != unknown)
		}
	}
	need := used(widths)
	for need > w {
		drop := -1
		for i, c := range cols {
			if widths[i] > 0 && c.Drop > 0 && (drop < 0 || c.Drop > cols[drop].Drop) {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		widths[drop] = 0
		need = used(widths)
	}
	if need > w && cols[0].Flex > 0 {
		widths[0] = max(widths[0]-(need-w), floorOf(cols[0], want[0], false))
		need = used(widths)
	}
	share(cols, widths, want, w-need)
}

// used is the width the shown columns take, with the gap before each (the
// first one's is the cursor mark).
func used(widths []int) int {
	n := 0
	for _, w := range widths {
		if w > 0 {
			n += w + 1
		}
	}
	return n
}

// share gives spare cells to the shown flex columns cut short of their
// want, by their Flex; what one cannot take goes to the others. The room
// no column wants stays blank at the right.
func share[T any](cols []Column[T], widths, want []int, spare int) {
	for spare > 0 {
		flex := 0
		for i, c := range cols {
			if widths[i] > 0 && c.Flex > 0 && widths[i] < want[i] {
				flex += c.Flex
			}
		}
		if flex == 0 {
			return
		}
		given := 0
		for i, c := range cols {
			if widths[i] == 0 || c.Flex == 0 || widths[i] >= want[i] {
				continue
			}
			// Less than a cell each: one at a time, left to right.
			add := max(spare*c.Flex/flex, 1)
			add = min(add, want[i]-widths[i], spare-given)
			widths[i] += add
			given += add
		}
		spare -= given
	}
}

// resize is s with length n, its array reused when it can be.
func resize[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	return s[:n]
}
