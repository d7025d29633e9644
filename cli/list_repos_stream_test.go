//go:build linux

package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

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
