package api_test

import (
	"net/http/httptest"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// BenchmarkAdvisoriesPage: a page of 200 advisories (≈ 270 kB, some 2,000
// events) encoded by the emulator (server, in process) and asked for and
// decoded by the client over HTTP (client: the server's work included).
// The small demo's tree asks for one as it opens.
//
//	go test ./api -run '^$' -bench AdvisoriesPage -benchmem -count 3
func BenchmarkAdvisoriesPage(b *testing.B) {
	srv, err := emulator.New(emulator.Options{AdminToken: adminToken, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("server", func(b *testing.B) {
		for b.Loop() {
			req := httptest.NewRequest("GET", "/vulnerabilities/v2/advisories?page_size=200", nil)
			req.Header.Set("Authorization", "Bearer "+adminToken)
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatal(rec.Code, rec.Body.String())
			}
			b.SetBytes(int64(rec.Body.Len()))
		}
	})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: static(adminToken)})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("client", func(b *testing.B) {
		for b.Loop() {
			p, err := c.ListAdvisories(b.Context(), api.ListOptions{PageSize: 200})
			if err != nil || len(p.Items) != 200 {
				b.Fatalf("%v (%d advisories)", err, len(p.Items))
			}
		}
	})
}
