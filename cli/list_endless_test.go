//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"canopy/cli/exit"
)

// endlessOrg is the organization the endless server serves.
var endlessOrg = strings.Repeat("e", 40)

// endlessServer serves repos whose pages never end: every page brings
// perPage repos never sent before and a next page token, with totalCount
// total ("" for none). before, when set, runs before page n (from 1) is
// answered.
func endlessServer(t testing.TB, total string, perPage int, before func(r *http.Request, n int)) (url string, pages *atomic.Int64) {
	t.Helper()
	pages = &atomic.Int64{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /iam/v2/groups/{uid}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"uid":"` + r.PathValue("uid") + `","name":"endless"}`))
	})
	mux.HandleFunc("GET /iam/v2/groups", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) })
	mux.HandleFunc("GET /registry/v2/repos", func(w http.ResponseWriter, r *http.Request) {
		n := int(pages.Add(1))
		if before != nil {
			before(r, n)
		}
		var b bytes.Buffer
		b.WriteString(`{"repos":[`)
		for i := range perPage {
			if i > 0 {
				b.WriteByte(',')
			}
			id := (n-1)*perPage + i
			fmt.Fprintf(&b, `{"uid":"%s/%016x","name":"repo-%d"}`, endlessOrg, id, id)
		}
		fmt.Fprintf(&b, `],"nextPageToken":"page-%d"`, n+1)
		if total != "" {
			fmt.Fprintf(&b, `,"totalCount":"%s"`, total)
		}
		b.WriteByte('}')
		w.Header().Set("Content-Type", "application/json")
		w.Write(b.Bytes())
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	return hs.URL, pages
}

// listWithin runs canopy list under ctx and fails the test if it is still
// running after the test's patience: a walk that never ends is the bug (a
// slow machine's walk ends late).
func listWithin(t *testing.T, ctx context.Context, getenv func(string) string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(quick(ctx), patience)
	defer cancel()
	var out lockedBuffer
	var errs bytes.Buffer
	code := runList(ctx, args, getenv, &out, &errs)
	if ctx.Err() == context.DeadlineExceeded {
		t.Fatalf("canopy list %v still running after %v (%d bytes printed); stderr %q", args, patience, len(out.String()), errs.String())
	}
	return out.String(), errs.String(), code
}

func rowsOf(table string) []string {
	return strings.Split(strings.TrimSuffix(table, "\n"), "\n")[1:]
}

// TestListStopsPastTheTotal: a server that says it has 1,000 repos and
// sends new ones on every page is stopped once the items pass its total by
// a tenth and a page (1,300 read at 100 a page); what was read is printed,
// as a table and as a valid JSON array, and the exit status is 1.
func TestListStopsPastTheTotal(t *testing.T) {
	t.Parallel()
	url, pages := endlessServer(t, "1000", 100, nil)
	getenv := env(t, map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "t", "CANOPY_ORG": endlessOrg})
	out, errs, code := listWithin(t, t.Context(), getenv, "repos")
	want := "the server kept sending repos past its own total of 1000: stopped after 1300"
	if code != exit.Failure || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errs, want)
	}
	if rows := rowsOf(out); len(rows) != 1300 || !strings.HasPrefix(rows[1299], "repo-1299 ") {
		t.Errorf("%d rows printed, want the 1,300 read; last %q", len(rows), rows[len(rows)-1])
	}
	if n := pages.Load(); n != 13 {
		t.Errorf("%d pages asked for, want 13", n)
	}

	out, errs, code = listWithin(t, t.Context(), getenv, "repos", "-o", "json")
	var repos []map[string]any
	if err := json.Unmarshal([]byte(out), &repos); err != nil || len(repos) != 1300 || code != exit.Failure || !strings.Contains(errs, want) {
		t.Errorf("json: %v, %d repos, exit %d, stderr %q", err, len(repos), code, errs)
	}
}

// TestListStopsAtTheCeiling: a server with no total (or one far above
// what canopy list reads) is stopped at --max-items, said on stderr with
// how to go further; the items read are printed.
func TestListStopsAtTheCeiling(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ total, want string }{
		{"", "stopped after 2500 repos, the most canopy list reads of a collection (--max-items raises it)"},
		{"1000000000", "stopped after 2500 repos of the 1000000000 it counts, the most canopy list reads"},
	} {
		url, _ := endlessServer(t, tc.total, 200, nil)
		getenv := env(t, map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "t", "CANOPY_ORG": endlessOrg})
		out, errs, code := listWithin(t, t.Context(), getenv, "repos", "--max-items", "2500")
		if code != exit.Failure || !strings.Contains(errs, tc.want) {
			t.Errorf("total %q: exit %d, stderr %q; want 1 and %q", tc.total, code, errs, tc.want)
		}
		if rows := rowsOf(out); len(rows) != 2500 {
			t.Errorf("total %q: %d rows printed, want 2,500", tc.total, len(rows))
		}
	}
	if _, errs, code := list(t, env(t, nil), "repos", "--max-items", "0"); code != exit.Usage || !strings.Contains(errs, "--max-items 0: want 1 or more") {
		t.Errorf("--max-items 0: exit %d %q", code, errs)
	}
}

// TestListPrintsAsPagesArrive: the rows are printed while the walk goes
// on, not at its end: the server holds back its 15th page until stdout
// shows the first thousand rows (or the test's patience runs out: a walk
// that prints at its end never shows them), then ends the list.
func TestListPrintsAsPagesArrive(t *testing.T) {
	t.Parallel()
	var out lockedBuffer
	streamed := make(chan bool, 1)
	url, _ := endlessServer(t, "", 100, func(r *http.Request, n int) {
		if n != 15 {
			return
		}
		deadline := time.Now().Add(patience)
		for strings.Count(out.String(), "\n") < 1000 && time.Now().Before(deadline) {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
		streamed <- strings.Count(out.String(), "\n") >= 1000
	})
	getenv := env(t, map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "t", "CANOPY_ORG": endlessOrg})
	var errs bytes.Buffer
	code := runList(quick(t.Context()), []string{"repos", "--max-items", "1500"}, getenv, &out, &errs)
	if code != exit.Failure || len(rowsOf(out.String())) != 1500 {
		t.Fatalf("exit %d, %d rows; stderr %q", code, len(rowsOf(out.String())), errs.String())
	}
	if !<-streamed {
		t.Errorf("nothing was printed before the walk ended")
	}
	// The table is printed in chunks of 1,000 rows, each lined up: the
	// first chunk sets the widths, the next widens the NAME column for
	// repo-1000 and on.
	rows := strings.Split(out.String(), "\n")
	folder := func(i int) int { return strings.Index(rows[i], "endless") }
	if head := strings.Index(rows[0], "FOLDER"); folder(1) != head || folder(1000) != head || folder(1001) <= head || folder(1500) != folder(1001) {
		t.Errorf("the FOLDER column is not lined up in each chunk:\n%s\n%s\n%s\n%s\n%s", rows[0], rows[1], rows[1000], rows[1001], rows[1500])
	}
}

// TestListInterruptedPrintsWhatItRead: a signal in the middle of a walk
// ends it at once with the signal's exit status and a line that says so,
// and the rows read until then are printed.
func TestListInterruptedPrintsWhatItRead(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"table", "json"} {
		ctx, cancel := context.WithCancelCause(t.Context())
		defer cancel(nil)
		url, _ := endlessServer(t, "", 100, func(r *http.Request, n int) {
			if n == 6 {
				cancel(exit.Interruption{Signal: syscall.SIGINT})
				<-r.Context().Done()
			}
		})
		getenv := env(t, map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "t", "CANOPY_ORG": endlessOrg})
		out, errs, code := listWithin(t, ctx, getenv, "repos", "-o", format)
		if code != 130 || !strings.Contains(errs, "canopy list: interrupted by SIGINT while listing repos") {
			t.Errorf("%s: exit %d, stderr %q", format, code, errs)
		}
		n := len(rowsOf(out))
		if format == "json" {
			var repos []map[string]any
			if err := json.Unmarshal([]byte(out), &repos); err != nil {
				t.Errorf("json: %v:\n%s", err, out[max(0, len(out)-200):])
			}
			n = len(repos)
		}
		if n != 500 {
			t.Errorf("%s: %d items printed, want the 500 read", format, n)
		}
	}
}
