package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"canopy/api"
	"canopy/cli/exit"
)

// TestListOfAnotherShapeFails: a server that puts a library's versions
// under a key the API does not use ("versions") makes canopy list fail
// (exit 1) naming the keys that came, where it once printed the header
// alone and exited 0.
func TestListOfAnotherShapeFails(t *testing.T) {
	t.Parallel()
	srv := seededEmulator(t)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/versions") {
			srv.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		var page map[string]json.RawMessage
		if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
			t.Errorf("%s: %v", r.URL, err)
		}
		page["versions"] = page["artifactVersions"]
		delete(page, "artifactVersions")
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(page)
	}))
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
	libs := listJSON[api.Artifact](t, getenv, "libraries")
	if len(libs) == 0 {
		t.Fatal("the emulator has no library")
	}
	out, errs, code := list(t, getenv, "versions", "--artifact", libs[0].UID)
	if code != exit.Failure || !strings.Contains(errs, `holds no "artifactVersions" list but a list under "versions"`) {
		t.Errorf("exit %d, want %d and the keys that came:\n%s\n%s", code, exit.Failure, out, errs)
	}
}

// TestListOfAServerIgnoringAFilter: a server that ignores artifact_names
// answers the whole feed to canopy list advisories --repo nginx: only
// nginx's are printed, and stderr says canopy filtered them.
func TestListOfAServerIgnoringAFilter(t *testing.T) {
	t.Parallel()
	srv := seededEmulator(t)
	hs := ignoring(t, srv, "artifact_names")
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
	out, errs, code := list(t, getenv, "advisories", "--repo", "nginx")
	rows := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if code != 0 || len(rows) == 0 || !strings.Contains(errs, "the server ignored the artifact_names filter of advisories: the rows are those canopy kept itself") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, row := range rows {
		if !strings.Contains(row, " nginx ") {
			t.Errorf("a row not of nginx: %q", row)
		}
	}
}
