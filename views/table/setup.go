package table

import (
	"fmt"
	"slices"
	"strings"
)

// Setup is how a table starts, and how it shows its rows now (a saved
// view: its order, exact server filter, columns, fuzzy filter, flagged
// rows only). The zero Setup is the table as it opens.
type Setup struct {
	// Order is an order by its key: the server's order_by ("name desc"),
	// or a local order's label ("version"); "" the first.
	Order   string
	Server  string   // the pattern of the exact server filter; "" none
	Columns []string // the columns shown by title, in order; nil all
	Filter  string   // the fuzzy filter kept
	Flagged bool     // only the flagged rows (deprecated tags)
}

// orderKey is how a Setup names an order: the server's order_by, or a
// local order's label (the server has no name for it).
func orderKey(o Order) string {
	if o.Local {
		return o.Label
	}
	return o.OrderBy
}

// Orders lists the orders a Setup may name, each with what `s` calls it
// where that differs: "update_time desc (recently updated)".
func (m *Model[T]) Orders() []string {
	var out []string
	for _, o := range m.cfg.Orders {
		k := orderKey(o)
		if k == "" || slices.ContainsFunc(out, func(s string) bool { return s == k || strings.HasPrefix(s, k+" (") }) {
			continue
		}
		if o.Label != k && o.Label != "" {
			k += " (" + o.Label + ")"
		}
		out = append(out, k)
	}
	return out
}

// ColumnTitles lists the columns a Setup may name.
func (m *Model[T]) ColumnTitles() []string {
	out := make([]string, len(m.cfg.Columns))
	for i, c := range m.cfg.Columns {
		out[i] = strings.ToLower(c.Title)
	}
	return out
}

// Start sets the table up before Init; a part it does not have (an order,
// a column, a server filter, a flag) is an error naming what it has.
func (m *Model[T]) Start(s Setup) error {
	if s.Order != "" {
		i := slices.IndexFunc(m.cfg.Orders, func(o Order) bool { return orderKey(o) == s.Order })
		if i < 0 {
			return fmt.Errorf("order %q: this table sorts by %s", s.Order, strings.Join(m.Orders(), ", "))
		}
		m.order = i
	}
	if s.Server != "" {
		if m.cfg.Server == nil || m.cfg.Server.Chip(s.Server) == "" {
			return fmt.Errorf("server filter %q: this table has none for it", s.Server)
		}
		m.base, m.chip, m.chipPattern = m.cfg.List, m.cfg.Server.Chip(s.Server), s.Server
		m.cfg.List = m.cfg.Server.List(s.Server)
	}
	if len(s.Columns) > 0 {
		var cols []Column[T]
		for _, title := range s.Columns {
			i := slices.IndexFunc(m.cfg.Columns, func(c Column[T]) bool { return strings.EqualFold(c.Title, title) })
			if i < 0 {
				return fmt.Errorf("column %q: this table has %s", title, strings.Join(m.ColumnTitles(), ", "))
			}
			cols = append(cols, m.cfg.Columns[i])
		}
		m.cfg.Columns, m.narrowed = cols, true
	}
	if s.Flagged {
		if m.cfg.Flag == nil {
			return fmt.Errorf("deprecated: this table has no rows to show alone")
		}
		m.only, m.onlyGen = true, -1
	}
	m.keep = s.Filter
	return nil
}

// Shown is the table's Setup now: what a saved view of it keeps.
func (m *Model[T]) Shown() Setup {
	s := Setup{Order: orderKey(m.cfg.Orders[m.order]), Server: m.chipPattern, Flagged: m.only}
	if m.order == 0 {
		s.Order = ""
	}
	if m.narrowed {
		for _, c := range m.cfg.Columns {
			s.Columns = append(s.Columns, strings.ToLower(c.Title))
		}
	}
	if m.search != nil && m.search.Active() {
		s.Filter = m.search.Query().String()
	}
	return s
}
