package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
	"canopy/views/paging"
	"canopy/views/viewstest"
)

type row struct {
	uid, name string
	old       bool
}

// source serves rows named "name-%05d" in ascending or descending order.
type source struct {
	n     int
	fail  atomic.Bool
	calls atomic.Int32
	// noTotal leaves the total out, as a server may; refuse are orders
	// the server does not sort by.
	noTotal bool
	refuse  map[string]bool
}

func (s *source) list(_ context.Context, req paging.Request) (paging.Result[row], error) {
	s.calls.Add(1)
	if s.fail.Load() {
		return paging.Result[row]{}, errors.New("503 service unavailable")
	}
	if s.refuse[req.OrderBy] {
		return paging.Result[row]{}, &paging.OrderRefused{Collection: "rows", Order: req.OrderBy, Err: errors.New("invalid argument: order_by")}
	}
	start := req.Skip
	if req.Token != "" {
		start, _ = strconv.Atoi(req.Token)
	}
	end := min(start+req.Size, s.n)
	res := paging.Result[row]{Total: int64(s.n), Skipped: start}
	for i := start; i < end; i++ {
		k := i
		if req.OrderBy == "name desc" {
			k = s.n - 1 - i
		}
		res.Items = append(res.Items, row{uid: fmt.Sprintf("u%d", k), name: fmt.Sprintf("name-%05d", k), old: k%10 == 0})
	}
	if end < s.n {
		res.Next = strconv.Itoa(end)
	}
	res.NoTotal = s.noTotal
	return res, nil
}

func newTable(t *testing.T, n int, opened *string) (*Model[row], *source) {
	t.Helper()
	return newTableOf(t, &source{n: n}, opened, nil)
}

// newTableOf is a table over src; refused is what the shell knows the
// server refuses (nil: nothing).
func newTableOf(t *testing.T, src *source, opened *string, refused func(string) bool) (*Model[row], *source) {
	t.Helper()
	m := buildTable(src, opened, refused)
	drive(m, m.Init())
	return m, src
}

// buildTable is a table over src, sized, its first page not asked for.
func buildTable(src *source, opened *string, refused func(string) bool) *Model[row] {
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	cfg := Config[row]{
		Title: "rows",
		Columns: []Column[row]{
			{Title: "NAME", Flex: 1, Min: 10, Order: "name", Cell: func(r *row) safe.Text { return safe.Text(r.name) }},
			{Title: "UID", Width: 8, Drop: 1, Cell: func(r *row) safe.Text { return safe.Text(r.uid) }},
		},
		List:    paging.New(context.Background(), src.list, func(r *row) string { return r.uid }),
		Key:     func(r *row) string { return r.uid },
		Orders:  []Order{{Label: "name ↑", OrderBy: "name"}, {Label: "name ↓", OrderBy: "name desc"}},
		RowKind: func(r *row) RowKind { return map[bool]RowKind{true: RowDeprecated, false: RowNormal}[r.old] },
		Copy:    func(r *row) (string, string) { return r.uid, "uid" },
		Refused: refused,
	}
	if opened != nil {
		cfg.Open = func(r *row) tea.Cmd { *opened = r.name; return nil }
	} else {
		cfg.OpenReason = "rows have nothing inside"
	}
	m := New(common, cfg)
	m.SetSize(60, 12)
	return m
}

// drive runs commands the way the program would and returns the messages
// that are not the table's.
func drive(m *Model[row], cmd tea.Cmd) []tea.Msg {
	return viewstest.Drive(cmd, func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok }, m.Update)
}

func press(m *Model[row], keys ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		out = append(out, drive(m, m.Update(viewstest.Key(k)))...)
	}
	return out
}

func screen(m *Model[row]) string { return ansi.Strip(m.View()) }

func TestRendersVisibleRowsAndInfo(t *testing.T) {
	m, _ := newTable(t, 1000, nil)
	s := screen(m)
	lines := strings.Split(s, "\n")
	if len(lines) != 12 {
		t.Fatalf("%d lines, want 12:\n%s", len(lines), s)
	}
	if !strings.Contains(lines[0], "NAME ^") || !strings.Contains(lines[0], "UID") {
		t.Errorf("header %q", lines[0])
	}
	if !strings.Contains(lines[1], "name-00000") || !strings.Contains(lines[10], "name-00009") {
		t.Errorf("rows:\n%s", s)
	}
	if !strings.Contains(lines[11], "1 of 1,000 · 200/1,000 loaded · sort: name ↑") {
		t.Errorf("info line %q", lines[11])
	}
	for i, l := range strings.Split(m.View(), "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line %d is %d wide", i, w)
		}
	}
}

func TestNarrowDropsColumns(t *testing.T) {
	m, _ := newTable(t, 10, nil)
	// NAME takes 11 cells with its gap, UID 4: 15 do not fit in 13.
	m.SetSize(13, 6)
	if s := screen(m); strings.Contains(s, "UID") || !strings.Contains(s, "name-00000") {
		t.Errorf("at 13 columns the UID column should go first:\n%s", s)
	}
}

func TestJumpToEndIsOneRequestAndWalkingPrefetches(t *testing.T) {
	m, src := newTable(t, 100_000, nil)
	before := src.calls.Load()
	press(m, "G")
	if got := src.calls.Load() - before; got != 1 {
		t.Errorf("G sent %d requests, want 1", got)
	}
	if s := screen(m); !strings.Contains(s, "name-99999") || !strings.Contains(s, "100,000 of 100,000") {
		t.Errorf("after G:\n%s", s)
	}
	// Walking down from the top never shows a loading row: the next page is
	// asked for a screen ahead of the end.
	press(m, "g")
	for i := 0; i < 1000; i++ {
		press(m, "j")
		if strings.Contains(screen(m), "loading") {
			t.Fatalf("a loading row showed at row %d", i)
		}
	}
}

func TestSortKeepsTheCursorOnTheSameItem(t *testing.T) {
	m, _ := newTable(t, 150, nil)
	press(m, "j", "j", "j")
	it, _ := m.Selected()
	if it.name != "name-00003" {
		t.Fatalf("cursor on %s", it.name)
	}
	msgs := press(m, "s")
	it, _ = m.Selected()
	if it.name != "name-00003" || m.Cursor() != 146 {
		t.Errorf("after sorting the cursor is on %s at %d, want name-00003 at 146", it.name, m.Cursor())
	}
	if !slices.ContainsFunc(msgs, func(msg tea.Msg) bool {
		f, ok := msg.(views.FlashMsg)
		return ok && strings.Contains(f.Text, "name ↓")
	}) {
		t.Errorf("no flash about the new order: %v", msgs)
	}
	if s := screen(m); !strings.Contains(s, "NAME v") || !strings.Contains(s, "sort: name ↓") {
		t.Errorf("header does not show the new order:\n%s", s)
	}
}

func TestFailedPageShowsRetryRow(t *testing.T) {
	m, src := newTable(t, 1000, nil)
	src.fail.Store(true)
	press(m, "G")
	s := screen(m)
	if !strings.Contains(s, "failed: 503 service unavailable (r to retry)") {
		t.Fatalf("no failed row:\n%s", s)
	}
	src.fail.Store(false)
	press(m, "r")
	if s := screen(m); !strings.Contains(s, "name-00999") || strings.Contains(s, "failed") {
		t.Errorf("retry did not load:\n%s", s)
	}
}

func TestDisabledActionExplainsItself(t *testing.T) {
	m, _ := newTable(t, 10, nil)
	msgs := press(m, "enter")
	if len(msgs) != 1 || msgs[0] != (views.FlashMsg{Text: "rows have nothing inside", Error: true}) {
		t.Errorf("enter on a table without Open: %v", msgs)
	}
	st, _ := keymap.Find(m.Actions(), keymap.Open)
	if st.Enabled || st.Reason == "" {
		t.Errorf("open state %+v", st)
	}
}

func TestOpenCopyBack(t *testing.T) {
	var opened string
	m, _ := newTable(t, 10, &opened)
	press(m, "j", "enter")
	if opened != "name-00001" {
		t.Errorf("opened %q", opened)
	}
	msgs := press(m, "y", "esc")
	if len(msgs) != 1 || msgs[0] != (views.CopyMsg{Text: "u1", What: "uid"}) || !m.Closed() {
		t.Errorf("y, esc gave %v, closed %v", msgs, m.Closed())
	}
}

func TestMouseWheelAndClick(t *testing.T) {
	m, _ := newTable(t, 100, nil)
	drive(m, m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown}))
	if m.Cursor() != 3 {
		t.Errorf("wheel down: cursor %d", m.Cursor())
	}
	drive(m, m.Update(tea.MouseClickMsg{Y: 1, Button: tea.MouseLeft}))
	if m.Cursor() != 0 {
		t.Errorf("click on the first row: cursor %d", m.Cursor())
	}
}

func TestDeprecatedRowsAreStyled(t *testing.T) {
	m, _ := newTable(t, 20, nil)
	press(m, "j")
	lines := strings.Split(m.View(), "\n")
	// Row 1 is name-00000 (deprecated, not selected): struck through (SGR 9).
	if !strings.Contains(lines[1], "9") || !strings.Contains(lines[1], "\x1b[") {
		t.Errorf("deprecated row not styled: %q", lines[1])
	}
	if strings.Contains(lines[3], ";9") || strings.Contains(lines[3], "[9") {
		t.Errorf("plain row struck through: %q", lines[3])
	}
}
