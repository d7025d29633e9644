package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"canopy/cli/exit"
)

// strictServer answers as the service may, where the lenient emulator
// does not: no totalCount in any list, built-in roles left out of a
// filtered role list, and an order_by that refuse names refused with
// INVALID_ARGUMENT on order_by (HTTP 400). It records each request.
type strictServer struct {
	hs     *httptest.Server
	mu     sync.Mutex
	asked  []string
	refuse func(path, orderBy string) bool
}

func newStrictServer(t *testing.T, refuse func(path, orderBy string) bool) *strictServer {
	t.Helper()
	srv := seededEmulator(t)
	s := &strictServer{refuse: refuse}
	s.hs = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked = append(s.asked, r.URL.Path+"?"+r.URL.RawQuery)
		s.mu.Unlock()
		if order := r.URL.Query().Get("order_by"); order != "" && s.refuse(r.URL.Path, order) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"code":3,"message":"Invalid argument: order_by ` + order + ` is not supported","details":[` +
				`{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"order_by","description":"unsupported sort field"}]}]}`))
			return
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		var page map[string]json.RawMessage
		if rec.Code == http.StatusOK && json.Unmarshal(body, &page) == nil {
			delete(page, "totalCount")
			if raw, ok := page["roles"]; ok && r.URL.Query().Get("uidp.descendants_of") != "" {
				page["roles"] = customOnly(t, raw)
			}
			body, _ = json.Marshal(page)
		}
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		w.Write(body)
	}))
	t.Cleanup(s.hs.Close)
	return s
}

// customOnly drops the built-in roles (flat uids) of a role list.
func customOnly(t *testing.T, raw json.RawMessage) json.RawMessage {
	var roles []map[string]any
	if err := json.Unmarshal(raw, &roles); err != nil {
		t.Errorf("roles: %v", err)
		return raw
	}
	roles = slices.DeleteFunc(roles, func(r map[string]any) bool { return !strings.Contains(r["uid"].(string), "/") })
	out, _ := json.Marshal(roles)
	return out
}

func (s *strictServer) env(t *testing.T) func(string) string {
	return env(t, map[string]string{"CANOPY_API_URL": s.hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example", "CANOPY_PAGE_SIZE": "7"})
}

// requests are the requests made so far; reset forgets them.
func (s *strictServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.asked)
}

func (s *strictServer) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = nil
}

// uidsOf are the uids of a JSON list, in order.
func uidsOf(t *testing.T, out string) []string {
	t.Helper()
	var items []struct {
		UID string `json:"uid"`
	}
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("%v: %.300s", err, out)
	}
	uids := make([]string, len(items))
	for i, it := range items {
		uids[i] = it.UID
	}
	return uids
}

// strictKinds are the collections with their arguments, every one
// canopy list has.
func strictKinds() [][]string {
	var kinds [][]string
	for _, k := range listNames() {
		args := []string{k}
		if k == "versions" {
			args = append(args, "--artifact", "requests")
		}
		kinds = append(kinds, args)
	}
	return kinds
}

// TestListWithoutTotals: a server that never says how many there are
// (totalCount is optional) gets every collection read to its end by
// nextPageToken, in small pages, the same rows as a server that does; and
// the built-in roles it leaves out of a filtered list are there too.
func TestListWithoutTotals(t *testing.T) {
	t.Parallel()
	lenient, _ := listEnv(t)
	strict := newStrictServer(t, func(string, string) bool { return false })
	req, _ := http.NewRequest(http.MethodGet, strict.hs.URL+"/registry/v2/repos?page_size=2", nil)
	req.Header.Set("Authorization", "Bearer list-token")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		var page map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if _, ok := page["totalCount"]; ok || page["nextPageToken"] == nil {
			t.Fatalf("the strict server gives a total, or no next page: %v", page)
		}
	}
	for _, args := range strictKinds() {
		want, _, _ := list(t, lenient, append(args, "-o", "json")...)
		out, errs, code := list(t, strict.env(t), append(args, "-o", "json")...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		if got, want := uidsOf(t, out), uidsOf(t, want); len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%v: %d rows without totals, %d with them", args, len(got), len(want))
		}
		if table, _, code := list(t, strict.env(t), args...); code != 0 || strings.Count(table, "\n") != len(uidsOf(t, out))+1 {
			t.Errorf("%v as a table: exit %d, %d lines for %d rows", args, code, strings.Count(table, "\n"), len(uidsOf(t, out)))
		}
	}
	if out, _, _ := list(t, strict.env(t), "roles"); !strings.Contains(out, "built-in") || !strings.Contains(out, "custom") {
		t.Errorf("roles lack the built-in ones the filtered list left out:\n%s", out)
	}
}

// TestListFallsBackWhenTheOrderIsRefused: a server that does not sort a
// collection the UI's way refuses the order; canopy list says so once on
// stderr and lists every row in the server's default order (exit 0).
func TestListFallsBackWhenTheOrderIsRefused(t *testing.T) {
	t.Parallel()
	lenient, _ := listEnv(t)
	strict := newStrictServer(t, func(string, string) bool { return true })
	notes := map[string]string{
		"repos": "repos by name", "tags": "tags by name", "groups": "folders by name", "identities": "identities by name",
		"bindings": "role bindings newest first", "advisories": "advisories recently updated first",
		"libraries": "libraries by name", "providers": "identity providers by name",
		"terms": "terms acceptances newest first",
	}
	for _, args := range strictKinds() {
		want, _, _ := list(t, lenient, append(args, "-o", "json")...)
		strict.reset()
		out, errs, code := list(t, strict.env(t), append(args, "-o", "json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		got, wantUIDs := uidsOf(t, out), uidsOf(t, want)
		slices.Sort(got)
		slices.Sort(wantUIDs)
		if !slices.Equal(got, wantUIDs) {
			t.Errorf("%v: %d rows in the default order, %d in the UI's", args, len(got), len(wantUIDs))
		}
		note, refused := notes[args[0]]
		if !refused {
			// Subscriptions, versions, roles and invites ask for no order:
			// nothing to refuse.
			if errs != "" {
				t.Errorf("%v: %q", args, errs)
			}
			continue
		}
		if want := "canopy list: the server does not sort " + note + "; listed in its default order\n"; errs != want {
			t.Errorf("%v: stderr %q, want %q", args, errs, want)
		}
		last := strict.requests()
		if q := last[len(last)-1]; strings.Contains(q, "order_by") {
			t.Errorf("%v: the last page still asked for an order: %s", args, q)
		}
	}
	// A table is printed the same way, the note on stderr only.
	if out, errs, code := list(t, strict.env(t), "repos"); code != 0 || !strings.HasPrefix(out, "NAME ") || strings.Count(errs, "\n") != 1 {
		t.Errorf("repos: exit %d %q\n%.300s", code, errs, out)
	}
}

// TestListRefusedOrderIsNotAnyRefusal: only a refused order is worked
// around; an order the server takes is kept, and another invalid argument
// is a failure (exit 1).
func TestListRefusedOrderIsNotAnyRefusal(t *testing.T) {
	t.Parallel()
	strict := newStrictServer(t, func(path, order string) bool { return order == "created_at desc" })
	if _, errs, code := list(t, strict.env(t), "repos"); code != 0 || errs != "" {
		t.Errorf("an order the server takes: exit %d %q", code, errs)
	}
	if _, errs, code := list(t, strict.env(t), "bindings"); code != 0 || !strings.Contains(errs, "does not sort role bindings newest first") {
		t.Errorf("bindings: exit %d %q", code, errs)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /iam/v2/groups/{uid}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"uid":"` + r.PathValue("uid") + `","name":"org"}`))
	})
	mux.HandleFunc("GET /registry/v2/repos", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"code":3,"message":"Invalid argument: page_size","details":[` +
			`{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"page_size","description":"too large"}]}]}`))
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "t", "CANOPY_ORG": strings.Repeat("a", 40)})
	_, errs, code := list(t, getenv, "repos", "-o", "json")
	if code != exit.Failure || !strings.Contains(errs, "list repos: ") || !strings.Contains(errs, "page_size") || strings.Contains(errs, "default order") {
		t.Errorf("another invalid argument: exit %d %q", code, errs)
	}
}

// TestListRouteNotOnServer: a collection the server does not serve (a
// gateway's 404 naming no resource) is a failure that says so.
func TestListRouteNotOnServer(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /iam/v2/groups/{uid}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"uid":"` + r.PathValue("uid") + `","name":"org"}`))
	})
	mux.HandleFunc("GET /iam/v2/groups", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) })
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "t", "CANOPY_ORG": strings.Repeat("a", 40)})
	if out, errs, code := list(t, getenv, "subscriptions"); code != exit.Failure || !strings.Contains(errs, "list subscriptions: this server does not serve them") || out != "" {
		t.Errorf("exit %d %q %q", code, errs, out)
	}
}
