package emulator

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api"
)

// BenchmarkNew measures seeding each size.
func BenchmarkNew(b *testing.B) {
	for _, size := range []string{"small", "medium", "large"} {
		b.Run(size, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := New(Options{Seed: 1, Size: size}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// largeServer seeds the large emulator once for the benchmarks of a run
// (≈ 5 s); the write benchmarks run after the list ones.
var largeServer = sync.OnceValues(func() (*Server, time.Duration) {
	start := time.Now()
	srv, err := New(Options{Seed: 1, Size: "large"})
	if err != nil {
		panic(err)
	}
	srv.st.makeAllTags() // what a list of every tag does
	return srv, time.Since(start)
})

// carolToken is a JWT of carol, a viewer bound on the primary organization.
func carolToken(srv *Server) string {
	return IdentityToken(issuerGoogle, "109283746501928374650", srv.now().Add(24*time.Hour))
}

// BenchmarkLargeList pages 200 tags out of ~1M, in several orders and scopes,
// as the admin and as a viewer, with and without an exact name, through
// ServeHTTP and through the index directly.
func BenchmarkLargeList(b *testing.B) {
	srv, took := largeServer()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.Logf("large: %d tags, %d repos, seeded in %v, heap %d MB", srv.st.tags.live, srv.st.repos.live, took.Round(time.Millisecond), m.HeapAlloc>>20)
	org := srv.OrgUID()
	big, _ := srv.st.repos.get(firstRepoNamed(srv, "aws-cli")) // over a thousand tags
	viewer := carolToken(srv)
	cases := []struct {
		name  string
		q     url.Values
		token string // "" → the admin's
	}{
		{"all/uid", url.Values{}, ""},
		{"org/name", url.Values{"uidp.descendants_of": {org}, "order_by": {"name"}}, ""},
		{"org/created_desc", url.Values{"uidp.descendants_of": {org}, "order_by": {"created_at desc"}}, ""},
		{"org/update_skip400k", url.Values{"uidp.descendants_of": {org}, "order_by": {"update_time"}, "skip": {"400000"}}, ""},
		{"org/name_all_classes", url.Values{"uidp.descendants_of": {org}, "order_by": {"name desc"}, "include_referrers": {"true"}, "include_epochs": {"true"}}, ""},
		{"repo/name", url.Values{"uidp.children_of": {big.UID}, "order_by": {"name"}}, ""},
		{"viewer/all/uid", url.Values{}, viewer},
		{"viewer/all/created_desc_skip300k", url.Values{"order_by": {"created_at desc"}, "skip": {"300000"}}, viewer},
		{"all/name=latest", url.Values{"name": {"latest"}}, ""},
		{"org/name=latest", url.Values{"uidp.descendants_of": {org}, "name": {"latest"}, "order_by": {"update_time desc"}}, ""},
		{"viewer/all/name=latest", url.Values{"name": {"latest"}}, viewer},
	}
	get := func(q url.Values, token string) *httptest.ResponseRecorder {
		if token == "" {
			token = srv.AdminToken()
		}
		req := httptest.NewRequest("GET", "/registry/v2/tags?"+q.Encode(), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec
	}
	// A token from the middle of the org's tags by name: what steady
	// scrolling sends.
	mid := url.Values{"uidp.descendants_of": {org}, "order_by": {"name"}, "skip": {"300000"}, "page_size": {"200"}}
	token := decodePage(b, get(mid, "")).NextPageToken
	if token == "" {
		b.Fatal("no next page token in the middle of the org's tags")
	}
	cases = append(cases, struct {
		name  string
		q     url.Values
		token string
	}{"org/name_token_mid", url.Values{"uidp.descendants_of": {org}, "order_by": {"name"}, "page_token": {token}}, ""})
	for _, tc := range cases {
		tc.q.Set("page_size", "200")
		b.Run("http/"+tc.name, func(b *testing.B) {
			// Check the answer once, outside the timed loop: a full page
			// of 200 and a total over the whole scope.
			page := decodePage(b, get(tc.q, tc.token))
			if len(page.Tags) != 200 {
				b.Fatalf("%s: got %d tags, want 200 (totalCount %d, skipped %d)", tc.name, len(page.Tags), page.TotalCount, page.Skipped)
			}
			if page.TotalCount < 200 {
				b.Fatalf("%s: totalCount %d", tc.name, page.TotalCount)
			}
			if tc.token != "" && !strings.HasPrefix(page.Tags[0].UID, org+"/") {
				b.Fatalf("%s: the viewer sees %s, outside the organization", tc.name, page.Tags[0].UID)
			}
			b.ReportAllocs()
			req := httptest.NewRequest("GET", "/registry/v2/tags?"+tc.q.Encode(), nil)
			req.Header.Set("Authorization", "Bearer "+cmp.Or(tc.token, srv.AdminToken()))
			for b.Loop() {
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
			b.ReportMetric(float64(page.TotalCount), "total")
		})
	}
	// The index alone: one page of 200 after a cursor in the middle.
	c := srv.st.tags
	l, mask := c.listIn(c.desc[org], fieldName, 1<<classNormal)
	after := c.key(fieldName, l.at(l.Len()/2))
	b.Run("index/org_name_after_cursor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res := c.page(l, pageReq{field: fieldName, mask: mask, after: &after, size: 200})
			if len(res.ids) != 200 {
				b.Fatal(len(res.ids))
			}
		}
	})
}

func firstRepoNamed(srv *Server, name string) string {
	c := srv.st.repos
	for i := range c.items {
		if !c.dead[i] && c.items[i].Name == name {
			return c.items[i].UID
		}
	}
	return ""
}

// tagPage is the part of a tag List answer the benchmarks check.
type tagPage struct {
	Tags          []api.Tag `json:"tags"`
	TotalCount    api.Int64 `json:"totalCount"`
	Skipped       int       `json:"skipped"`
	NextPageToken string    `json:"nextPageToken"`
}

func decodePage(b *testing.B, rec *httptest.ResponseRecorder) tagPage {
	b.Helper()
	if rec.Code != http.StatusOK {
		b.Fatalf("%d %s", rec.Code, rec.Body)
	}
	var p tagPage
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkLargeWrite times changes at the large size, each under the
// store's write lock (so a concurrent request waits at most this long):
// creating a tag, moving one to another digest, deleting one, creating a
// repo, and deleting a repo with 16 and with 1,000 tags (one batch).
func BenchmarkLargeWrite(b *testing.B) {
	srv, _ := largeServer()
	org := srv.OrgUID()
	python := firstRepoNamed(srv, "python")
	team := srv.st.groups.childIDs(org)[0]
	group := srv.st.groups.items[team].UID
	do := func(b *testing.B, method, path, body string) {
		b.Helper()
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+srv.AdminToken())
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
		}
	}
	digest := func(i int) string { return fmt.Sprintf("sha256:%064x", 0xbe00000+i) }
	n := 0
	b.Run("create_tag", func(b *testing.B) {
		for b.Loop() {
			n++
			do(b, "POST", "/registry/v2/tags/"+python, fmt.Sprintf(`{"name":"bench-%d","digest":%q}`, n, digest(n)))
		}
	})
	b.Run("move_tag", func(b *testing.B) {
		for b.Loop() {
			n++
			do(b, "POST", "/registry/v2/tags/"+python, fmt.Sprintf(`{"name":"bench-1","digest":%q}`, digest(n)))
		}
	})
	b.Run("delete_tag", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			n++
			do(b, "POST", "/registry/v2/tags/"+python, fmt.Sprintf(`{"name":"gone-%d","digest":%q}`, n, digest(n)))
			id, _ := childNamed(srv.st.tags, python, fmt.Sprintf("gone-%d", n))
			uid := srv.st.tagUID(&srv.st.tags.items[id])
			b.StartTimer()
			do(b, "DELETE", "/registry/v2/tags/"+uid, "")
		}
	})
	b.Run("create_repo", func(b *testing.B) {
		for b.Loop() {
			n++
			do(b, "POST", "/registry/v2/repos/"+group, fmt.Sprintf(`{"name":"bench-repo-%d"}`, n))
		}
	})
	for _, tags := range []int{16, 1000} {
		b.Run(fmt.Sprintf("delete_repo_%d_tags", tags), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				n++
				name := fmt.Sprintf("doomed-%d", n)
				do(b, "POST", "/registry/v2/repos/"+group, fmt.Sprintf(`{"name":%q}`, name))
				id, _ := childNamed(srv.st.repos, group, name)
				repo := srv.st.repos.items[id].UID
				for t := range tags {
					do(b, "POST", "/registry/v2/tags/"+repo, fmt.Sprintf(`{"name":"1.%d.0","digest":%q}`, t, digest(t)))
				}
				b.StartTimer()
				do(b, "DELETE", "/registry/v2/repos/"+repo, "")
			}
		})
	}
}
