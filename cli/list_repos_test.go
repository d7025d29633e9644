package cli

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"canopy/api"
	"canopy/cli/exit"
)

// reposServed serves one emulator twice: as it is, recording the query of
// every repos request, and as a server that ignores uidp.ids (it drops
// the filter from every request).
func reposServed(t *testing.T) (honours, ignores func(string) string, repoQueries func() []url.Values) {
	t.Helper()
	srv := seededEmulator(t)
	var mu sync.Mutex
	var queries []url.Values
	recording := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/registry/v2/repos" {
			mu.Lock()
			queries = append(queries, r.URL.Query())
			mu.Unlock()
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(recording.Close)
	ignoringIDs := ignoring(t, srv, "uidp.ids")
	vars := map[string]string{"CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"}
	with := func(url string) func(string) string {
		vars := maps.Clone(vars)
		vars["CANOPY_API_URL"] = url
		return env(t, vars)
	}
	return with(recording.URL), with(ignoringIDs.URL), func() []url.Values {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(queries)
	}
}

// TestListTagsAsksOnlyForThePagesRepos: the REPO column of tags is looked
// up by the uids a page names (uidp.ids), each repo once, never by
// listing every repo, in requests whose uids stay under the URL budget;
// and what is printed is what a server that ignores the filter gets (every
// repo read once, as before): the same table, the same matches, the same
// JSON, with pages of 200 tags and of 7.
func TestListTagsAsksOnlyForThePagesRepos(t *testing.T) {
	t.Parallel()
	honours, ignores, repoQueries := reposServed(t)
	for _, args := range [][]string{
		{"tags"}, {"tags", "--page-size", "7"}, {"tags", "--filter", "redis"}, {"tags", "-o", "json", "--filter", "redis"},
		{"tags", "--deprecated"}, {"tags", "--filter", "!latest", "--rank"},
	} {
		want, werrs, wcode := list(t, ignores, args...)
		got, errs, code := list(t, honours, args...)
		if code != exit.OK || wcode != exit.OK || len(got) != len(want) || errs != werrs {
			t.Errorf("%v: exit %d, %d bytes, stderr %q; a server ignoring uidp.ids: exit %d, %d bytes, stderr %q",
				args, code, len(got), errs, wcode, len(want), werrs)
		}
		if len(strings.TrimSpace(got)) == 0 {
			t.Fatalf("%v printed nothing", args)
		}
		// A table's ages are the time of each listing's: the rest is the same.
		titles := []string{"TAG", "REPO", "DIGEST"}
		if slices.Contains(args, "json") {
			titles = nil
			if got != want {
				t.Errorf("%v: not the JSON of a server ignoring uidp.ids", args)
			}
		}
		for _, title := range titles {
			if g, w := column(t, got, title), column(t, want, title); !slices.Equal(g, w) {
				t.Errorf("%v: %s %q, a server ignoring uidp.ids %q", args, title, g, w)
			}
		}
	}
	asked := map[string]int{}
	for _, q := range repoQueries() {
		ids := q["uidp.ids"]
		if len(ids) == 0 {
			t.Fatalf("the repos were listed whole: %v", q)
		}
		if n := len(url.Values{"uidp.ids": ids}.Encode()); n > repoLookupQueryMax {
			t.Errorf("a lookup of %d uids sent %d bytes of them", len(ids), n)
		}
		for _, id := range ids {
			asked[id]++
		}
	}
	// Each listing above asked afresh; a repo more than once in one would
	// show as more asks than listings.
	for id, n := range asked {
		if n > 6 {
			t.Errorf("repo %s asked for %d times in 6 listings", id, n)
		}
	}
	if len(asked) == 0 {
		t.Error("no repo was looked up")
	}
}

// TestListTagsRepoTheAnswerLacks: a repo the lookup does not answer for
// (deleted meanwhile), or answered by another repo (a server that does not
// honour the filter), shows as a repo canopy does not know, by a short
// uid, as it always has, never by another repo's name.
func TestListTagsRepoTheAnswerLacks(t *testing.T) {
	t.Parallel()
	org := strings.Repeat("a", 40)
	for name, repos := range map[string]string{
		"none":    `{"repos":[]}`,
		"another": `{"repos":[{"uid":"` + org + `/0123456789abcdef/1111111111111111","name":"wrong"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mux := http.NewServeMux()
			mux.HandleFunc("GET /iam/v2/groups/{uid}", func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte(`{"uid":"` + r.PathValue("uid") + `","name":"org"}`))
			})
			mux.HandleFunc("GET /registry/v2/repos", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(repos)) })
			mux.HandleFunc("GET /registry/v2/tags", func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte(`{"tags":[{"uid":"` + org + `/0123456789abcdef/fedcba9876543210/0000000000000001","name":"latest","digest":"sha256:00"}]}`))
			})
			hs := httptest.NewServer(mux)
			t.Cleanup(hs.Close)
			getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "t", "CANOPY_ORG": org})
			out, errs, code := list(t, getenv, "tags")
			if got := column(t, out, "REPO"); code != exit.OK || !slices.Equal(got, []string{"fedcba98"}) {
				t.Errorf("exit %d, REPO %q, stderr %q", code, got, errs)
			}
		})
	}
}

// TestListTagsLookupBatches: the uids of one page are asked in requests
// of at most a page of repos and repoLookupQueryMax bytes of uids, every
// uid once, whatever the page names.
func TestListTagsLookupBatches(t *testing.T) {
	t.Parallel()
	org := strings.Repeat("b", 40)
	var tags []api.Tag
	for i := range 200 {
		tags = append(tags, api.Tag{UID: org + "/0123456789abcdef/" + hex16(i) + "/0000000000000001", Name: "latest"})
	}
	var mu sync.Mutex
	asked := map[string]int{}
	var sizes []int
	mux := http.NewServeMux()
	mux.HandleFunc("GET /registry/v2/repos", func(w http.ResponseWriter, r *http.Request) {
		ids := r.URL.Query()["uidp.ids"]
		mu.Lock()
		sizes = append(sizes, len(url.Values{"uidp.ids": ids}.Encode()))
		var repos []string
		for _, id := range ids {
			asked[id]++
			repos = append(repos, `{"uid":"`+id+`","name":"repo-`+id[len(id)-4:]+`"}`)
		}
		mu.Unlock()
		w.Write([]byte(`{"repos":[` + strings.Join(repos, ",") + `]}`))
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken("t", "test"), PageSize: api.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	r := listRequest{client: client, org: &api.Group{UID: org}, orgChecked: func(context.Context) error { return nil }}
	l, stop := r.lookRepos(t.Context())
	defer stop()
	for rest := tags; len(rest) > 0; {
		n, err := l.ready(t.Context(), rest)
		if err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
	}
	for i := range tags {
		if got, want := l.names[api.ParentUID(tags[i].UID)], "repo-"+hex16(i)[12:]; got != want {
			t.Fatalf("tag %d: repo %q, want %q", i, got, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 200 || len(sizes) < 2 {
		t.Errorf("%d repos asked in %d requests", len(asked), len(sizes))
	}
	for id, n := range asked {
		if n != 1 {
			t.Errorf("%s asked %d times", id, n)
		}
	}
	for _, n := range sizes {
		if n > repoLookupQueryMax {
			t.Errorf("a request sent %d bytes of uids", n)
		}
	}
}

// hex16 is i as a uid's segment: 16 hex digits.
func hex16(i int) string { return fmt.Sprintf("%016x", i) }
