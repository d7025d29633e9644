package ui

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// hooked is a shell on an emulator behind a hook: refuse decides which
// requests fail (503, no retry), and every GET path is counted.
type hooked struct {
	*harness
	client *api.Client
	refuse atomic.Value // func(*http.Request) bool
	mu     sync.Mutex
	gets   map[string]int
}

func hookedShell(t *testing.T, w, h int, o Options) *hooked {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token", Now: func() time.Time { return fixedNow }})
	hk := &hooked{gets: map[string]int{}}
	hk.refuse.Store(func(*http.Request) bool { return false })
	hs := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			hk.mu.Lock()
			hk.gets[r.URL.Path]++
			hk.mu.Unlock()
		}
		if hk.refuse.Load().(func(*http.Request) bool)(r) {
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(http.StatusServiceUnavailable)
			_, _ = rw.Write([]byte(`{"code":14,"message":"connection refused"}`))
			return
		}
		srv.ServeHTTP(rw, r)
	}))
	t.Cleanup(hs.Close)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"),
		Retry: api.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	hk.client = client
	o.Client, o.Org, o.Host, o.Identity = client, srv.OrgUID(), "test", "admin (test)"
	if o.Theme.Name == "" {
		o.Theme = theme.Options{Name: theme.Dark}
	}
	o.Now = func() time.Time { return fixedNow }
	hk.harness = startWith(t, srv, o, w, h)
	return hk
}

// count is how many GETs went to paths with this prefix.
func (hk *hooked) count(prefix string) int {
	hk.mu.Lock()
	defer hk.mu.Unlock()
	n := 0
	for p, c := range hk.gets {
		if strings.HasPrefix(p, prefix) {
			n += c
		}
	}
	return n
}

// The start-error screen wraps the error instead of cutting it.
func TestStartErrorWraps(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	long := "8707a01d6329783f07df1bd4a477b564aef8fc52/0000000000000000/1111111111111111"
	h := startWith(t, srv, Options{Client: client, Org: long, Theme: theme.Options{Name: theme.Dark}}, 60, 20)
	s := h.waitText("could not open the organization", "r retries")
	joined := strings.Join(strings.Fields(s), "")
	if !strings.Contains(joined, "1111111111111111") || !strings.Contains(s, "Not found") && !strings.Contains(s, "not found") {
		t.Errorf("the error is cut:\n%s", s)
	}
}

// :tags while the repo names cannot be listed shows uids, says so, and
// names the rows when r is pressed once the server answers; a repo created
// later is looked up by its uid.
func TestTagsRepoNamesRetryAndFollowNewRepos(t *testing.T) {
	t.Parallel()
	hk := hookedShell(t, 140, 30, Options{})
	hk.waitText("platform")
	hk.refuse.Store(func(r *http.Request) bool { return r.URL.Path == "/registry/v2/repos" })
	hk.keys(":", "t", "a", "g", "s", "enter")
	s := hk.waitText("tags of acme.example", "repo names:", "connection refused")
	if !regexp.MustCompile(`(?m)^ \S+ +[0-9a-f]{8} `).MatchString(s) {
		t.Errorf("rows without names should show a uid fragment:\n%s", s)
	}
	hk.refuse.Store(func(*http.Request) bool { return false })
	hk.keys("r")
	hk.waitFor("repo names in the REPO column", func(s string) bool {
		return !regexp.MustCompile(`(?m)^ \S+ +[0-9a-f]{8} `).MatchString(s) && strings.Contains(s, "alertmanager")
	})
	// A repo created after the names were learned is looked up alone.
	org := hk.m.env.org.UID
	repo, err := hk.client.CreateRepo(hk.m.ctx, org, api.Repo{Name: "aaa-new"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hk.client.CreateTag(hk.m.ctx, repo.UID, "0-a", "sha256:"+strings.Repeat("a", 64)); err != nil {
		t.Fatal(err)
	}
	hk.keys("r")
	hk.waitFor("the new repo named", func(s string) bool { return regexp.MustCompile(`0-a +aaa-new `).MatchString(s) })
	if n := hk.count("/registry/v2/repos/" + org); n == 0 {
		t.Error("the new repo was not looked up by its uid")
	}
}

// The help overlay shows the shell's own keys as they are: u is disabled
// with nothing to undo, and in read-only mode says why.
func TestHelpShowsTheShellsRealStates(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 60, true)
	h.waitText("details: acme.example")
	h.keys("?")
	s := h.waitText("Keys in acme.example")
	if l := line(s, "undo this session"); !strings.Contains(strings.Join(strings.Fields(s), " "), "nothing to undo: no edit left") {
		t.Errorf("u with nothing to undo: %q", l)
	}
	h.keys("esc")

	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	ro := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), ReadOnly: true, Theme: theme.Options{Name: theme.Dark}}, 120, 60)
	ro.waitText("details: acme.example")
	ro.keys("?")
	s = ro.waitText("Keys in acme.example")
	if l := line(s, "undo this session"); !strings.Contains(l, "read-only") {
		t.Errorf("u in read-only mode: %q", l)
	}
}

// A key of the keymap that is not an action where the cursor is says so.
func TestKeysThatDoNotApplySayWhy(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 30, true)
	h.waitText("platform")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("D")
	h.waitText("`D` (deprecated only) does not apply to repos")
	h.keys("t")
	h.waitText("`t` (table) does not apply to repos")
	h.keys("tab")
	h.waitText("`tab` (pane) does not apply to repos")
	h.keys(":", "t", "a", "g", "s", "enter")
	h.waitText("tags of acme.example", "loaded")
	h.keys("e")
	h.waitText("`e` (edit) does not apply to tags")
	// In the tree: D on a folder.
	h.keys(":", "t", "r", "e", "e", "enter")
	h.moveTo("platform")
	h.keys("D")
	h.waitText("`D` (deprecated only) does not apply to a folder")
}

// A `:` command replaces the screen the last one opened, with what was
// opened from it (as a jump in k9s): the breadcrumb holds one command's
// screens, and one esc goes back to the tree.
func TestCommandTableReplacesCommandTable(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 30, true)
	h.waitText("platform")
	h.keys(":", "a", "d", "v", "enter")
	h.waitText("› advisories", "loaded")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	h.waitText("› repos of acme.example", "63/63 loaded")
	// A table opened from a command's table stacks (enter on a repo).
	h.keys("enter")
	h.waitText("repos of acme.example › tags of ")
	h.keys(":", "g", "r", "o", "u", "p", "s", "enter")
	s := h.waitFor("folders in place of the repos and their tags", func(s string) bool {
		return strings.HasSuffix(strings.TrimSpace(line(s, "canopy  ")), "acme.example › folders of acme.example")
	})
	if l := line(s, "canopy  "); strings.Contains(l, "advisories") || strings.Contains(l, "tags of") {
		t.Errorf("a screen of an earlier command stayed: %q", l)
	}
	h.keys("esc")
	h.waitFor("the tree", func(string) bool { return len(h.m.stack) == 1 })
}

// esc in the tree goes back like h, and at the top says how to quit.
func TestEscInTheTreeGoesBack(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("esc")
	h.waitText("details: platform")
	h.keys("esc")
	h.waitFor("platform collapsed", func(s string) bool { return strings.Contains(s, "> platform") })
	h.keys("esc")
	h.waitText("details: acme.example")
	h.keys("esc")
	h.waitText("this is the top: q quits")
	// In a filter, esc clears the filter first and the footer says so.
	h.keys("/", "c", "i", "enter")
	s := h.waitText("esc clear filter")
	if strings.Contains(line(s, "esc clear filter"), "esc back") {
		t.Errorf("the footer still says esc back: %q", line(s, "esc clear filter"))
	}
}

// Sorting keeps the cursor's item when the first page of the new order has
// it, and says so when it does not.
func TestSortSaysWhenTheItemIsNotInTheFirstPage(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 30, true)
	h.waitText("platform")
	h.keys(":", "t", "a", "g", "s", "enter")
	h.waitFor("the first page", func(s string) bool { return regexp.MustCompile(`200/[\d,]+ loaded`).MatchString(s) })
	h.keys("j", "j", "j")
	name := strings.Fields(firstRowAt(h.screen(), 3))[0]
	h.keys("s") // name descending: "0"-tags are on the last page
	h.waitText(name + " is not in the first page of name ↓: cursor at top")
}

// firstRowAt is the table row n (1 the first under the header).
func firstRowAt(s string, n int) string { return strings.Split(s, "\n")[1+n] }

// The row of a failed load, under the cursor, shows its whole error in the
// detail pane; r loads it once the server answers.
func TestFailedRowShowsItsErrorInTheDetail(t *testing.T) {
	t.Parallel()
	hk := hookedShell(t, 120, 30, Options{})
	hk.waitText("platform")
	org := hk.m.env.org.UID
	hk.refuse.Store(func(r *http.Request) bool {
		parent := r.URL.Query().Get("uidp.children_of")
		return r.URL.Path == "/iam/v2/groups" && parent != "" && parent != org // the subfolders of a folder
	})
	hk.moveTo("apps")
	hk.keys("l")
	hk.waitText("failed: GET /iam/v2/groups")
	hk.keys("j")
	s := hk.waitText("details: failed: the folders of apps", "ERROR", "r to retry")
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "connection refused") {
		t.Errorf("the detail lacks the error:\n%s", s)
	}
	hk.refuse.Store(func(*http.Request) bool { return false })
	hk.keys("r")
	hk.waitText("payments", "details: payments")
}
