package ui

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// A refresh (r) the server fails keeps the rows shown, said to be from
// before, with the error; r again, once the server is back, loads them anew.
func TestAFailedRefreshKeepsTheRows(t *testing.T) {
	t.Parallel()
	var down atomic.Bool
	h := startBehind(t, func(w http.ResponseWriter, r *http.Request, emu http.Handler) {
		if down.Load() && r.URL.Path == "/registry/v2/repos" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"code":14,"message":"Unavailable: try again"}`))
			return
		}
		emu.ServeHTTP(w, r)
	}, api.RetryPolicy{MaxAttempts: 1}, 150, 40)
	h.waitText("platform")
	h.keys(":")
	h.typeText("repos")
	h.keys("enter")
	h.waitText("alertmanager", "63/63 loaded")
	down.Store(true)
	h.keys("r")
	s := h.waitText("refresh failed, the rows shown are from before", "Unavailable")
	if !strings.Contains(s, "alertmanager") || !strings.Contains(s, "argocd") {
		t.Fatalf("the rows went with the failed refresh:\n%s", s)
	}
	down.Store(false)
	h.keys("r")
	h.waitFor("the rows loaded anew", func(s string) bool {
		return !strings.Contains(s, "from before") && strings.Contains(s, "alertmanager") && strings.Contains(s, "63/63 loaded")
	})
}

// A notice given (a token passed over because it expired) is said on the
// status line as the screen opens.
func TestANoticeIsSaidAsTheScreenOpens(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	o := Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)", Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }, Notice: "CANOPY_TOKEN holds a token that expired 3 h ago; using the token from chainctl"}
	h := startWith(t, srv, o, 160, 30)
	h.waitText("platform", "CANOPY_TOKEN holds a token that expired 3 h ago; using the token from chainctl")
}
