package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api/emulator"
	"canopy/cli/exit"
)

// An organization that does not exist, or that the token cannot see, is a
// failure (exit 1) that names it, as the UI refuses to start on it; it is
// never an empty listing of nothing.
func TestListMissingOrganizationFails(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	for _, tc := range []struct {
		name, org, want string
	}{
		{"by name", "initech", `no organization "initech"`},
		{"by uid", strings.Repeat("0", 40), "organization " + strings.Repeat("0", 40)},
		{"a folder uid below nothing", strings.Repeat("0", 40) + "/0123456789abcdef", "organization " + strings.Repeat("0", 40) + "/0123456789abcdef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Tags check the organization while their first page is read
			// (checkOrgBeside): they fail as repos do, saying the same.
			_, first, _ := list(t, getenv, "repos", "--org", tc.org)
			for _, args := range [][]string{{"repos"}, {"subscriptions"}, {"tags"}, {"tags", "-o", "json"}, {"tags", "--filter", "a"}} {
				out, errs, code := list(t, getenv, append(args, "--org", tc.org)...)
				if code != exit.Failure || !strings.Contains(errs, tc.want) || out != "" || args[0] != "subscriptions" && errs != first {
					t.Errorf("%v --org %s: exit %d, want 1; stderr %q (want %q, as repos says it); stdout %q", args, tc.org, code, errs, tc.want, out)
				}
			}
		})
	}

	// Carol is bound in acme only: globex, which exists, is not hers to see.
	tok := emulator.IdentityToken("https://accounts.google.com", "109283746501928374650", time.Now().Add(time.Hour))
	carol := env(t, map[string]string{"CANOPY_API_URL": getenv("CANOPY_API_URL"), "CANOPY_TOKEN": tok})
	globex := otherOrg(t, srv)
	for _, kind := range []string{"repos", "tags"} {
		if out, errs, code := list(t, carol, kind, "-o", "json", "--org", globex); code != exit.Failure || !strings.Contains(errs, "organization "+globex) || out != "" {
			t.Errorf("%s of an organization the token cannot see: exit %d; stderr %q; stdout %q", kind, code, errs, out)
		}
	}
	if out, errs, code := list(t, carol, "repos", "--org", "globex.example"); code != exit.Failure || !strings.Contains(errs, `no organization "globex.example"`) || out != "" {
		t.Errorf("an organization the token cannot see, by name: exit %d; stderr %q; stdout %q", code, errs, out)
	}
	if out, errs, code := list(t, carol, "repos"); code != exit.OK || !strings.Contains(out, "alertmanager") {
		t.Errorf("carol's own organization: exit %d; stderr %q", code, errs)
	}
}

// otherOrg is the uid of the emulator's second organization (globex).
func otherOrg(t *testing.T, srv *emulator.Server) string {
	t.Helper()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": srv.AdminToken(), "CANOPY_ORG": "globex.example"})
	out, errs, code := list(t, getenv, "groups", "-o", "json")
	if code != 0 {
		t.Fatalf("globex: exit %d %s", code, errs)
	}
	// Every group of globex starts with its uid.
	i := strings.Index(out, `"uid": "`)
	if i < 0 {
		t.Fatalf("globex has no folders: %s", out)
	}
	return out[i+8 : i+8+40]
}

// TestListTagsChecksTheOrganizationBesideTheFirstPage: given by uid, the
// organization is checked while the first page of tags is read: the
// server holds its answer about the organization until it has answered
// for that page (or the test's patience runs out: a listing that asks
// first never asks for the page). What is printed is what a listing of
// the organization by name prints, which checks it first.
func TestListTagsChecksTheOrganizationBesideTheFirstPage(t *testing.T) {
	t.Parallel()
	srv := seededEmulator(t)
	pageServed := make(chan struct{})
	var once sync.Once
	var held atomic.Bool
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/iam/v2/groups/"+srv.OrgUID():
			select {
			case <-pageServed:
			case <-time.After(patience):
				held.Store(true)
			case <-r.Context().Done():
			}
		case r.URL.Path == "/registry/v2/tags":
			defer once.Do(func() { close(pageServed) })
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": srv.AdminToken()})
	got, errs, code := list(t, getenv, "tags", "-o", "json", "--org", srv.OrgUID())
	if held.Load() {
		t.Fatal("the organization was checked before the first page was asked for")
	}
	want, _, _ := list(t, getenv, "tags", "-o", "json", "--org", "acme.example")
	if code != exit.OK || got != want || !strings.Contains(got, `"name": "latest"`) {
		t.Errorf("exit %d (stderr %q): %d bytes, by name %d", code, errs, len(got), len(want))
	}
}
