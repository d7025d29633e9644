// Package apitest serves hostile answers of the Platform API for tests of
// the client and the real binary.
package apitest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// WideOrg is the organization WideRepos serves.
const WideOrg = "dddddddddddddddddddddddddddddddddddddddd"

// WideName is the name WideRepos gives one repo: 1 MiB of W.
func WideName() string { return strings.Repeat("W", 1<<20) }

// WideRepos serves WideOrg, with no folders, and 1,000 repos in pages of
// 200, the 500th named WideName (issue 33, item 1), each with description
// ("" for none). It closes when the test ends.
func WideRepos(t testing.TB, description string) *httptest.Server {
	t.Helper()
	const n, perPage = 1000, 200
	desc := ""
	if description != "" {
		desc = fmt.Sprintf(`,"description":%q`, description)
	}
	var pages [][]byte
	for p := range n / perPage {
		b := []byte(`{"repos":[`)
		for i := p * perPage; i < (p+1)*perPage; i++ {
			if i > p*perPage {
				b = append(b, ',')
			}
			name := "repo-" + strconv.Itoa(i)
			if i == n/2 {
				name = WideName()
			}
			b = fmt.Appendf(b, `{"uid":"%s/%016x","name":"%s"%s}`, WideOrg, i, name, desc)
		}
		b = append(b, ']')
		if p+1 < n/perPage {
			b = fmt.Appendf(b, `,"nextPageToken":"%d"`, p+1)
		}
		pages = append(pages, append(b, '}'))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /iam/v2/groups/{uid}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"uid":"` + r.PathValue("uid") + `","name":"wide"}`))
	})
	mux.HandleFunc("GET /iam/v2/groups", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"groups":[]}`))
	})
	mux.HandleFunc("GET /registry/v2/repos", func(w http.ResponseWriter, r *http.Request) {
		p, _ := strconv.Atoi(r.URL.Query().Get("page_token"))
		if p < 0 || p >= len(pages) {
			http.Error(w, "no such page", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(pages[p])
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	return hs
}
