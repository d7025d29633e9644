package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
)

// BenchmarkLargeReposByIDs is the lookup canopy list sends for the REPO
// column of its first page of tags at the large size: 34 of the repos of
// the organization's first 200 tags by name (canopy's 4 KiB of uids a
// request), through ServeHTTP, the answer checked once.
func BenchmarkLargeReposByIDs(b *testing.B) {
	srv, _ := largeServer()
	org := srv.OrgUID()
	asked := firstPageRepos(srv)[:34]
	q := url.Values{"uidp.descendants_of": {org}, "page_size": {"200"}, "uidp.ids": asked}
	req := httptest.NewRequest("GET", "/registry/v2/repos?"+q.Encode(), nil)
	req.Header.Set("Authorization", "Bearer "+srv.AdminToken())
	b.Run("http/ids34", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var p struct{ Repos []struct{ UID string } }
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || len(p.Repos) != len(asked) {
			b.Fatalf("%d repos of %d asked (%v)", len(p.Repos), len(asked), err)
		}
	})
}

// BenchmarkLargeReposByIDsIndex is the same 34 uids found in the index by
// uid (ofUIDs) beside the scan of the organization's repos that answered
// before (filtered), in the same run.
func BenchmarkLargeReposByIDsIndex(b *testing.B) {
	srv, _ := largeServer()
	org := srv.OrgUID()
	asked := firstPageRepos(srv)[:34]
	c := srv.st.repos
	scope, mask := c.listIn(c.desc[org], fieldUID, maskAll)
	ids := slices.Compact(slices.Sorted(slices.Values(asked)))
	b.Run("index/by-uid", func(b *testing.B) {
		for b.Loop() {
			if n := c.ofUIDs(scope, fieldUID, mask, ids, nil).Len(); n != len(ids) {
				b.Fatal(n)
			}
		}
	})
	b.Run("index/scan", func(b *testing.B) {
		for b.Loop() {
			wanted := make(map[string]bool, len(ids))
			for _, id := range ids {
				wanted[id] = true
			}
			if n := c.filtered(scope, mask, func(r *repoRec) bool { return wanted[r.UID] }).Len(); n != len(ids) {
				b.Fatal(n)
			}
		}
	})
}

// firstPageRepos is the first 200 repos the organization's tags by name
// name (its first page of tags names 200), in that order.
func firstPageRepos(srv *Server) []string {
	tags := srv.st.tags
	l, kinds := tags.listIn(tags.desc[srv.OrgUID()], fieldName, 1<<classNormal)
	var repos []string
	l.walk(0, true, func(id int32, kind uint8) bool {
		if p := tags.acc.parent(&tags.items[id]); mask1(kinds, kind) && !slices.Contains(repos, p) {
			repos = append(repos, p)
		}
		return len(repos) < 200
	})
	return repos
}
