package ui

import (
	"net/http"
	"regexp"
	"sync"
	"testing"

	"canopy/api"
)

// G on a server that ignores skip (it answers a jump from the top): the
// table notices once and walks to the end by page token; no request is
// sent twice, and the screen never spins on "loading".
func TestGOnAServerThatIgnoresSkipWalksOnce(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	asked := map[string]int{}
	h := startBehind(t, func(w http.ResponseWriter, r *http.Request, emu http.Handler) {
		if r.URL.Path == "/registry/v2/tags" {
			mu.Lock()
			asked[r.URL.RawQuery]++ // as the client sent it
			mu.Unlock()
		}
		q := r.URL.Query()
		if q.Has("skip") {
			q.Del("skip") // ignored: the server answers from where it would without it
			r.URL.RawQuery = q.Encode()
		}
		emu.ServeHTTP(w, r)
	}, api.RetryPolicy{MaxAttempts: 1}, 140, 40)
	h.toAWSCLI()
	h.keys("t")
	h.waitText("tags of aws-cli", "1 of ")
	h.keys("G")
	end := regexp.MustCompile(`([\d,]+) of ([\d,]+) · ([\d,]+)/([\d,]+) loaded`)
	h.waitFor("the last row", func(s string) bool {
		m := end.FindStringSubmatch(s)
		return m != nil && m[1] == m[2] && m[3] == m[4]
	})
	mu.Lock()
	defer mu.Unlock()
	for q, n := range asked {
		// The first page is asked by the tree and by the table: twice.
		if n > 2 || n > 1 && regexp.MustCompile(`page_token|skip`).MatchString(q) {
			t.Errorf("sent %d times: %s", n, q)
		}
	}
	if len(asked) > 12 {
		t.Errorf("%d requests for about six pages", len(asked))
	}
}
