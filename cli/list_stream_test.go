package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api"
	"canopy/cli/exit"
)

// TestListFetchesWhilePrinting: the next page is asked for while a page is
// being printed. Stdout takes nothing until the server has been asked for
// the second page (or the test's patience runs out: a walk that does not
// fetch ahead never asks); the listing is then whole.
func TestListFetchesWhilePrinting(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{})
	var once sync.Once
	url, _ := endlessServer(t, "", 100, func(r *http.Request, n int) {
		if n == 2 {
			once.Do(func() { close(asked) })
		}
	})
	getenv := env(t, map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "t", "CANOPY_ORG": endlessOrg})
	out := &gatedWriter{gate: asked, wait: patience}
	var errs bytes.Buffer
	code := runList(quick(t.Context()), []string{"repos", "-o", "json", "--max-items", "300"}, getenv, out, &errs)
	if out.waited {
		t.Errorf("the second page was not asked for while the first was printed")
	}
	var repos []api.Repo
	if err := json.Unmarshal(out.buf.Bytes(), &repos); err != nil || len(repos) != 300 || code != exit.Failure {
		t.Errorf("exit %d, %v, %d repos; stderr %q", code, err, len(repos), errs.String())
	}
}

// gatedWriter holds its first write until gate closes, or wait passes
// (then waited is set).
type gatedWriter struct {
	gate   <-chan struct{}
	wait   time.Duration
	waited bool
	opened bool
	buf    bytes.Buffer
}

func (w *gatedWriter) Write(p []byte) (int, error) {
	if !w.opened {
		w.opened = true
		select {
		case <-w.gate:
		case <-time.After(w.wait):
			w.waited = true
		}
	}
	return w.buf.Write(p)
}

// TestListWriteFailureEndsTheWalk: stdout refusing a write (a closed pipe)
// ends the listing with the error, and the page being fetched with it.
func TestListWriteFailureEndsTheWalk(t *testing.T) {
	t.Parallel()
	url, pages := endlessServer(t, "", 100, nil)
	getenv := env(t, map[string]string{"CANOPY_API_URL": url, "CANOPY_TOKEN": "t", "CANOPY_ORG": endlessOrg})
	var errs bytes.Buffer
	ctx, cancel := context.WithTimeout(quick(t.Context()), patience)
	defer cancel()
	code := runList(ctx, []string{"repos", "-o", "json"}, getenv, failingWriter{}, &errs)
	if code != exit.Failure || !strings.Contains(errs.String(), "broken pipe") || ctx.Err() != nil {
		t.Errorf("exit %d, stderr %q, context %v", code, errs.String(), ctx.Err())
	}
	// The first page was printed (and failed); the walk may have read one
	// page ahead and begun the next, no more.
	if n := pages.Load(); n > 3 {
		t.Errorf("%d pages asked for after the first write failed", n)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) {
	return 0, errors.New("write /dev/stdout: broken pipe")
}
