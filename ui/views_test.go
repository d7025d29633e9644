package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"canopy/api/emulator"
	"canopy/saved"
	"canopy/theme"
)

// startViews runs the shell with saved views; what :save writes is kept
// in *written.
func startViews(t *testing.T, written *[]saved.View, views ...saved.View) *harness {
	t.Helper()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	return startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }, Views: views,
		SaveView: func(v saved.View) (string, error) { *written = append(*written, v); return "/test/config.yaml", nil }}, 140, 30)
}

// TestSavedViewOpensAsSaved: a view's table opens with its collection,
// order, columns, deprecated rows only and fuzzy filter.
func TestSavedViewOpensAsSaved(t *testing.T) {
	t.Parallel()
	var written []saved.View
	h := startViews(t, &written, saved.View{Name: "pydep", Of: "tags", In: "python", Order: "name desc",
		Columns: []string{"tag", "status"}, Filter: "3.1", Deprecated: true})
	h.waitText("acme.example")
	h.typeText(":pydep")
	h.keys("enter")
	// The fuzzy filter ranks the rows (best first); cleared, the order
	// saved shows in the header.
	s := h.waitText("deprecated tags of python", "/3.1", "best first")
	if strings.Contains(s, "DIGEST") || strings.Contains(s, "ollama") {
		t.Errorf("columns or rows not as saved:\n%s", s)
	}
	h.keys("esc")
	h.waitText("deprecated tags of python", "TAG v")
}

// TestSaveWritesTheTableOnScreen: :save keeps what the table shows (its
// collection, order, server filter, deprecated only, filter) and the name
// opens it at once.
func TestSaveWritesTheTableOnScreen(t *testing.T) {
	t.Parallel()
	var written []saved.View
	h := startViews(t, &written)
	h.waitText("acme.example")
	h.typeText(":repos")
	h.keys("enter")
	h.waitText("repos of acme.example", "loaded")
	h.keys("s")
	h.waitFor("sorted and loaded", func(s string) bool {
		return strings.Contains(s, "sort: name ↓") && strings.Contains(s, "loaded") && !strings.Contains(s, "loading")
	})
	h.typeText("/pyth")
	h.keys("enter")
	h.waitText("/pyth")
	h.typeText(":save mine")
	h.keys("enter")
	h.waitText("saved :mine (repos · by name desc · filter pyth) in /test/config.yaml")
	want := saved.View{Name: "mine", Of: "repos", Order: "name desc", Filter: "pyth"}
	if len(written) != 1 || !viewsEqual(written[0], want) {
		t.Fatalf("written %+v, want %+v", written, want)
	}
	h.keys("esc", "esc")
	h.typeText(":mine")
	h.keys("enter")
	h.waitText("repos of acme.example", "/pyth", "best first")
	h.keys("esc")
	h.waitText("repos of acme.example", "NAME v")

	// The tags of a repo keep the repo; a name of canopy's is refused.
	h.typeText(":tags python")
	h.keys("enter")
	h.waitText("tags of python", "loaded")
	h.typeText(":save tags")
	h.keys("enter")
	h.waitText(":save: tags is the command :tags")
	// Two words are not a name (the name is its : command): said so.
	h.typeText(":save py dep")
	h.keys("enter")
	h.waitText(`:save: a view's name is one word, its : command ("py dep" is 2); e.g. :save py-dep`)
	h.typeText(":save py")
	h.keys("enter")
	h.waitText("saved :py (tags of python)")
	if last := written[len(written)-1]; last.Of != "tags" || last.In != "python" {
		t.Errorf("written %+v", last)
	}
	h.keys("esc")
	h.typeText(":save x")
	h.keys("enter")
	h.waitText(":save saves a table opened by a : command, a view, or the tree")
}

// TestSavedViewInVersionOrder: a local order (tags by version) is kept by
// its name, and the view opens sorted so.
func TestSavedViewInVersionOrder(t *testing.T) {
	t.Parallel()
	var written []saved.View
	h := startViews(t, &written, saved.View{Name: "pyv", Of: "tags", In: "python", Order: "version"})
	h.waitText("acme.example")
	h.typeText(":pyv")
	h.keys("enter")
	h.waitText("tags of python", "sort: version")
	h.typeText(":save again")
	h.keys("enter")
	h.waitText("saved :again (tags of python · by version)")
}

func viewsEqual(a, b saved.View) bool {
	return a.Name == b.Name && a.Of == b.Of && a.In == b.In && a.Order == b.Order && a.Server == b.Server &&
		slices.Equal(a.Columns, b.Columns) && a.Filter == b.Filter && a.Deprecated == b.Deprecated && a.Folder == b.Folder && a.Below == b.Below
}

func TestCheckViews(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    saved.View
		says string
	}{
		{saved.View{Name: "repos", Of: "tags"}, `name "repos" is the command :repos`},
		{saved.View{Name: "x", Of: "nope"}, `of "nope": not a table`},
		{saved.View{Name: "x", Of: "repos", In: "python"}, "in: repos are not held"},
		{saved.View{Name: "x", Of: "tags", Order: "size"}, `order "size": this table sorts by name`},
		{saved.View{Name: "x", Of: "tags", Columns: []string{"tag", "colour"}}, `column "colour": this table has tag, repo`},
		{saved.View{Name: "x", Of: "identities", Deprecated: true}, "deprecated: this table has no rows"},
		{saved.View{Name: "x", Of: "tags", Order: "name desc", Columns: []string{"TAG"}, Deprecated: true, Server: "3"}, ""},
		{saved.View{Name: "x", Of: "tags", Order: "version"}, ""},
		{saved.View{Name: "x", Of: "repos", Columns: []string{"name", "folder"}}, ""},
		{saved.View{Name: "x", Of: "tags", Order: "updated"}, "update_time desc (recently updated)"},
		{saved.View{Name: "x", Of: "advisories", Folder: "apps"}, "folder: advisories are not kept in folders"},
		{saved.View{Name: "x", Of: "repos", Folder: "apps/web", Below: true}, ""},
	} {
		_, err := CheckViews([]saved.View{c.v}, nil)
		if c.says == "" && err != nil || c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)) {
			t.Errorf("%+v: %v, want %q", c.v, err, c.says)
		}
	}
}

// TestSaveIsNotOfferedAgain: the command line offers again (and after a
// restart) the last command that went somewhere, never a :save, which
// would write the view once more.
func TestSaveIsNotOfferedAgain(t *testing.T) {
	t.Parallel()
	var written []saved.View
	h := startViews(t, &written)
	h.waitText("acme.example")
	h.typeText(":repos")
	h.keys("enter")
	h.waitText("repos of acme.example", "loaded")
	h.typeText(":save mine")
	h.keys("enter")
	h.waitText("saved :mine")
	if h.m.lastCommand != "repos" {
		t.Errorf("offered again: %q, want repos", h.m.lastCommand)
	}
}

// TestSaveKeepsWhereTheTreeListed: a folder's collection opened in the
// tree, and t on a folder, save where they list (the folder's path, its
// own members or every one under it); the views open there again, and a
// path no folder has is said.
func TestSaveKeepsWhereTheTreeListed(t *testing.T) {
	t.Parallel()
	var written []saved.View
	h := startViews(t, &written, saved.View{Name: "gone", Of: "repos", Folder: "apps/nope"})
	h.waitText("platform")
	h.moveTo("apps")
	h.keys("l")
	h.moveTo("web")
	h.keys("l")
	h.moveTo("repos of web")
	h.keys("enter")
	s := h.waitText("repos of web", "loaded")
	rows := line(s, " loaded")
	h.typeText(":save webrepos")
	h.keys("enter")
	h.waitText("saved :webrepos (repos in apps/web)")
	if last := written[len(written)-1]; !viewsEqual(last, saved.View{Name: "webrepos", Of: "repos", Folder: "apps/web"}) {
		t.Errorf("written %+v", last)
	}
	h.keys("esc")
	h.moveTo("apps")
	h.keys("t")
	h.waitText("repos under apps", "loaded")
	h.typeText(":save appsall")
	h.keys("enter")
	h.waitText("saved :appsall (repos under apps)")
	if last := written[len(written)-1]; !viewsEqual(last, saved.View{Name: "appsall", Of: "repos", Folder: "apps", Below: true}) {
		t.Errorf("written %+v", last)
	}
	h.keys("esc")
	h.typeText(":webrepos")
	h.keys("enter")
	s = h.waitText("repos of apps/web", "loaded")
	if got := line(s, " loaded"); strings.Fields(got)[0] != strings.Fields(rows)[0] {
		t.Errorf("the view lists %q, the tree's table %q", got, rows)
	}
	h.keys("esc")
	h.typeText(":appsall")
	h.keys("enter")
	h.waitText("repos under apps", "loaded")
	h.keys("esc")
	h.typeText(":gone")
	h.keys("enter")
	h.waitText("no folder apps/nope in the organization")
}
