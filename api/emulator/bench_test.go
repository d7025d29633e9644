package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"testing"
	"time"

	"canopy/api"
)

// BenchmarkNew measures seeding each size.
func BenchmarkNew(b *testing.B) {
	for _, size := range []string{"small", "medium"} {
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

// BenchmarkLargeList pages 200 tags out of ~1M, in several orders and scopes,
// through ServeHTTP and through the index directly.
func BenchmarkLargeList(b *testing.B) {
	start := time.Now()
	srv, err := New(Options{Seed: 1, Size: "large"})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.Logf("large: %d tags, %d repos, seeded in %v, heap %d MB", srv.st.tags.live, srv.st.repos.live, time.Since(start).Round(time.Millisecond), m.HeapAlloc>>20)
	org := srv.OrgUID()
	python, _ := srv.st.repos.get(firstRepoNamed(srv, "python"))
	cases := []struct {
		name string
		q    url.Values
	}{
		{"all/uid", url.Values{}},
		{"org/name", url.Values{"uidp.descendants_of": {org}, "order_by": {"name"}}},
		{"org/created_desc", url.Values{"uidp.descendants_of": {org}, "order_by": {"created_at desc"}}},
		{"org/update_skip500k", url.Values{"uidp.descendants_of": {org}, "order_by": {"update_time"}, "skip": {"500000"}}},
		{"org/name_all_classes", url.Values{"uidp.descendants_of": {org}, "order_by": {"name desc"}, "include_referrers": {"true"}, "include_epochs": {"true"}}},
		{"repo/name", url.Values{"uidp.children_of": {python.UID}, "order_by": {"name"}}},
	}
	get := func(q url.Values) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/registry/v2/tags?"+q.Encode(), nil)
		req.Header.Set("Authorization", "Bearer "+srv.AdminToken())
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec
	}
	// A token from the middle of the org's tags by name: what steady
	// scrolling sends.
	mid := url.Values{"uidp.descendants_of": {org}, "order_by": {"name"}, "skip": {"300000"}, "page_size": {"200"}}
	token := decodePage(b, get(mid)).NextPageToken
	if token == "" {
		b.Fatal("no next page token in the middle of the org's tags")
	}
	cases = append(cases, struct {
		name string
		q    url.Values
	}{"org/name_token_mid", url.Values{"uidp.descendants_of": {org}, "order_by": {"name"}, "page_token": {token}}})
	for _, tc := range cases {
		tc.q.Set("page_size", "200")
		b.Run("http/"+tc.name, func(b *testing.B) {
			// Check the answer once, outside the timed loop: a full page
			// of 200 and a total over the whole scope.
			page := decodePage(b, get(tc.q))
			if len(page.Tags) != 200 {
				b.Fatalf("%s: got %d tags, want 200 (totalCount %d, skipped %d)", tc.name, len(page.Tags), page.TotalCount, page.Skipped)
			}
			if page.TotalCount < 200 {
				b.Fatalf("%s: totalCount %d", tc.name, page.TotalCount)
			}
			b.ReportAllocs()
			req := httptest.NewRequest("GET", "/registry/v2/tags?"+tc.q.Encode(), nil)
			req.Header.Set("Authorization", "Bearer "+srv.AdminToken())
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
	l := &c.desc[org].lists[fieldName]
	after := c.key(fieldName, l.ids[len(l.ids)/2])
	b.Run("index/org_name_after_cursor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res := c.page(l, pageReq{field: fieldName, mask: 1 << classNormal, after: &after, size: 200})
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
