package emulator

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"canopy/api"
)

// TestArtifactUIDs: an artifact's uid is its ecosystem's repository and
// its package, with exactly one slash; both ecosystems are seeded, and
// the list is by name unless asked otherwise.
func TestArtifactUIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1, Hostile: true})
	p := e.list("/libraries/v2/artifacts", "artifacts", url.Values{"ecosystems": api.Ecosystems(), "page_size": {"200"}})
	per := map[string]int{}
	var names []string
	for _, it := range p.Items {
		uid, eco, name := it["uid"].(string), it["ecosystem"].(string), it["name"].(string)
		names = append(names, name)
		per[eco]++
		prefix := map[string]string{api.EcosystemJava: "maven/", api.EcosystemPython: "pypi/"}[eco]
		if strings.Count(uid, "/") != 1 || !strings.HasPrefix(uid, prefix) {
			t.Errorf("artifact %q of %s: uid %q", name, eco, uid)
		}
	}
	if per[api.EcosystemJava] < 10 || per[api.EcosystemPython] < 10 || len(per) != 2 {
		t.Errorf("artifacts per ecosystem: %v", per)
	}
	if !slices.IsSorted(names) {
		t.Errorf("default order is not by name: %v", names)
	}
}

// TestEcosystemsRequired: the list and the count refuse a request without
// ecosystems, or with one the service does not know, on ecosystems.
func TestEcosystemsRequired(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	for _, path := range []string{"/libraries/v2/artifacts", "/libraries/v2/artifacts/count"} {
		for _, q := range []string{"", "?ecosystems=ECOSYSTEM_GO", "?ecosystems=ECOSYSTEM_JAVA&ecosystems=java", "?ecosystems=ECOSYSTEM_UNSPECIFIED"} {
			s := wantErr(t, e.get(path+q), 400, api.CodeInvalidArgument)
			if f := fieldOf(t, s); f != "ecosystems" {
				t.Errorf("%s%s: field %q", path, q, f)
			}
		}
	}
	var counts api.ArtifactCounts
	e.ok(e.get("/libraries/v2/artifacts/count?ecosystems=ECOSYSTEM_PYTHON&ecosystems=ECOSYSTEM_JAVA"), &counts)
	if len(counts.Counts) != 2 || counts.Counts[0].Ecosystem != api.EcosystemPython || counts.Counts[0].TotalCount == 0 {
		t.Errorf("counts %+v", counts)
	}
	// An enum by number, as a gateway reads one too.
	byNumber := e.list("/libraries/v2/artifacts", "artifacts", url.Values{"ecosystems": {"2"}})
	if byNumber.TotalCount != fmt.Sprint(int64(counts.Counts[0].TotalCount)) {
		t.Errorf("ecosystems=2: %s, want %d", byNumber.TotalCount, counts.Counts[0].TotalCount)
	}
}

// TestVersionsRoute: an artifact's versions are served on the route whose
// id is ONE escaped segment; the unescaped path, and a get of one
// artifact, are no route at all.
func TestVersionsRoute(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	const requests = "pypi/requests"
	esc := "/libraries/v2/artifacts/" + url.PathEscape(requests)
	r := e.get(esc + "/versions")
	var raw map[string]json.RawMessage
	e.ok(r, &raw)
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw["artifactVersions"], &items); err != nil || len(items) == 0 {
		t.Fatalf("artifactVersions: %v in %s", err, r.body)
	}
	for _, it := range items {
		for _, k := range []string{"uid", "name", "version", "description", "createTime", "updateTime", "sizeBytes"} {
			if _, ok := it[k]; !ok {
				t.Errorf("version without %s: %s", k, mustJSON(it))
			}
		}
		if s := string(it["sizeBytes"]); !strings.HasPrefix(s, `"`) {
			t.Errorf("sizeBytes %s is not an int64 string", s)
		}
	}
	// Newest first, by version: numerically, 2.10 after 2.9.
	var vs []api.ArtifactVersion
	e.ok(e.get(esc+"/versions?page_size=200"), &struct {
		V *[]api.ArtifactVersion `json:"artifactVersions"`
	}{&vs})
	for i := 1; i < len(vs); i++ {
		if versionKey(vs[i-1].Version) <= versionKey(vs[i].Version) {
			t.Errorf("versions not newest first: %s then %s", vs[i-1].Version, vs[i].Version)
		}
	}
	var arts []api.Artifact
	e.ok(e.get("/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON&query=requests"), &struct {
		A *[]api.Artifact `json:"artifacts"`
	}{&arts})
	if len(arts) != 1 || arts[0].UID != requests || vs[0].Version != arts[0].LatestVersion || len(vs) != int(arts[0].VersionCount) {
		t.Errorf("artifact %+v, versions %d, newest %s", arts, len(vs), vs[0].Version)
	}

	for _, path := range []string{
		"/libraries/v2/artifacts/" + requests + "/versions", // unescaped: two segments
		esc,                                   // no call gets one artifact
		"/libraries/v2/artifacts/" + requests, // nor unescaped
		esc + "/versions/" + url.PathEscape(vs[0].Version),
		"/libraries/v2/artifacts/count/more",
	} {
		wantNoRoute(t, e.get(path))
	}
	s := wantErr(t, e.get("/libraries/v2/artifacts/"+url.PathEscape("pypi/nope")+"/versions"), 404, api.CodeNotFound)
	if ri := (&api.Error{Status: s}).ResourceInfo(); ri == nil || ri.ResourceName != "pypi/nope" {
		t.Errorf("missing artifact: %+v", s)
	}
	wantErr(t, e.call("POST", "/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA", adminTok, `{}`), 501, api.CodeUnimplemented)

	// The client escapes the id as the route wants.
	hs := httptest.NewServer(e.srv)
	defer hs.Close()
	c, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(adminTok, "test")})
	if err != nil {
		t.Fatal(err)
	}
	guava := "maven/com.google.guava:guava"
	page, err := c.ListArtifactVersions(t.Context(), guava, api.ListOptions{})
	if err != nil || len(page.Items) == 0 || !strings.HasPrefix(page.Items[0].UID, guava+"/") {
		t.Fatalf("ListArtifactVersions(%s): %v, %+v", guava, err, page)
	}
}

func TestVersionKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ a, b string }{{"2.9.1", "2.10.0"}, {"1.0", "1.0.1"}, {"9", "10"}, {"1.2.3", "1.2.4"}} {
		if versionKey(tc.a) >= versionKey(tc.b) {
			t.Errorf("%s sorts after %s", tc.a, tc.b)
		}
	}
}
