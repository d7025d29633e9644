//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/cli/exit"
)

// TestListFilterPrintsMatchesAsTheirPagesArrive: the server holds every
// page after the first until the first match has reached stdout (or the
// test's patience runs out: a filter that waits for the last page never
// prints it before); then the listing goes on, and prints each match
// once, in the list's order, in a table and in JSON.
func TestListFilterPrintsMatchesAsTheirPagesArrive(t *testing.T) {
	t.Parallel()
	for _, o := range []string{"table", "json"} {
		t.Run(o, func(t *testing.T) {
			t.Parallel()
			out := &matchWatcher{match: "repo-42", seen: make(chan struct{})}
			var held atomic.Bool
			url, _ := endlessServer(t, "", 100, func(r *http.Request, n int) {
				if n < 2 {
					return
				}
				select {
				case <-out.seen:
				case <-time.After(patience):
					held.Store(true)
				case <-r.Context().Done():
				}
			})
			getenv := env(t, map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "t", "CANOPY_ORG": endlessOrg})
			var errs bytes.Buffer
			code := runList(quick(t.Context()), []string{"repos", "--filter", "repo-42", "-o", o, "--max-items", "300"}, getenv, out, &errs)
			if held.Load() {
				t.Fatalf("the first match was not printed before the last page was read; printed %q", out.String())
			}
			names := matchedNames(t, o, out.String())
			if code != exit.Failure || strings.Join(names, " ") != "repo-42 repo-142 repo-242" {
				t.Errorf("exit %d, printed %q (stderr %q)", code, names, errs.String())
			}
		})
	}
}

// matchedNames are the repos' names a listing printed, in its order.
func matchedNames(t *testing.T, o, out string) []string {
	t.Helper()
	var names []string
	if o == "json" {
		var repos []api.Repo
		if err := json.Unmarshal([]byte(out), &repos); err != nil {
			t.Fatalf("%v: %q", err, out)
		}
		for _, r := range repos {
			names = append(names, r.Name)
		}
		return names
	}
	for _, row := range rowsOf(out) {
		names = append(names, strings.Fields(row)[0])
	}
	return names
}

// matchWatcher is stdout: it closes seen once what was written holds
// match.
type matchWatcher struct {
	match string
	seen  chan struct{}
	once  sync.Once
	buf   lockedBuffer
}

func (w *matchWatcher) Write(p []byte) (int, error) {
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.match) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

func (w *matchWatcher) String() string { return w.buf.String() }
