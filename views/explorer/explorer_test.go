package explorer

import (
	"context"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/tree"
	"canopy/views/viewstest"
)

// The kinds of the tree here, as the shell's registry describes them.
var (
	kindOrg   = &tree.Kind{Name: "organization", Group: true, Binds: true, Creates: true}
	kindRepos = &tree.Kind{Name: "repos", Collection: true, Creates: true}
	kindRepo  = &tree.Kind{Name: "repo", Flags: true, Creates: true, Deletes: true}
)

// explore is an explorer over an organization of three repos, the pane
// showing the node under the cursor as the shell does.
func explore(t *testing.T) *Model {
	t.Helper()
	ctx := context.Background()
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	org := &tree.Node{ID: "org", Kind: kindOrg, Label: "acme"}
	repos := &tree.Node{ID: "repos:org", Kind: kindRepos, Label: "repos", Parent: org, Depth: 1}
	repos.Children = paging.New(ctx, func(_ context.Context, req paging.Request) (paging.Result[*tree.Node], error) {
		res := paging.Result[*tree.Node]{Total: 3}
		for i := range 3 {
			r := &api.Repo{UID: fmt.Sprintf("org/r%d", i), Name: fmt.Sprintf("repo-%d", i)}
			res.Items = append(res.Items, &tree.Node{ID: r.UID, Kind: kindRepo, Label: safe.Of(r.Name), Item: r, Parent: repos, Depth: 2})
		}
		return res, nil
	}, tree.NodeKey)
	org.Static = []*tree.Node{repos}
	d := detail.New(ctx, common, detail.Fetch{Kind: func(item any) *detail.Kind {
		r, ok := item.(*api.Repo)
		if !ok {
			return nil
		}
		return &detail.Kind{UID: func(any) string { return r.UID }, Title: func(any) safe.Text { return safe.Of(r.Name) },
			Page: detail.RepoPage(detail.RepoSources{}), Copy: func(any) (string, string) { return r.UID, "uid" }}
	}})
	var tr *tree.Model
	tr = tree.New(common, tree.Config{Roots: []*tree.Node{org},
		Select: func(n *tree.Node) tea.Cmd {
			if n != nil {
				d.Show(n.Item)
			}
			return nil
		},
		Copy: func(n *tree.Node) (string, string) { return n.ID, "uid" }})
	m := New(common, "acme", tr, d)
	m.SetSize(100, 20)
	m.drive(m.Init())
	return m
}

// drive delivers the pages loaded back to the explorer.
func (m *Model) drive(cmd tea.Cmd) {
	viewstest.Drive(cmd, func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok }, m.Update)
}

func (m *Model) press(keys ...string) {
	for _, k := range keys {
		m.drive(m.Update(viewstest.Key(k)))
	}
}

// Every key the explorer offers does something, whichever pane has the
// keyboard and while the tree's filter line is open; tab, esc and h move
// the keyboard between the panes.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	m := explore(t)
	check := func(when string) {
		t.Helper()
		states := m.Actions()
		if u := keymap.Unbound(states); len(u) > 0 {
			t.Errorf("%s: enabled without a Run: %v", when, u)
		}
		if _, ok := keymap.Find(states, keymap.Focus); ok == m.TakesText() {
			t.Errorf("%s: tab listed %v while typing %v", when, ok, m.TakesText())
		}
	}
	check("the tree")
	m.press("j", "l", "j")
	if d, _ := m.Detail().Current().(*api.Repo); d == nil || d.Name != "repo-0" {
		t.Fatalf("the pane shows %v", m.Detail().Current())
	}
	check("the tree on a repo")
	for _, back := range []string{"esc", "h"} {
		m.press("tab")
		if !m.focusDetail {
			t.Fatal("tab did not focus the pane")
		}
		check("the pane")
		if st, _ := keymap.Find(m.Actions(), keymap.Copy); !st.Enabled {
			t.Error("the pane offers no copy")
		}
		m.press(back)
		if m.focusDetail {
			t.Errorf("%s did not give the keyboard back to the tree", back)
		}
	}
	m.press("/")
	if !m.TakesText() {
		t.Fatal("/ did not open the filter")
	}
	check("the filter line")
	m.press("r", "e", "p", "o", "enter")
	check("filtered")
}
