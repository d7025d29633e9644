package emulator

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestStartServesOnceSeeded: Start returns before the data is seeded, with
// the organization's uid already known; until Ready, every request but
// ping is answered 503 UNAVAILABLE with Retry-After, and Progress counts
// up to the tags there are.
func TestStartServesOnceSeeded(t *testing.T) {
	t.Parallel()
	opts := Options{Seed: 1, Size: "medium", AdminToken: adminTok}
	srv, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+adminTok)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec
	}
	if rec := get("/ping/v2/ping"); rec.Code != http.StatusOK {
		t.Errorf("ping while seeding: %d %s", rec.Code, rec.Body)
	}
	select {
	case <-srv.Ready():
		t.Log("seeded before the first request: nothing to see of the seeding")
	default:
		rec := get("/iam/v2/groups/" + srv.OrgUID())
		if rec.Code == http.StatusOK {
			// Only if the seeding ended in between.
			<-srv.Ready()
			break
		}
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "1" ||
			!strings.Contains(rec.Body.String(), "UNAVAILABLE") || !strings.Contains(rec.Body.String(), "seeding") {
			t.Errorf("while seeding: %d, Retry-After %q, %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
		}
	}
	var last Progress
	deadline := time.After(patience)
	for !last.Ready {
		select {
		case <-deadline:
			t.Fatalf("not seeded after %v: %+v", patience, last)
		case <-time.After(5 * time.Millisecond):
		}
		p := srv.Progress()
		if p.Repos < last.Repos || p.Tags < last.Tags || p.Indexing && p.Repos != p.AllRepos || last.Indexing && !p.Indexing {
			t.Fatalf("progress went from %+v to %+v", last, p)
		}
		last = p
	}
	if last.Tags != srv.st.tagTotal() || last.AllRepos < 600 || last.Repos != last.AllRepos {
		t.Errorf("seeded: %+v, %d tags", last, srv.st.tagTotal())
	}
	if rec := get("/iam/v2/groups/" + srv.OrgUID()); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "acme.example") {
		t.Errorf("once seeded: %d %s", rec.Code, rec.Body)
	}
	same, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if same.OrgUID() != srv.OrgUID() {
		t.Errorf("Start's organization %s, New's %s", srv.OrgUID(), same.OrgUID())
	}
}
