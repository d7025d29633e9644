//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/cli/exit"
)

// TestListTagsFilterPrintsBeforeEveryRepoIsNamed: with pages of 7, the
// server holds every second page, of tags and of repos, until the first
// match has reached stdout (or the test's patience runs out): the first
// page's matches, REPO column searched, are printed once that page's own
// repos are named, not once every repo of the organization is (which
// takes nine pages of 7). Then the listing goes on and prints what a
// listing never held prints.
func TestListTagsFilterPrintsBeforeEveryRepoIsNamed(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	want, _, code := list(t, getenv, "tags", "--page-size", "7", "--filter", "a")
	if code != exit.OK || len(rowsOf(want)) < 2 {
		t.Fatalf("unheld: exit %d, %q", code, want)
	}
	first := rowsOf(want)[0]
	for _, o := range []string{"table", "json"} {
		t.Run(o, func(t *testing.T) {
			t.Parallel()
			srv := seededEmulator(t)
			out := &matchWatcher{match: first, seen: make(chan struct{})}
			if o == "json" {
				out.match = `"uid"`
			}
			var held atomic.Bool
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("page_token") != "" {
					select {
					case <-out.seen:
					case <-time.After(patience):
						held.Store(true)
					case <-r.Context().Done():
					}
				}
				srv.ServeHTTP(w, r)
			}))
			t.Cleanup(hs.Close)
			getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
			var errs bytes.Buffer
			code := runList(quick(t.Context()), []string{"tags", "--page-size", "7", "--filter", "a", "-o", o}, getenv, out, &errs)
			if held.Load() {
				t.Fatalf("the first match waited for a second page; printed %q", out.String())
			}
			if code != exit.OK {
				t.Fatalf("exit %d (stderr %q)", code, errs.String())
			}
			// The rows of a listing never held (their ages aside: the two
			// listings ran at different times).
			for _, title := range []string{"TAG", "REPO"} {
				if o == "table" && !slices.Equal(column(t, out.String(), title), column(t, want, title)) {
					t.Errorf("%s: %q, want %q", title, column(t, out.String(), title), column(t, want, title))
				}
			}
		})
	}
}

// TestListTagsPrintsAPagesFirstTagsBeforeItsLastReposAreNamed: a page of
// tags, one in each of the organization's 63 repos, names them in two
// lookups; the server holds every lookup but the one of the first tag's
// repo (the first match, by its REPO column) until that match has reached
// stdout (or the test's patience runs out): the first tags of a page are
// printed once their own repos are named, not once the whole page's are.
// Then the listing goes on and prints what a listing never held prints.
func TestListTagsPrintsAPagesFirstTagsBeforeItsLastReposAreNamed(t *testing.T) {
	t.Parallel()
	srv := seededEmulator(t)
	seeded := httptest.NewServer(srv)
	t.Cleanup(seeded.Close)
	client, err := api.New(api.Options{BaseURL: seeded.URL, TokenSource: api.StaticToken("list-token", "test"), PageSize: api.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	repos, err := client.ListRepos(t.Context(), api.ListOptions{DescendantsOf: srv.OrgUID(), PageSize: api.MaxPageSize})
	if err != nil || len(repos.Items) < 2 || repos.NextPageToken != "" {
		t.Fatalf("the organization's repos: %v", err)
	}
	var tags []api.Tag
	for i, repo := range repos.Items {
		tags = append(tags, api.Tag{UID: repo.UID + "/" + hex16(i), Name: "v1", Digest: "sha256:" + strings.Repeat("0", 64)})
	}
	page, err := json.Marshal(map[string]any{"tags": tags})
	if err != nil {
		t.Fatal(err)
	}
	first := repos.Items[0]
	serve := func(hold func(*http.Request)) string {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/registry/v2/tags" {
				w.Write(page)
				return
			}
			hold(r)
			srv.ServeHTTP(w, r)
		}))
		t.Cleanup(hs.Close)
		return hs.URL
	}
	args := func(o string) []string { return []string{"tags", "--filter", first.Name, "-o", o} }
	for _, o := range []string{"table", "json"} {
		t.Run(o, func(t *testing.T) {
			t.Parallel()
			getenv := env(t, map[string]string{"CANOPY_API_URL": serve(func(*http.Request) {}), "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
			out := &matchWatcher{match: first.Name, seen: make(chan struct{})}
			if o == "json" {
				out.match = tags[0].UID
			}
			want, _, code := list(t, getenv, args(o)...)
			if code != exit.OK || !strings.Contains(want, out.match) {
				t.Fatalf("unheld: exit %d, %q", code, want)
			}
			var held, waited atomic.Bool
			url := serve(func(r *http.Request) {
				if r.URL.Path != "/registry/v2/repos" || slices.Contains(r.URL.Query()["uidp.ids"], first.UID) {
					return
				}
				held.Store(true)
				select {
				case <-out.seen:
				case <-time.After(patience):
					waited.Store(true)
				case <-r.Context().Done():
				}
			})
			getenv = env(t, map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
			var errs bytes.Buffer
			code = runList(quick(t.Context()), args(o), getenv, out, &errs)
			switch {
			case !held.Load():
				t.Fatalf("the page's repos were asked in one lookup: nothing to hold")
			case waited.Load():
				t.Fatalf("the first match waited for the page's other repos; printed %q", out.String())
			case code != exit.OK:
				t.Fatalf("exit %d (stderr %q)", code, errs.String())
			}
			// JSON as unheld; a table's rows the same (held, its first row
			// was printed alone, columns as wide as it needed).
			if o == "json" && out.String() != want {
				t.Errorf("held, the listing printed %q, unheld %q", out.String(), want)
			}
			if o == "table" && !slices.Equal(column(t, out.String(), "REPO"), column(t, want, "REPO")) {
				t.Errorf("REPO: %q, want %q", column(t, out.String(), "REPO"), column(t, want, "REPO"))
			}
		})
	}
}
