//go:build linux

package e2e

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// endlessOrg is the organization the endless server serves.
var endlessOrg = strings.Repeat("e", 40)

// endlessServer serves repos whose pages never end and give no total:
// every page brings 200 repos never sent before and a next page token.
// (The list command's own tests have one with totals and hooks.)
func endlessServer(t testing.TB) string {
	t.Helper()
	const perPage = 200
	var pages atomic.Int64
	uidPrefix := `{"uid":"` + endlessOrg + `/`
	mux := http.NewServeMux()
	mux.HandleFunc("GET /iam/v2/groups/{uid}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"uid":"` + r.PathValue("uid") + `","name":"endless"}`))
	})
	mux.HandleFunc("GET /registry/v2/repos", func(w http.ResponseWriter, r *http.Request) {
		n := pages.Add(1)
		// Appended, not fmt.Fprintf'd: 5,000 pages of this in a -race
		// test binary were seconds of CPU the canopy under test waited for.
		b := make([]byte, 0, perPage*100)
		b = append(b, `{"repos":[`...)
		for i := range int64(perPage) {
			if i > 0 {
				b = append(b, ',')
			}
			id := (n-1)*perPage + i
			b = append(b, uidPrefix...)
			hex := strconv.AppendInt(nil, id, 16)
			for range 16 - len(hex) {
				b = append(b, '0')
			}
			b = append(b, hex...)
			b = append(b, `","name":"repo-`...)
			b = strconv.AppendInt(b, id, 10)
			b = append(b, `"}`...)
		}
		b = append(b, `],"nextPageToken":"page-`...)
		b = strconv.AppendInt(b, n+1, 10)
		b = append(b, `"}`...)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestListEndlessServerMemory runs the real binary against a server whose
// pages never end, with no total, at the default ceiling: it stops after
// 1,000,000 repos with exit status 1, printing every one as it goes, in
// bounded memory (the rows are not kept; what is kept is the uids seen, to
// drop repeats).
func TestListEndlessServerMemory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("reads a million items from a local server; skipped with -short")
	}
	bin := canopyBinary(t)
	url := endlessServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), longPatience)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "list", "repos", "-o", "json")
	cmd.Env = []string{"CANOPY_API_URL=" + url, "CANOPY_TOKEN=t", "CANOPY_ORG=" + endlessOrg, "HOME=" + t.TempDir()}
	var items countingWriter
	var errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &items, &errs
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	var ee *exec.ExitError
	if ctx.Err() != nil || !errors.As(err, &ee) || ee.ExitCode() != exitFailure {
		t.Fatalf("after %v: %v; stderr %q", took, err, errs.String())
	}
	if want := "stopped after 1000000 repos, the most canopy list reads"; !strings.Contains(errs.String(), want) {
		t.Errorf("stderr %q, want %q", errs.String(), want)
	}
	if items.n != 1_000_000 {
		t.Errorf("%d repos printed, want 1,000,000", items.n)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	t.Logf("1,000,000 items (%d MB of JSON) in %v, max RSS %d MB", items.bytes>>20, took.Round(time.Millisecond), rss>>20)
	// About 140 MB alone; once 412 MB in a loaded full -race run (the
	// garbage collector behind). Keeping the rows, as before, is about
	// 1 KB an item: over 900 MB here, and growing with the server.
	if rss > 640<<20 {
		t.Errorf("max RSS %d MB for a listing that keeps no rows", rss>>20)
	}
}

// countingWriter counts the elements of a JSON array printed as canopy
// list prints them, each starting a line with "  {", keeping nothing else.
type countingWriter struct {
	n, bytes int
	tail     []byte // the last bytes of the previous write, for a mark cut in two
}

func (c *countingWriter) Write(p []byte) (int, error) {
	const mark = "\n  {"
	data := append(c.tail, p...)
	c.n += bytes.Count(data, []byte(mark))
	c.tail = append([]byte(nil), data[max(0, len(data)-len(mark)+1):]...)
	c.bytes += len(p)
	return len(p), nil
}
