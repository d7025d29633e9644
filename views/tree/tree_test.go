package tree

import (
	"context"
	"errors"
	"fmt"
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

// leaves serves n leaf nodes named prefix-i under parent.
type leaves struct {
	parent *Node
	prefix string
	n      int
	kind   *Kind
	fail   atomic.Bool
	calls  atomic.Int32
	// noTotal: the answers leave the total out.
	noTotal bool
}

func (l *leaves) source(_ context.Context, req paging.Request) (paging.Result[*Node], error) {
	l.calls.Add(1)
	if l.fail.Load() {
		return paging.Result[*Node]{}, errors.New("connection reset")
	}
	start := req.Skip
	if req.Token != "" {
		start, _ = strconv.Atoi(req.Token)
	}
	end := min(start+req.Size, l.n)
	res := paging.Result[*Node]{Total: int64(l.n), NoTotal: l.noTotal, Skipped: start}
	for i := start; i < end; i++ {
		name := fmt.Sprintf("%s-%04d", l.prefix, i)
		res.Items = append(res.Items, &Node{ID: name, Kind: l.kind, Label: safe.Text(name), Parent: l.parent, Depth: l.parent.Depth + 1,
			Item: name, Deprecated: i%7 == 3})
	}
	if end < l.n {
		res.Next = strconv.Itoa(end)
	}
	return res, nil
}

// fixture: org → [repos (n repos, each with no children)], plus a feed root.
func fixture(t *testing.T, n int) (*Model, *leaves, *[]*Node) {
	t.Helper()
	ctx := context.Background()
	org := &Node{ID: "org", Kind: KindOrg, Label: "acme"}
	repos := &Node{ID: "repos:org", Kind: KindRepos, Label: "repos", Parent: org, Depth: 1}
	src := &leaves{parent: repos, prefix: "repo", n: n, kind: KindTag}
	repos.Children = paging.New(ctx, src.source, NodeKey)
	org.Static = []*Node{repos}
	feed := &Node{ID: "advisories:", Kind: KindAdvisories, Label: "advisories"}
	feedSrc := &leaves{parent: feed, prefix: "CGA", n: 5, kind: KindAdvisory}
	feed.Children = paging.New(ctx, feedSrc.source, NodeKey)
	var opened []*Node
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	m := New(common, Config{
		Roots: []*Node{org, feed},
		Open:  func(n *Node) tea.Cmd { opened = append(opened, n); return nil },
		Copy:  func(n *Node) (string, string) { return n.ID, "uid" },
	})
	m.SetSize(50, 10)
	drive(m, m.Init())
	return m, src, &opened
}

func drive(m *Model, cmd tea.Cmd) []tea.Msg {
	return viewstest.Drive(cmd, func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok }, m.Update)
}

func press(m *Model, keys ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		out = append(out, drive(m, m.Update(viewstest.Key(k)))...)
	}
	return out
}

func screen(m *Model) string { return ansi.Strip(m.View()) }

func TestRootsAndTotals(t *testing.T) {
	m, _, _ := fixture(t, 450)
	s := screen(m)
	for _, want := range []string{"v acme", "> repos", "450", "> advisories", "5"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
}

func TestExpandPagesLazilyAndShowsLoadedOfTotal(t *testing.T) {
	m, src, _ := fixture(t, 450)
	press(m, "j", "l")
	s := screen(m)
	if !strings.Contains(s, "v repos") || !strings.Contains(s, "200/450") || !strings.Contains(s, "repo-0000") {
		t.Fatalf("after expanding:\n%s", s)
	}
	// Walking down loads the next pages before the end is reached.
	for range 210 {
		press(m, "j")
	}
	if got := src.calls.Load(); got < 2 {
		t.Errorf("walking past 200 rows made %d requests", got)
	}
	if s := screen(m); !strings.Contains(s, "repo-0209") {
		t.Errorf("after 210 rows:\n%s", s)
	}
	press(m, "G")
	if s := screen(m); !strings.Contains(s, "repo-0449") || !strings.Contains(s, "advisories") {
		t.Errorf("at the end:\n%s", s)
	}
}

func TestFailedPageRowAndRetry(t *testing.T) {
	m, src, _ := fixture(t, 450)
	press(m, "j", "l")
	src.fail.Store(true)
	press(m, "G")
	s := screen(m)
	if !strings.Contains(s, "failed: connection reset (r to retry)") {
		t.Fatalf("no failed row:\n%s", s)
	}
	src.fail.Store(false)
	press(m, "k", "r")
	if s := screen(m); !strings.Contains(s, "repo-0449") || strings.Contains(s, "failed") {
		t.Errorf("retry did not load:\n%s", s)
	}
}

func TestCollapseGoesToParent(t *testing.T) {
	m, _, _ := fixture(t, 5)
	press(m, "j", "l", "j", "j")
	if n := m.Selected(); n.Label != "repo-0001" {
		t.Fatalf("on %s", n.Label)
	}
	press(m, "h")
	if n := m.Selected(); n.Label != "repos" {
		t.Fatalf("h went to %s, want the parent", n.Label)
	}
	press(m, "h")
	if strings.Contains(screen(m), "repo-0000") {
		t.Errorf("second h did not collapse:\n%s", screen(m))
	}
}

func TestLeafActions(t *testing.T) {
	m, _, opened := fixture(t, 5)
	press(m, "j", "l", "j")
	msgs := press(m, "l")
	if len(msgs) != 1 || !strings.Contains(msgs[0].(views.FlashMsg).Text, "has no children") {
		t.Errorf("l on a leaf: %v", msgs)
	}
	press(m, "enter")
	if len(*opened) != 1 || (*opened)[0].Label != "repo-0000" {
		t.Errorf("enter on a leaf opened %v", *opened)
	}
	if msgs := press(m, "y"); len(msgs) != 1 || msgs[0] != (views.CopyMsg{Text: "repo-0000", What: "uid"}) {
		t.Errorf("y: %v", msgs)
	}
	// enter on a collection opens it (as a table, in the shell).
	press(m, "k", "enter")
	if len(*opened) != 2 || (*opened)[1].Label != "repos" {
		t.Errorf("enter on a collection opened %v", *opened)
	}
}

func TestDeprecatedLeafIsMarked(t *testing.T) {
	m, _, _ := fixture(t, 5)
	press(m, "j", "l")
	if l := lineWith(screen(m), "repo-0003"); !strings.Contains(l, "[deprecated]") {
		t.Errorf("deprecated row %q", l)
	}
	if l := lineWith(screen(m), "repo-0002"); strings.Contains(l, "deprecated") {
		t.Errorf("plain row %q", l)
	}
}

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

func TestFitsWidth(t *testing.T) {
	m, _, _ := fixture(t, 50)
	press(m, "j", "l")
	m.SetSize(20, 6)
	for i, l := range strings.Split(m.View(), "\n") {
		if w := ansi.StringWidth(l); w > 20 {
			t.Errorf("line %d is %d wide: %q", i, w, ansi.Strip(l))
		}
	}
}

// TestIncrementalRowsMatchARebuild checks that rows added page by page are
// the rows a full flattening gives.
func TestIncrementalRowsMatchARebuild(t *testing.T) {
	m, _, _ := fixture(t, 1234)
	press(m, "j", "l")
	for range 1300 {
		press(m, "j")
	}
	got := append([]row(nil), m.rows...)
	cursor := m.Selected()
	m.rebuild()
	if len(got) != len(m.rows) {
		t.Fatalf("%d rows incrementally, %d rebuilt", len(got), len(m.rows))
	}
	for i := range got {
		if got[i] != m.rows[i] {
			t.Fatalf("row %d differs: %+v vs %+v", i, got[i], m.rows[i])
		}
	}
	if m.Selected() != cursor {
		t.Error("rebuild moved the cursor")
	}
}

func TestDeprecatedChildrenAreCounted(t *testing.T) {
	m, _, _ := fixture(t, 450)
	press(m, "j", "l")
	l := lineWith(screen(m), "repos")
	if !strings.Contains(l, "repos !") || !strings.Contains(l, "29+ deprecated · 200/450") {
		t.Errorf("partly loaded: %q", l)
	}
	for range 460 {
		press(m, "j")
	}
	press(m, "g")
	if l := lineWith(screen(m), "repos"); !strings.Contains(l, "64 deprecated · 450") {
		t.Errorf("fully loaded: %q", l)
	}
}

// nested is org → folders (each with 3 leaf children), paged from sources
// whose answers the test holds until it runs them.
func nested(t *testing.T) *Model {
	t.Helper()
	ctx := context.Background()
	org := &Node{ID: "org", Kind: KindOrg, Label: "acme"}
	leafSrc := func(parent *Node) paging.Source[*Node] {
		return func(_ context.Context, req paging.Request) (paging.Result[*Node], error) {
			res := paging.Result[*Node]{Total: 3}
			for i := range 3 {
				id := fmt.Sprintf("%s/leaf-%d", parent.ID, i)
				leaf := &Node{ID: id, Kind: KindRepo, Label: safe.Text(fmt.Sprintf("leaf-%d", i)), Parent: parent, Depth: parent.Depth + 1}
				leaf.Children = paging.New(ctx, func(context.Context, paging.Request) (paging.Result[*Node], error) {
					return paging.Result[*Node]{Total: 0}, nil
				}, NodeKey)
				res.Items = append(res.Items, leaf)
			}
			return res, nil
		}
	}
	org.Children = paging.New(ctx, func(_ context.Context, req paging.Request) (paging.Result[*Node], error) {
		res := paging.Result[*Node]{Total: 2}
		for _, name := range []string{"apps", "data"} {
			n := &Node{ID: "org/" + name, Kind: KindFolder, Label: safe.Text(name), Parent: org, Depth: 1}
			n.Children = paging.New(ctx, leafSrc(n), NodeKey)
			res.Items = append(res.Items, n)
		}
		return res, nil
	}, NodeKey)
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{Roots: []*Node{org}})
	m.SetSize(50, 12)
	drive(m, m.Init())
	return m
}

// Keys typed while a node loads are not lost: l on the loading row expands
// the first child when it arrives.
func TestTypedAheadExpandWaitsForTheChildren(t *testing.T) {
	m := nested(t)
	press(m, "j") // apps
	held := m.Update(viewstest.Key("l"))
	if !strings.Contains(screen(m), "loading") {
		t.Fatalf("no loading row:\n%s", screen(m))
	}
	m.Update(viewstest.Key("j")) // onto the loading row
	m.Update(viewstest.Key("l")) // typed ahead
	drive(m, held)               // the children of apps arrive
	if n := m.Selected(); n == nil || n.Label != "leaf-0" || !n.Expanded() {
		t.Errorf("the typed-ahead l was lost:\n%s", screen(m))
	}
}

// A collection whose first page failed shows the failure mark, one that
// loads a spinner; neither shows a blank count.
func TestCountShowsLoadingAndFailure(t *testing.T) {
	m, src, _ := fixture(t, 5)
	press(m, "j")
	if l := lineWith(screen(m), "repos"); !strings.HasSuffix(strings.TrimSpace(l), "5") {
		t.Fatalf("loaded: %q", l)
	}
	src.fail.Store(true)
	held := m.Update(viewstest.Key("r"))
	// A refresh keeps what was loaded until it answers.
	if l := lineWith(screen(m), "repos"); !strings.HasSuffix(strings.TrimSpace(l), "5") {
		t.Errorf("refreshing: %q", l)
	}
	drive(m, held)
	if l := lineWith(screen(m), "repos"); !strings.HasSuffix(strings.TrimSpace(l), "5 ! stale") {
		t.Errorf("a failed refresh: %q", l)
	}
}

// The failed row of a collection tells the shell its whole error.
func TestFailedRowShowsItsError(t *testing.T) {
	m, src, _ := fixture(t, 450)
	var shown error
	m.cfg.Failed = func(_ *Node, err error) tea.Cmd { shown = err; return nil }
	m.cfg.Select = func(*Node) tea.Cmd { return nil }
	press(m, "j", "l")
	src.fail.Store(true)
	press(m, "G", "k")
	if shown == nil || shown.Error() != "connection reset" {
		t.Errorf("the failed row under the cursor: %v", shown)
	}
}

// At 34 columns (the tree pane at 80x24) a repo row keeps its name and its
// mark; its count shortens instead.
func TestNarrowRowKeepsTheLabel(t *testing.T) {
	m, _, _ := fixture(t, 450)
	press(m, "j", "l")
	m.cfg.Roots[0].Static[0].Label = "node-exporter"
	for w, want := range map[int]string{60: "29+ deprecated · 200/450", 34: "29+! 200/450", 28: "200/450", 18: ""} {
		m.SetSize(w, 10)
		l := lineWith(screen(m), "node-ex")
		if !strings.Contains(l, "node-ex") || !strings.Contains(l, "!") && w > 18 {
			t.Errorf("%d wide: the label or mark is gone: %q", w, l)
		}
		if want != "" && !strings.HasSuffix(strings.TrimSpace(l), want) || want == "" && strings.Contains(l, "450") {
			t.Errorf("%d wide: %q, want it to end in %q", w, l, want)
		}
	}
}

// A scan that counted every child makes the count exact.
func TestCountedMakesTheDeprecatedCountExact(t *testing.T) {
	m, _, _ := fixture(t, 450)
	press(m, "j", "l")
	m.Update(views.CountedMsg{ID: "repos:org", Count: 64, Total: 450})
	if l := lineWith(screen(m), "repos"); !strings.Contains(l, "64 deprecated · 200/450") {
		t.Errorf("after a full count: %q", l)
	}
	m.Update(views.CountedMsg{ID: "repos:org", Count: 60, Total: 449}) // of another total: ignored
	if l := lineWith(screen(m), "repos"); !strings.Contains(l, "29+ deprecated") {
		t.Errorf("a count of another total: %q", l)
	}
}

// esc goes back like h; on the first root it says how to quit.
func TestEscGoesBack(t *testing.T) {
	m, _, _ := fixture(t, 5)
	press(m, "j", "l", "j")
	press(m, "esc")
	if n := m.Selected(); n.Label != "repos" {
		t.Fatalf("esc went to %s", n.Label)
	}
	press(m, "esc", "esc")
	if msgs := press(m, "esc"); len(msgs) != 1 || msgs[0].(views.FlashMsg).Text != "this is the top: q quits" {
		t.Errorf("esc at the top: %v (on %s)", msgs, m.Selected().Label)
	}
	if m.Noun() != "an organization" {
		t.Errorf("noun %q", m.Noun())
	}
	m.cfg.Copy = func(n *Node) (string, string) {
		if n.Item == nil {
			return "", ""
		}
		return n.ID, "uid"
	}
	press(m, "j")
	if got := m.Actions(); !strings.Contains(fmt.Sprint(got), "a collection has no uid to copy") {
		t.Errorf("copy on a collection: %v", got)
	}
}

// A count from a scan elsewhere (D in a table) of a collection never
// opened in the tree shows at once, and stays exact once it is opened.
func TestCountedReachesAnUnopenedCollection(t *testing.T) {
	m, _, _ := fixture(t, 450)
	m.SetSize(60, 10)
	repo := awsCLIOf300Tags(m)
	if l := lineWith(screen(m), "aws-cli"); strings.Contains(l, "deprecated") {
		t.Fatalf("counted before any scan: %q", l)
	}
	m.Update(views.CountedMsg{ID: repo.ID, Count: 17, Total: 300})
	if l := lineWith(screen(m), "aws-cli"); !strings.Contains(l, "17 deprecated · 300") || !strings.Contains(l, "!") {
		t.Errorf("a collapsed, unloaded collection after a full count: %q", l)
	}
	press(m, "l")
	if l := lineWith(screen(m), "aws-cli"); !strings.Contains(l, "17 deprecated · 200/300") {
		t.Errorf("opened after a full count: %q", l)
	}
}

// The shell's note shows in the longest form that fits the row, or not at
// all; the label keeps its room.
func TestShellNoteTakesTheFormThatFits(t *testing.T) {
	m, _, _ := fixture(t, 3)
	m.cfg.Note = func(n *Node) []safe.Text {
		if n.ID != "repo-0001" {
			return nil
		}
		return []safe.Text{"advisories: 12 open, 3 fixed", "adv: 12 open"}
	}
	press(m, "j", "l")
	for w, want := range map[int]string{60: "advisories: 12 open, 3 fixed", 34: "adv: 12 open", 20: ""} {
		m.SetSize(w, 10)
		l := lineWith(screen(m), "repo-0001")
		if !strings.Contains(l, "repo-0001") {
			t.Fatalf("%d wide: the label is gone: %q", w, l)
		}
		if want != "" && !strings.Contains(l, "repo-0001  "+want) || want == "" && strings.Contains(l, "adv") {
			t.Errorf("%d wide: %q, want the note %q", w, l, want)
		}
		if other := lineWith(screen(m), "repo-0002"); strings.Contains(other, "adv") {
			t.Errorf("%d wide: a row without a note has one: %q", w, other)
		}
	}
}

// p opens the page of a node that expands (a repo, a folder), where enter
// expands it.
func TestPageOpensAnExpandingNodesPage(t *testing.T) {
	m, _, opened := fixture(t, 3)
	org := m.cfg.Roots[0]
	org.Item = "acme"
	m.SetSize(80, 10)
	if !hasAction(m, keymap.Page) {
		t.Fatalf("p is not offered on the organization:\n%s", screen(m))
	}
	press(m, "p")
	if len(*opened) != 1 || (*opened)[0] != org {
		t.Fatalf("p opened %v", *opened)
	}
	press(m, "j") // the repos collection: enter opens it already
	if hasAction(m, keymap.Page) {
		t.Error("p is offered on a collection")
	}
}

func hasAction(m *Model, a keymap.Action) bool {
	st, ok := keymap.Find(m.Actions(), a)
	return ok && st.Enabled
}

// The feeds (root collections) are asked for once the first root's first
// page is in, not beside it: the organization's tree is drawn without
// waiting behind their pages. Their totals then show as before.
func TestFeedsAreAskedForAfterTheFirstRootsFirstPage(t *testing.T) {
	ctx := context.Background()
	org := &Node{ID: "org", Kind: KindOrg, Label: "acme"}
	folders := &leaves{parent: org, prefix: "folder", n: 3, kind: KindOrg}
	org.Children = paging.New(ctx, folders.source, NodeKey)
	repos := &Node{ID: "repos:org", Kind: KindRepos, Label: "repos", Parent: org, Depth: 1}
	repos.Children = paging.New(ctx, (&leaves{parent: repos, prefix: "repo", n: 2, kind: KindTag}).source, NodeKey)
	org.Static = []*Node{repos}
	feed := &Node{ID: "advisories:", Kind: KindAdvisories, Label: "advisories"}
	feedSrc := &leaves{parent: feed, prefix: "CGA", n: 5, kind: KindAdvisory}
	var early atomic.Bool
	feed.Children = paging.New(ctx, func(ctx context.Context, req paging.Request) (paging.Result[*Node], error) {
		if org.Children.Loaded() == 0 {
			early.Store(true)
		}
		return feedSrc.source(ctx, req)
	}, NodeKey)
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()},
		Config{Roots: []*Node{org, feed}})
	m.SetSize(50, 10)
	cmd := m.Init()
	// Meanwhile the feed's row says it is on its way, as a loading one.
	spin := m.common.Theme.Glyphs.Spinner[0]
	if row := lineWith(screen(m), "advisories"); !strings.Contains(row, spin) {
		t.Errorf("the feed waiting for the organization's page shows %q, want a spinner (%s)", row, spin)
	}
	if !m.Busy() || !feed.Queued() {
		t.Errorf("the tree with a feed waiting: busy %v, the feed queued %v; want both (the spinners turn)", m.Busy(), feed.Queued())
	}
	drive(m, cmd)
	if feed.Queued() {
		t.Error("the feed is still queued once asked for")
	}
	if early.Load() {
		t.Error("the feed was asked for before the organization's first page was in")
	}
	if feedSrc.calls.Load() != 1 {
		t.Errorf("the feed was asked for %d times, want once", feedSrc.calls.Load())
	}
	s := screen(m)
	for _, want := range []string{"folder-0000", "> advisories", "5"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
}

// awsCLIOf300Tags selects the fixture's first repo, made aws-cli with 300
// tags not yet loaded.
func awsCLIOf300Tags(m *Model) *Node {
	press(m, "j", "l", "j")
	repo := m.Selected()
	src := &leaves{parent: repo, prefix: "tag", n: 300, kind: KindTag}
	repo.Children = paging.New(context.Background(), src.source, NodeKey)
	repo.Label = "aws-cli"
	return repo
}
