package tree

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
	"canopy/views/paging"
	"canopy/views/viewstest"
)

const (
	benchWidth  = 200
	benchHeight = 60
)

var benchKeyDown = tea.KeyPressMsg{Code: 'j', Text: "j"}

func benchSplitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

var benchFlavors = []string{"", "-dev", "-slim", "-r1", "-r2", "-fips", "-debug"}

// benchTagNode is the i-th synthetic tag node under parent, built the way
// the shell builds tag nodes (ui/sources.go): name, short digest as the
// note, one in ten deprecated.
func benchTagNode(parent *Node, i int) *Node {
	h := benchSplitmix(uint64(i))
	name := fmt.Sprintf("%d.%d.%d%s", 1+i/100000, i/1000%100, i%1000, benchFlavors[h%uint64(len(benchFlavors))])
	if i%1000 == 0 {
		name = "latest-" + strconv.Itoa(i/1000)
	}
	return &Node{
		ID:         fmt.Sprintf("%s/%016x", parent.ID, h),
		Kind:       KindTag,
		Label:      safe.Text(name),
		Note:       safe.Text(fmt.Sprintf("sha256:%012x", h>>16)),
		Parent:     parent,
		Depth:      parent.Depth + 1,
		Deprecated: h%10 == 7,
	}
}

// nodeSource serves the children mk(i) for i < n at once; tokens are the
// next position.
func nodeSource(n int, mk func(i int) *Node) paging.Source[*Node] {
	return func(_ context.Context, req paging.Request) (paging.Result[*Node], error) {
		start := req.Skip
		if req.Token != "" {
			pos, err := strconv.Atoi(req.Token)
			if err != nil {
				return paging.Result[*Node]{}, err
			}
			start = pos + req.Skip
		}
		start = min(start, n)
		end := min(start+min(req.Size, paging.DefaultPageSize), n)
		res := paging.Result[*Node]{Total: int64(n), Skipped: req.Skip, Items: make([]*Node, 0, end-start)}
		for i := start; i < end; i++ {
			res.Items = append(res.Items, mk(i))
		}
		if end < n {
			res.Next = strconv.Itoa(end)
		}
		return res, nil
	}
}

// runCmd executes cmd and what follows from it, feeding pages back to m.
func runCmd(m *Model, cmd tea.Cmd) {
	viewstest.Drive(cmd, func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok }, m.Update)
}

// benchTree is an organization whose repos collection holds one repo,
// "python", expanded with n loaded tags: rows are the org, its repos
// collection, the repo, the n tags.
func benchTree(tb testing.TB, n int) *Model {
	tb.Helper()
	m, python := pythonTree(func(python *Node) paging.Source[*Node] {
		return nodeSource(n, func(i int) *Node { return benchTagNode(python, i) })
	})
	l := python.Children
	for !l.Done() {
		before := l.Loaded()
		runCmd(m, l.Ensure(l.Contiguous(), 0))
		if l.Loaded() == before {
			tb.Fatalf("loading stalled at %d of %d", before, l.Total())
		}
	}
	if want := 3 + n; m.Rows() != want {
		tb.Fatalf("%d rows, want %d", m.Rows(), want)
	}
	return m
}

// pythonTree is an organization whose repos collection holds one repo,
// "python", whose tags tags serves; python is expanded, its first page
// loaded.
func pythonTree(tags func(python *Node) paging.Source[*Node]) (*Model, *Node) {
	ctx := context.Background()
	org := &Node{ID: "8707a01d6329783f07df1bd4a477b564aef8fc52", Kind: KindOrg, Label: "acme.example"}
	org.Children = paging.New(ctx, nodeSource(0, nil), NodeKey)
	repos := &Node{ID: "repos:" + org.ID, Kind: KindRepos, Label: "repos", Parent: org, Depth: 1}
	org.Static = []*Node{repos}
	python := &Node{ID: org.ID + "/4c1f0e6a9b2d7c35", Kind: KindRepo, Label: "python", Parent: repos, Depth: 2}
	python.Children = paging.New(ctx, tags(python), NodeKey)
	repos.Children = paging.New(ctx, nodeSource(1, func(int) *Node { return python }), NodeKey)

	c := views.Common{
		Theme: theme.New(theme.Options{Name: "dark"}),
		Keys:  keymap.Default(),
		Now:   func() time.Time { return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC) },
	}
	m := New(c, Config{Roots: []*Node{org}})
	m.SetSize(benchWidth, benchHeight)
	runCmd(m, m.Init())
	for _, node := range []*Node{repos, python} {
		cmd := m.expand(node)
		m.rebuild()
		runCmd(m, cmd)
	}
	return m, python
}

var benchTrees = struct {
	sync.Mutex
	m map[int]*Model
}{m: map[int]*Model{}}

func loadedTree(tb testing.TB, n int) *Model {
	tb.Helper()
	benchTrees.Lock()
	defer benchTrees.Unlock()
	if m, ok := benchTrees.m[n]; ok {
		return m
	}
	start := time.Now()
	m := benchTree(tb, n)
	tb.Logf("loaded a tree of %d rows in %v", m.Rows(), time.Since(start).Round(time.Millisecond))
	benchTrees.m[n] = m
	return m
}

// BenchmarkTreeFrame is one `j` press and one full 200x60 frame of the tree
// with one expanded node of 10³ or 10⁵ loaded children, the cursor in the
// middle of them.
func BenchmarkTreeFrame(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		b.Run("children="+strconv.Itoa(n), func(b *testing.B) {
			m := loadedTree(b, n)
			lo, hi := n/2-200, n/2+200
			reset := func() {
				m.cursor, m.offset = lo, lo-benchHeight/2
				m.clamp()
			}
			reset()
			if v := m.View(); strings.Count(v, "\n") != benchHeight-1 {
				b.Fatalf("frame has %d lines, want %d", strings.Count(v, "\n")+1, benchHeight)
			}
			b.ReportAllocs()
			var out int
			for b.Loop() {
				if m.cursor >= hi-1 {
					b.StopTimer()
					reset()
					b.StartTimer()
				}
				if cmd := m.Update(benchKeyDown); cmd != nil {
					b.Fatal("a move in a loaded tree returned a command")
				}
				out += len(m.View())
			}
			runtime.KeepAlive(out)
		})
	}
}

// BenchmarkTreeBottom is `G` (as many as it takes) on a repo of 10³ or 10⁶ tags of which only
// the first page is loaded: the key, every request it leads to (answered
// at once by an in-memory source) and the frame after. requests/op counts
// the pages asked for.
func BenchmarkTreeBottom(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		b.Run("children="+strconv.Itoa(n), func(b *testing.B) {
			var requests int
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				m, src := unloadedTree(n)
				b.StartTimer()
				// G until the last tag shows: once here; the tree before
				// sparse paging needed a G per page or two.
				last := benchTagName(n - 1)
				for presses := 0; !strings.Contains(m.View(), last); presses++ {
					if presses == n {
						b.Fatalf("G did not reach the last tag:\n%s", m.View())
					}
					runCmd(m, m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"}))
				}
				requests += int(src.Load())
			}
			b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
		})
	}
}

// unloadedTree is benchTree's organization with python expanded and only
// its first page of n tags loaded, the cursor on python; the counter
// counts the requests for python's tags from then on.
func unloadedTree(n int) (*Model, *atomic.Int64) {
	var requests atomic.Int64
	m, _ := pythonTree(func(python *Node) paging.Source[*Node] {
		tags := nodeSource(n, func(i int) *Node { return benchTagNode(python, i) })
		return func(ctx context.Context, req paging.Request) (paging.Result[*Node], error) {
			requests.Add(1)
			return tags(ctx, req)
		}
	})
	requests.Store(0)
	return m, &requests
}

// benchTagName is the name benchTagNode gives the i-th tag.
func benchTagName(i int) string { return string(benchTagNode(&Node{}, i).Label) }
