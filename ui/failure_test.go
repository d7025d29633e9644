package ui

import (
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
)

// TestPageFailingAfterRetriesShowsARetryRow: a page the server keeps
// refusing (503 on every attempt of the client's retry policy) becomes an
// inline "failed … (r to retry)" row, the rest of the table stays usable,
// and r loads it once the server answers again.
func TestPageFailingAfterRetriesShowsARetryRow(t *testing.T) {
	t.Parallel()
	var failing atomic.Bool
	var refused atomic.Int32
	h := startBehind(t, func(w http.ResponseWriter, r *http.Request, emu http.Handler) {
		q := r.URL.Query()
		if failing.Load() && (q.Has("skip") || q.Has("page_token")) {
			refused.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"code":14,"message":"the service is unavailable"}`))
			return
		}
		emu.ServeHTTP(w, r)
	}, api.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}, 120, 30)
	h.waitText("platform")
	h.keys(":", "t", "a", "g", "s", "enter")
	h.waitFor("a first page of tags", func(s string) bool { return regexp.MustCompile(`200/[\d,]+ loaded`).MatchString(s) })
	failing.Store(true)
	h.keys("G")
	s := h.waitText("failed: ", "(r to retry)")
	if n := refused.Load(); n < 3 {
		t.Errorf("the page failed after %d requests; the retry policy allows 3", n)
	}
	if !strings.Contains(s, "tags of acme.example") {
		t.Fatalf("the table is gone:\n%s", s)
	}
	// Keys still work on the loaded rows.
	h.keys("g")
	h.waitFor("the first row", func(s string) bool { return regexp.MustCompile(`\b1 of [\d,]+`).MatchString(s) })
	h.keys("G")
	h.waitText("(r to retry)")
	failing.Store(false)
	h.keys("r")
	h.waitFor("the last page loaded", func(s string) bool { return lastRow(s) && !strings.Contains(s, "r to retry") })
}

// A bind the server refused (503: nothing was made) is offered again on
// the results: r sends it again, and it is bound.
func TestRefusedBindIsRetriedWithR(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	h := startBehind(t, func(w http.ResponseWriter, r *http.Request, emu http.Handler) {
		if r.Method == http.MethodPost && strings.Contains(r.URL.Path, "roleBindings") && posts.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"code":14,"message":"the service is unavailable"}`))
			return
		}
		emu.ServeHTTP(w, r)
	}, api.RetryPolicy{MaxAttempts: 1}, 140, 40)
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.waitText("carol")
	h.moveTo("carol")
	h.keys("b")
	h.waitText("Which role for carol?", "1 viewer")
	h.keys("1")
	h.waitText("Bind viewer to carol on which folder?")
	h.typeText("platform")
	h.waitFor("platform first", func(s string) bool { return strings.Contains(s, "platform") })
	h.keys("enter")
	h.waitText("Bind viewer to carol on platform?")
	h.keys("enter")
	h.waitText("1 failed", "r retry failed")
	h.keys("r")
	h.waitText("bound viewer → carol on platform")
	if n := posts.Load(); n != 2 {
		t.Errorf("%d requests to bind, want 2", n)
	}
}
