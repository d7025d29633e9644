package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/safe"
	"canopy/views"
	"canopy/views/dialog"
	"canopy/views/paging"
	"canopy/views/search"
	"canopy/views/viewstest"
)

// concurrent counts the requests in flight at once.
type concurrent struct {
	src       *source
	now, peak atomic.Int32
	mu        sync.Mutex
}

func (c *concurrent) list(ctx context.Context, req paging.Request) (paging.Result[row], error) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			break
		}
	}
	return c.src.list(ctx, req)
}

// askedMsg carries the dialog a delete asked with, which the shell would
// push.
type askedMsg struct{ dialog *dialog.Model }

// triageTable is a table of n rows, every tenth "old" (flagged).
func triageTable(t *testing.T, n int) (*Model[row], *[]string) {
	t.Helper()
	m, _ := newTable(t, 10, nil)
	c := &concurrent{src: &source{n: n}}
	m.cfg.List = paging.New(context.Background(), c.list, func(r *row) string { return r.uid })
	m.cfg.Flag = &Flag[row]{Name: "old", Noun: "rows", Is: func(r *row) bool { return r.old }}
	var deleted []string
	var mu sync.Mutex
	run := func(_ context.Context, r *row) error {
		if r.name == "name-00020" {
			return errors.New("PERMISSION_DENIED: identity ci-bot lacks CAP_TAG_DELETE")
		}
		mu.Lock()
		deleted = append(deleted, r.name)
		mu.Unlock()
		return nil
	}
	m.cfg.Delete = &Delete[row]{Noun: "row", Nouns: "rows", Ask: func(rs []*row, done func(dialog.Settled) tea.Msg) tea.Cmd {
		items := make([]dialog.Item, len(rs))
		for i, r := range rs {
			items[i] = dialog.Item{Key: r.uid, Label: safe.Text(r.name), Run: func(ctx context.Context) (any, error) { return nil, run(ctx, r) }}
		}
		d := dialog.New(context.Background(), m.common, dialog.Config{Done: done,
			Title: safe.Text(fmt.Sprintf("Delete %d rows?", len(rs))), Items: items, Verb: "delete"})
		return func() tea.Msg { return askedMsg{d} }
	}}
	m.cfg.CopyMany = func(rs []*row) (string, string) {
		var names []string
		for _, r := range rs {
			names = append(names, r.name)
		}
		return strings.Join(names, "\n"), "names"
	}
	drive(m, m.Init())
	return m, &deleted
}

// driveBatched runs cmd with its batches in parallel, as the program does,
// so concurrent requests overlap.
func driveBatched(m *Model[row], cmd tea.Cmd) {
	for cmd != nil {
		msgs := runParallel(cmd)
		var next []tea.Cmd
		for _, msg := range msgs {
			if _, ok := msg.(paging.PageMsg); ok {
				next = append(next, m.Update(msg))
			}
		}
		cmd = tea.Batch(next...)
	}
}

func runParallel(cmd tea.Cmd) []tea.Msg {
	msg := cmd()
	if seq := viewstest.Sequence(msg); seq != nil {
		var out []tea.Msg
		for _, c := range seq {
			out = append(out, runParallel(c)...)
		}
		return out
	}
	b, ok := msg.(tea.BatchMsg)
	if !ok {
		return []tea.Msg{msg}
	}
	var mu sync.Mutex
	var out []tea.Msg
	var wg sync.WaitGroup
	for _, c := range b {
		if c == nil {
			continue
		}
		wg.Go(func() {
			got := runParallel(c)
			mu.Lock()
			out = append(out, got...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

func TestOnlyFlaggedScansEverything(t *testing.T) {
	m, _ := triageTable(t, 4210)
	scan := m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"})
	if s := screen(m); !strings.Contains(s, "1 of 20 old · scanned 200/4,210 rows") {
		t.Errorf("no progress while scanning:\n%s", s)
	}
	driveBatched(m, scan)
	for !m.cfg.List.Done() {
		driveBatched(m, m.cfg.List.Scan(scanParallel))
	}
	s := screen(m)
	if !strings.Contains(s, "1 of 421 old · all 4,210 rows scanned") {
		t.Errorf("after the scan:\n%s", s)
	}
	for _, l := range strings.Split(s, "\n")[1:10] {
		if name := strings.Fields(l)[0]; !strings.HasSuffix(name, "0") {
			t.Errorf("an unflagged row is shown: %q", l)
		}
	}
	press(m, "esc")
	if s := screen(m); strings.Contains(s, " old ·") || !strings.Contains(s, "4,210 loaded") {
		t.Errorf("esc did not leave the flag mode:\n%s", s)
	}
}

func TestScanIsBounded(t *testing.T) {
	src := &source{n: 20_000}
	c := &concurrent{src: src}
	l := paging.New(context.Background(), c.list, func(r *row) string { return r.uid })
	first := l.Start()
	l.Update(first().(paging.PageMsg))
	for !l.Done() {
		for _, msg := range runParallel(l.Scan(scanParallel)) {
			l.Update(msg.(paging.PageMsg))
		}
	}
	if p := c.peak.Load(); p > scanParallel || p < 2 {
		t.Errorf("peak concurrency %d, want 2..%d", p, scanParallel)
	}
	if l.Loaded() != 20_000 {
		t.Errorf("loaded %d", l.Loaded())
	}
}

func TestMarkFlaggedDeleteAndCopy(t *testing.T) {
	m, deleted := triageTable(t, 100)
	press(m, "D")
	for !m.cfg.List.Done() {
		driveBatched(m, m.cfg.List.Scan(scanParallel))
	}
	press(m, "V")
	if !strings.Contains(screen(m), "10 marked") {
		t.Fatalf("V did not mark the 10 flagged rows:\n%s", screen(m))
	}
	msgs := press(m, "y")
	if cp, ok := msgs[0].(views.CopyMsg); !ok || strings.Count(cp.Text, "\n") != 9 || !strings.HasPrefix(cp.Text, "name-00000") {
		t.Errorf("y copies %v", msgs)
	}
	msgs = press(m, "d")
	asked, ok := msgs[0].(askedMsg)
	if !ok {
		t.Fatalf("d did not open a dialog: %v", msgs)
	}
	dlg := asked.dialog
	dlg.SetSize(80, 30)
	if v := dlg.View(); !strings.Contains(v, "Delete 10 rows?") || !strings.Contains(v, "name-00090") {
		t.Errorf("dialog:\n%s", v)
	}
	// y runs the deletes; their results come back to the dialog.
	for _, msg := range runParallel(dlg.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})) {
		dlg.Update(msg)
	}
	v := ansi.Strip(dlg.View())
	if !strings.Contains(v, "9 done, 1 failed") || !strings.Contains(v, "lacks CAP_TAG_DELETE") {
		t.Errorf("results:\n%s", v)
	}
	var done deletedMsg[row]
	for _, msg := range runParallel(dlg.Update(tea.KeyPressMsg{Code: tea.KeyEnter})) {
		if d, ok := msg.(deletedMsg[row]); ok {
			done = d
		}
	}
	// The answer is the asking table's own: another table of the same
	// rows keeps them all.
	other, _ := triageTable(t, 100)
	drive(other, other.Update(done))
	if other.cfg.List.Total() != 100 {
		t.Errorf("another table's dialog removed rows here: total %d", other.cfg.List.Total())
	}
	msgs = drive(m, m.Update(done))
	if len(*deleted) != 9 || len(done.settled.Done) != 9 {
		t.Fatalf("deleted %d, done %d", len(*deleted), len(done.settled.Done))
	}
	s := screen(m)
	if !strings.Contains(s, "1 of 1 old") || !strings.Contains(s, "name-00020") {
		t.Errorf("after deleting, the failed row stays:\n%s", s)
	}
	if m.cfg.List.Total() != 91 {
		t.Errorf("total %d, want 91", m.cfg.List.Total())
	}
	if len(msgs) == 0 || !strings.Contains(msgs[0].(views.FlashMsg).Text, "deleted 9 rows · 1 still marked") {
		t.Errorf("no flash: %v", msgs)
	}
}

// TestEscUnmarksBeforeLeavingAFlaggedTable: a table opened to show flagged
// rows (:deprecated) goes back on esc, but marks go first: they are a bulk
// delete in the making.
func TestEscUnmarksBeforeLeavingAFlaggedTable(t *testing.T) {
	m, _ := triageTable(t, 100)
	m.cfg.FlaggedFirst = true
	press(m, "D")
	for !m.cfg.List.Done() {
		driveBatched(m, m.cfg.List.Scan(scanParallel))
	}
	press(m, "V")
	if s := screen(m); !strings.Contains(s, "10 marked") {
		t.Fatalf("after V:\n%s", s)
	}
	if st := m.backState(); st.Short != "unmark" {
		t.Errorf("esc says %q with rows marked, want unmark", st.Short)
	}
	if press(m, "esc"); m.Closed() {
		t.Fatal("esc left the table with rows marked")
	}
	if s := screen(m); strings.Contains(s, "marked") {
		t.Errorf("esc kept the marks:\n%s", s)
	}
	if press(m, "esc"); !m.Closed() {
		t.Error("the second esc did not go back")
	}
}

// TestFilterInFlaggedViewCountsWhatItShows: a filter in a D view searches
// the flagged rows, and its count says so (not matches of every loaded
// row, nor of the collection's total), with the scan's progress.
func TestFilterInFlaggedViewCountsWhatItShows(t *testing.T) {
	m, _ := triageTable(t, 4210)
	scan := m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"}) // the scan's pages come later
	press(m, "/")
	typeAndSettle(m, "name-001")
	if s := screen(m); !strings.Contains(s, "/20 old · scanned 200/4,210") {
		t.Errorf("while scanning, the count is not of the flagged rows shown:\n%s", s)
	}
	driveBatched(m, scan)
	for !m.cfg.List.Done() {
		driveBatched(m, m.cfg.List.Scan(scanParallel))
	}
	press(m, "esc", "/")
	typeAndSettle(m, "name-001")
	s := screen(m)
	if !strings.Contains(s, "/421 old") || strings.Contains(s, "/4,210") {
		t.Errorf("after the scan, the count is not of the 421 flagged rows:\n%s", s)
	}
}

// TestMarkFlaggedSaysWhatItDidNotSee: V in a partly loaded table marks the
// flagged rows loaded and says how many rows it could not look at, and how
// to see them all.
func TestMarkFlaggedSaysWhatItDidNotSee(t *testing.T) {
	m, _ := triageTable(t, 4210)
	msgs := press(m, "V")
	var said string
	for _, msg := range msgs {
		if f, ok := msg.(views.FlashMsg); ok {
			said = f.Text
		}
	}
	if want := "marked 20 old rows (20 marked in all); 4,010 rows not loaded were not looked at (D scans them all)"; said != want {
		t.Errorf("V says %q, want %q", said, want)
	}
}

// driveScan runs a scan's pages (a few at a time, as they come in any
// order) and the filter's answers they bring, until both are done.
func driveScan(m *Model[row], cmd tea.Cmd) {
	for cmd != nil {
		var next []tea.Cmd
		for _, msg := range runParallel(cmd) {
			switch msg.(type) {
			case paging.PageMsg, search.ResultMsg:
				next = append(next, m.Update(msg))
			}
		}
		cmd = tea.Batch(next...)
	}
}

// shownPositions are the list positions of the rows shown, in order.
func shownPositions(m *Model[row]) []int {
	out := make([]int, m.rows())
	for i := range out {
		out[i] = m.position(i)
	}
	return out
}

// A filter kept through a scan of the flagged rows ends showing what the
// same filter typed after the scan shows, row for row (the pages' rows were
// merged into its matches, out of order as they came).
func TestFilterThroughAScanEndsAsAFreshOne(t *testing.T) {
	m, _ := triageTable(t, 4210)
	scan := m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"})
	press(m, "/")
	typeAndSettle(m, "name-001")
	press(m, "enter")
	driveScan(m, scan)
	for !m.cfg.List.Done() {
		driveScan(m, m.cfg.List.Scan(scanParallel))
	}
	through := shownPositions(m)
	press(m, "esc", "/")
	typeAndSettle(m, "name-001")
	if fresh := shownPositions(m); !slices.Equal(through, fresh) || len(fresh) == 0 {
		t.Fatalf("through the scan %d rows %v…, typed after it %d rows %v…", len(through), through[:min(8, len(through))],
			len(fresh), fresh[:min(8, len(fresh))])
	}
}

// `r` in the flagged rows with the cursor far down brings the cursor back
// to its row, whatever order the scan's pages come in (rows that land
// above it do not move it off its row).
func TestReloadOfFlaggedRowsKeepsTheCursorsRow(t *testing.T) {
	m, _ := triageTable(t, 4210)
	driveScan(m, m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"}))
	for !m.cfg.List.Done() {
		driveScan(m, m.cfg.List.Scan(scanParallel))
	}
	for _, keys := range [][]string{{"G"}, {"g", "j", "j", "j"}, {"G", "k", "k", "k", "k", "k"}} {
		press(m, keys...)
		it, ok := m.Selected()
		if !ok {
			t.Fatal("no row selected")
		}
		want := it.name
		scan := m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
		driveScan(m, scan)
		for !m.cfg.List.Done() {
			driveScan(m, m.cfg.List.Scan(scanParallel))
		}
		if got, _ := m.Selected(); got == nil || got.name != want {
			t.Fatalf("after %v and r: the cursor is on %v, want %s", keys, got, want)
		}
	}
}

// Leaving the flagged rows keeps the cursor on its row, not on the row of
// its number among all rows.
func TestLeavingFlaggedRowsKeepsTheRow(t *testing.T) {
	m, _ := triageTable(t, 4210)
	driveScan(m, m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"}))
	for !m.cfg.List.Done() {
		driveScan(m, m.cfg.List.Scan(scanParallel))
	}
	press(m, "G", "k", "k")
	it, _ := m.Selected()
	want := it.name
	driveScan(m, m.Update(tea.KeyPressMsg{Code: 'D', Text: "D"}))
	if got, _ := m.Selected(); got == nil || got.name != want {
		t.Fatalf("after leaving the flagged rows the cursor is on %v, want %s", got, want)
	}
}

// Rows deleted above the cursor leave it on its row, not on the one that
// moved up to its place.
func TestDeletingRowsAboveKeepsTheCursorsRow(t *testing.T) {
	m, _ := triageTable(t, 20)
	press(m, "j", "j", "j")
	on, _ := m.Selected()
	first, _ := m.cfg.List.At(0)
	second, _ := m.cfg.List.At(1)
	drive(m, m.Update(deletedMsg[row]{owner: m, settled: dialog.Settled{Done: []string{m.cfg.Key(first), m.cfg.Key(second)}}}))
	if now, _ := m.Selected(); now == nil || now.name != on.name {
		t.Errorf("the cursor moved from %s to %v", on.name, now)
	}
}
