package emulator

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

// twin is a server under comparison: it must answer every request as the
// reference does, byte for byte.
type twin struct {
	name string
	srv  *Server
}

// answer is what a server said to a request.
type answer struct {
	code  int
	retry string
	body  string
}

func ask(srv *Server, method, path, body string) answer {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+adminTok)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return answer{code: rec.Code, retry: rec.Header().Get("Retry-After"), body: rec.Body.String()}
}

// lazyWorld is an organization seeded whole (the reference), and what
// requests pick from: its folders (at the medium size, team folders) and
// repos (generated ones too), and the second organization's repos.
type lazyWorld struct {
	ref            *Server
	org            string
	groups         []string // the org and its folders, "teams" and the team folders among them
	teams          string   // the folder of the team folders; "" at the small size
	repos, created []string // repo uids: seeded, and created by the requests
	names          []string // tag names of several kinds
	rng            *rand.Rand
	newTags        int
}

// lazyCase is an emulator the comparison runs on: its size, whether
// hostile, and the share of the steps after which lists of every tag come.
type lazyCase struct {
	size    string
	hostile bool
	allFrom float64
}

func lazyServer(t *testing.T, c lazyCase, eager bool) *Server {
	t.Helper()
	srv, err := New(Options{Seed: 3, Size: c.size, Hostile: c.hostile, AdminToken: adminTok, Now: func() time.Time { return seedNow }, eager: eager})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestLazyTagsAnswerAsSeededOnes compares servers whose repos' tags are
// made when first asked for with one that seeded them all, at the medium
// size (generated repos and team folders) and the small one (the demo's
// repos, hostile ones too), over a few thousand requests: tag lists in every scope and order, with exact
// names, classes, page sizes, skips and page tokens followed; gets of
// tags, digests and repos; tags created, moved and deleted and repos
// deleted, on repos touched before or not. One lazy server is asked the
// requests as they come; the other first has the repos' tags made in
// another order, one by one.
func TestLazyTagsAnswerAsSeededOnes(t *testing.T) {
	t.Parallel()
	for _, c := range []lazyCase{{"medium", false, 0.75}, {"small", false, 0.05}, {"small", true, 0.05}} {
		name := c.size
		if c.hostile {
			name += ", hostile"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			compareLazy(t, c)
		})
	}
}

func compareLazy(t *testing.T, c lazyCase) {
	w := &lazyWorld{ref: lazyServer(t, c, true), rng: rand.New(rand.NewPCG(39, 4))}
	w.org = w.ref.OrgUID()
	asFound := lazyServer(t, c, false)
	reordered := lazyServer(t, c, false)
	if asFound.st.lazy == nil || len(asFound.st.lazy.pending) != len(asFound.st.repos.items) || len(asFound.st.tags.items) != 0 {
		t.Fatalf("not every repo's tags are made lazily: %d tags made, %+v", len(asFound.st.tags.items), asFound.st.lazy)
	}
	// And one whose organization's tags keep lists of their own rather
	// than a view of the global ones (index_view.go).
	ownLists := lazyServer(t, c, false)
	ownLists.st.tags.acc.mainShare = 0
	// And one where every group of half the tags or more is a view: the
	// organization and, at the medium size, its folder of teams.
	twoViews := lazyServer(t, c, false)
	twoViews.st.tags.acc.mainShare = 2
	twins := []twin{{"lazy", asFound}, {"lazy, made in another order", reordered},
		{"lazy, the organization's lists its own", ownLists}, {"lazy, two views", twoViews}}
	w.read(t)
	// The reordered twin makes its repos' tags first, newest repo first,
	// some by a list of one repo, some by a get.
	for k, repo := range slices.Backward(w.repos) {
		if k%3 == 0 {
			ask(reordered, "GET", "/registry/v2/tags?uidp.children_of="+url.QueryEscape(repo)+"&page_size=1", "")
		} else {
			ask(reordered, "GET", "/registry/v2/tags/"+repo+"/0000000000000000", "")
		}
	}
	if n := len(reordered.st.lazy.pending); n != 0 {
		t.Fatalf("%d repos left to make after every one was asked for", n)
	}
	steps := 600
	if raceDetector {
		steps = 300 // each costs ten times as much
	}
	allFrom := int(float64(steps) * c.allFrom)
	for step := range steps {
		if step == allFrom {
			left := len(asFound.st.lazy.pending)
			t.Logf("before the lists of every tag: %d of %d repos left to make", left, len(asFound.st.lazy.repos))
			if left == 0 {
				t.Errorf("every repo made before the lists of every tag: the requests never met a part made")
			}
		}
		// The lists that make every tag come last: before them, the lazy
		// servers hold a part of the tags.
		method, path, body := w.request(t, step > allFrom)
		want := ask(w.ref, method, path, body)
		w.learn(method, path, want)
		for _, tw := range twins {
			if got := ask(tw.srv, method, path, body); got != want {
				t.Fatalf("step %d, %s %s %s: %s answered\n%d %q %.600s\nthe seeded one\n%d %q %.600s", step, method, path, body,
					tw.name, got.code, got.retry, got.body, want.code, want.retry, want.body)
			}
		}
	}
	if n := len(asFound.st.lazy.pending); n != 0 {
		t.Errorf("%d repos left to make after lists of every tag", n)
	}
	// Every tag made: the organization and its teams' folder (views of
	// the global lists in some twins) in every order, with skips, deep
	// and near their ends, and hidden classes.
	for _, g := range []string{w.org, w.teams} {
		if g == "" {
			continue // no teams at the small size
		}
		for _, order := range []string{"uid", "name desc", "created_at", "update_time desc"} {
			for _, extra := range []string{"&skip=1000", "&skip=80000&include_referrers=true", "&include_epochs=true&include_dates=true"} {
				path := "/registry/v2/tags?uidp.descendants_of=" + url.QueryEscape(g) + "&order_by=" + url.QueryEscape(order) + "&page_size=200" + extra
				for range 3 {
					want := ask(w.ref, "GET", path, "")
					for _, tw := range twins {
						if got := ask(tw.srv, "GET", path, ""); got != want {
							t.Fatalf("%s: %s answered\n%d %.600s\nthe seeded one\n%d %.600s", path, tw.name, got.code, got.body, want.code, want.body)
						}
					}
					var page struct{ NextPageToken string }
					if json.Unmarshal([]byte(want.body), &page) != nil || page.NextPageToken == "" {
						break
					}
					path += "&page_token=" + url.QueryEscape(page.NextPageToken)
				}
			}
		}
	}
	if m := asFound.st.tags.mains; len(m) != 1 || m[0] != w.org || len(ownLists.st.tags.mains) != 0 {
		t.Errorf("main scopes %q and %q, want the organization's (%s) and none", m, ownLists.st.tags.mains, w.org)
	}
	if m := twoViews.st.tags.mains; w.teams != "" && (len(m) != 2 || m[0] != w.org || m[1] != w.teams) {
		t.Errorf("main scopes %q, want the organization's and its teams' (%s, %s)", m, w.org, w.teams)
	}
	for _, tw := range twins {
		if got, want := tw.srv.Progress().Tags, w.ref.Progress().Tags; got != want {
			t.Errorf("%s counts %d tags, the seeded one %d", tw.name, got, want)
		}
	}
}

// read learns the reference's groups, repos and some tag names.
func (w *lazyWorld) read(t *testing.T) {
	t.Helper()
	for _, g := range w.listAll(t, "/iam/v2/groups?uidp.descendants_of="+w.org, "groups") {
		w.groups = append(w.groups, g["uid"].(string))
		if g["name"] == "teams" {
			w.teams = g["uid"].(string)
		}
	}
	w.groups = append(w.groups, w.org)
	for _, org := range w.ref.st.orgs {
		for _, r := range w.listAll(t, "/registry/v2/repos?uidp.descendants_of="+org, "repos") {
			w.repos = append(w.repos, r["uid"].(string))
		}
	}
	seen := map[string]bool{}
	for _, r := range w.repos[:40] {
		for _, tg := range w.listAll(t, "/registry/v2/tags?include_referrers=true&include_epochs=true&include_dates=true&uidp.children_of="+r, "tags") {
			if n := tg["name"].(string); !seen[n] && (len(seen) < 12 || w.rng.IntN(40) == 0) {
				seen[n] = true
				w.names = append(w.names, n)
			}
		}
	}
	if len(w.repos) < 60 || len(w.names) < 20 {
		t.Fatalf("read %d repos and %d tag names of the reference", len(w.repos), len(w.names))
	}
}

// listAll pages a list of the reference to its end.
func (w *lazyWorld) listAll(t *testing.T, path, plural string) []map[string]any {
	t.Helper()
	var out []map[string]any
	token := ""
	for {
		a := ask(w.ref, "GET", path+"&page_size=200&page_token="+url.QueryEscape(token), "")
		var page map[string]any
		if err := json.Unmarshal([]byte(a.body), &page); err != nil || a.code != http.StatusOK {
			t.Fatalf("%s: %d %s", path, a.code, a.body)
		}
		items, _ := page[plural].([]any)
		for _, it := range items {
			out = append(out, it.(map[string]any))
		}
		token, _ = page["nextPageToken"].(string)
		if token == "" {
			return out
		}
	}
}

// request picks the next request; lists of every tag only when all.
func (w *lazyWorld) request(t *testing.T, all bool) (method, path, body string) {
	t.Helper()
	r := w.rng
	repo := w.repos[r.IntN(len(w.repos))]
	if len(w.created) > 0 && r.IntN(10) == 0 {
		repo = w.created[r.IntN(len(w.created))]
	}
	switch k := r.IntN(20); {
	case k < 9:
		return "GET", w.tagList(repo, all), ""
	case k < 11:
		return "GET", "/registry/v2/tags/" + w.tagOf(t, repo, "uid"), ""
	case k < 12:
		return "GET", "/registry/v2/tags/" + repo + "/" + fmt.Sprintf("%016x", r.Uint64()), ""
	case k < 13:
		return "GET", "/registry/v2/repos/" + repo + "/digests/" + w.tagOf(t, repo, "digest") + "/architectures", ""
	case k < 14:
		return "GET", "/registry/v2/repos/" + repo, ""
	case k < 16:
		// A new tag, or an existing one moved to another digest.
		name := w.names[r.IntN(len(w.names))]
		if r.IntN(2) == 0 {
			w.newTags++
			name = fmt.Sprintf("lazy-%d", w.newTags)
		}
		return "POST", "/registry/v2/tags/" + repo, fmt.Sprintf(`{"name":%q,"digest":"sha256:%064x"}`, name, r.Uint64())
	case k < 18:
		return "DELETE", "/registry/v2/tags/" + w.tagOf(t, repo, "uid"), ""
	case k < 19 && r.IntN(4) == 0:
		w.repos = slices.DeleteFunc(w.repos, func(u string) bool { return u == repo })
		return "DELETE", "/registry/v2/repos/" + repo, ""
	default:
		group := w.groups[r.IntN(len(w.groups))]
		return "POST", "/registry/v2/repos/" + group, fmt.Sprintf(`{"name":"lazy-repo-%d"}`, r.Uint32())
	}
}

// learn keeps the uid of a repo the reference created.
func (w *lazyWorld) learn(method, path string, a answer) {
	var made struct{ UID string }
	if method == "POST" && strings.HasPrefix(path, "/registry/v2/repos/") && json.Unmarshal([]byte(a.body), &made) == nil && made.UID != "" {
		w.created = append(w.created, made.UID)
	}
}

// tagList is a list of tags in some scope, order and filter; of every tag
// only when all.
func (w *lazyWorld) tagList(repo string, all bool) string {
	r := w.rng
	q := url.Values{}
	switch k := r.IntN(8); {
	case k < 3:
		q.Set("uidp.children_of", repo)
	case k < 4:
		q.Set("uidp.descendants_of", repo)
	case k < 5:
		q.Set("uidp.in_root", "true")
	case k < 7 || !all:
		// A folder: a fixed one of few repos, or a team's (seldom, until
		// all: each makes a twelfth of the tags); the org or the folder
		// of every team only when all.
		g := w.groups[r.IntN(len(w.groups))]
		for !all && (g == w.org || g == w.teams || api.ParentUID(g) == w.teams && r.IntN(8) > 0) {
			g = w.groups[r.IntN(len(w.groups))]
		}
		q.Set("uidp.descendants_of", g)
	case r.IntN(2) == 0:
		q.Set("uidp.descendants_of", w.org)
	}
	orders := []string{"", "name", "name desc", "uid desc", "created_at", "update_time desc"}
	if o := orders[r.IntN(len(orders))]; o != "" {
		q.Set("order_by", o)
	}
	if r.IntN(3) == 0 {
		q.Set("name", w.names[r.IntN(len(w.names))])
	}
	for _, inc := range []string{"include_referrers", "include_epochs", "include_dates"} {
		if r.IntN(3) == 0 {
			q.Set(inc, "true")
		}
	}
	q.Set("page_size", fmt.Sprint(1+r.IntN(200)))
	if r.IntN(5) == 0 {
		q.Set("skip", fmt.Sprint(r.IntN(300)))
	}
	path := "/registry/v2/tags?" + q.Encode()
	if r.IntN(3) == 0 {
		// A later page: the token the reference gives, which the twins
		// must take as theirs.
		var page struct{ NextPageToken string }
		_ = json.Unmarshal([]byte(ask(w.ref, "GET", path, "").body), &page)
		if page.NextPageToken != "" {
			path += "&page_token=" + url.QueryEscape(page.NextPageToken)
		}
	}
	return path
}

// tagOf is a field (uid, digest) of a tag of repo, as the reference has
// it, read from the reference alone; a made-up uid when the repo has none.
func (w *lazyWorld) tagOf(t *testing.T, repo, field string) string {
	t.Helper()
	a := ask(w.ref, "GET", "/registry/v2/tags?include_referrers=true&include_epochs=true&page_size=200&uidp.children_of="+url.QueryEscape(repo), "")
	var page struct{ Tags []map[string]any }
	if err := json.Unmarshal([]byte(a.body), &page); err != nil {
		t.Fatalf("tags of %s: %d %s", repo, a.code, a.body)
	}
	if len(page.Tags) == 0 {
		return repo + "/00000000000000ff"
	}
	return page.Tags[w.rng.IntN(len(page.Tags))][field].(string)
}
