package tree

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
	"canopy/views/paging"
)

// TestBottomOfManyChildrenCostsOneRequest: G over the unloaded children of
// a big collection asks for the last page only (not every page before it),
// the children in between stay unloaded until seen, and the lines are all
// there (the count reads loaded/total).
func TestBottomOfManyChildrenCostsOneRequest(t *testing.T) {
	for _, n := range []int{5_000, 1_000_000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			m, src, _ := fixture(t, n)
			press(m, "j", "l")
			repos := m.Selected()
			before := src.calls.Load()
			press(m, "G", "k")
			if got := src.calls.Load() - before; got != 1 {
				t.Errorf("G made %d requests, want 1", got)
			}
			last := "repo-" + strconv.Itoa(n-1)
			if n < 10_000 {
				last = "repo-" + fmtPad(n-1)
			}
			if s := screen(m); string(m.Selected().Label) != last || strings.Contains(s, "loading") {
				t.Fatalf("the cursor is not on the last child %s:\n%s", last, s)
			}
			if got := repos.Children.Loaded(); got != 2*paging.DefaultPageSize {
				t.Errorf("%d children loaded, want the first and the last page only", got)
			}
			if m.Rows() != n+3 {
				t.Errorf("%d lines, want every child's (%d) and the org, repos and feed", m.Rows(), n+3)
			}
			// g and back costs nothing more; half pages down the middle cost
			// at most one request per screen shown.
			before = src.calls.Load()
			press(m, "g", "j", "j")
			if got := src.calls.Load() - before; got != 0 {
				t.Errorf("g made %d requests, want none", got)
			}
			for range 40 {
				press(m, "ctrl+d")
				if s := screen(m); strings.Contains(s, "loading") {
					t.Fatalf("a half page down shows unloaded rows:\n%s", s)
				}
			}
			screens := 40*m.rowsHigh()/2/m.rowsHigh() + 1
			if got := int(src.calls.Load() - before); got > screens {
				t.Errorf("40 half pages made %d requests, want at most %d", got, screens)
			}
		})
	}
}

// fmtPad is the fixture's four-digit child number.
func fmtPad(i int) string {
	s := strconv.Itoa(i)
	return strings.Repeat("0", max(4-len(s), 0)) + s
}

// TestScrollingUpFromTheBottomLoadsWhatIsSeen: after G the children above
// load page by page as the cursor comes near them, never shown unloaded.
func TestScrollingUpFromTheBottomLoadsWhatIsSeen(t *testing.T) {
	m, src, _ := fixture(t, 5_000)
	press(m, "j", "l", "G")
	before := src.calls.Load()
	for range 450 {
		press(m, "k")
		if s := screen(m); strings.Contains(s, "loading") {
			t.Fatalf("scrolling up shows unloaded rows:\n%s", s)
		}
	}
	if s := screen(m); m.Selected().Label != "repo-4550" {
		t.Errorf("450 lines up from the end:\n%s", s)
	}
	if got := src.calls.Load() - before; got > 3 {
		t.Errorf("450 lines up made %d requests, want a page per 200 lines", got)
	}
}

// TestHostileTotalKeepsTreeSmall: a server that claims 2⁴⁰ children costs
// rows for what is loaded, not for what it claims; G still goes to the end.
func TestHostileTotalKeepsTreeSmall(t *testing.T) {
	const claimed = 1 << 40
	ctx := context.Background()
	org := &Node{ID: "org", Kind: KindOrg, Label: "acme"}
	repos := &Node{ID: "repos:org", Kind: KindRepos, Label: "repos", Parent: org, Depth: 1}
	repos.Children = paging.New(ctx, func(_ context.Context, req paging.Request) (paging.Result[*Node], error) {
		start := req.Skip
		if req.Token != "" {
			start, _ = strconv.Atoi(req.Token)
		}
		res := paging.Result[*Node]{Total: claimed, Skipped: start, Next: strconv.Itoa(start + req.Size)}
		for i := start; i < start+req.Size; i++ {
			name := "x-" + strconv.Itoa(i)
			res.Items = append(res.Items, &Node{ID: name, Kind: KindTag, Label: safe.Of(name), Parent: repos, Depth: 2})
		}
		return res, nil
	}, NodeKey)
	org.Static = []*Node{repos}
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{Roots: []*Node{org}})
	m.SetSize(50, 10)
	drive(m, m.Init())
	press(m, "j", "l", "G")
	if s := screen(m); !strings.Contains(s, "x-"+strconv.Itoa(claimed-1)) {
		t.Fatalf("G did not reach the last of 2⁴⁰:\n%s", s)
	}
	if len(m.rows) > 1_000 {
		t.Errorf("%d rows held for 400 loaded children", len(m.rows))
	}
}

// TestNoTotalChildrenGrowAsPagesCome: a server that gives no total shows
// the children known and one line that loads the rest; each page fills it
// in place, and the last page ends the list exactly.
func TestNoTotalChildrenGrowAsPagesCome(t *testing.T) {
	m, src, _ := fixture(t, 450)
	src.noTotal = true
	drive(m, m.cfg.Roots[0].Static[0].Children.Reset("")) // started by Init, with totals
	press(m, "j", "l")
	if s := screen(m); !strings.Contains(s, "200+") {
		t.Errorf("the count does not say at least:\n%s", s)
	}
	for range 3 {
		press(m, "G", "k")
	}
	if got := m.Selected().Label; got != "repo-0449" {
		t.Fatalf("on %s after walking to the end:\n%s", got, screen(m))
	}
	if m.Rows() != 450+3 {
		t.Errorf("%d lines, want 453", m.Rows())
	}
	seen := map[string]bool{}
	for _, r := range m.rows {
		if r.kind == rowGap {
			t.Errorf("a gap is left at %d (%d lines)", r.pos, r.span)
		}
		if seen[r.node.ID] && r.kind == rowNode {
			t.Errorf("%s shown twice", r.node.ID)
		}
		seen[r.node.ID] = true
	}
}

// TestRevealWalksToANodeAndAKeyStopsIt: Reveal opens the path and walks a
// collection's pages until the node is loaded, the cursor on it; a key
// pressed while it walks stops the walk.
func TestRevealWalksToANodeAndAKeyStopsIt(t *testing.T) {
	m, _, _ := fixture(t, 5_000)
	drive(m, m.Reveal([]string{"org", "repos:org", "repo-0700"}))
	if got := m.Selected(); got == nil || got.Label != "repo-0700" {
		t.Fatalf("revealed %v, want repo-0700:\n%s", got, screen(m))
	}
	m2, src2, _ := fixture(t, 5_000)
	cmd := m2.Reveal([]string{"org", "repos:org", "repo-4999"})
	press(m2, "j") // before the first page of the walk comes
	before := src2.calls.Load()
	drive(m2, cmd)
	if got := src2.calls.Load() - before; got > 1 {
		t.Errorf("the walk went on after a key: %d more requests", got)
	}
}
