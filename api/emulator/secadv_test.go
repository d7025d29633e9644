package emulator

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"canopy/api"
)

// Documents and vulnerability metadata need no token (any given is not
// looked at); resolved vulnerabilities do, as every other call.
func TestSecurityAdvisoryAuthentication(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	for _, path := range []string{documentsRoute + "?id=openssl", metadataRoute + "?page_size=1"} {
		for _, tok := range []string{"", "not-a-token"} {
			if r := e.call("GET", path, tok, nil); r.status != http.StatusOK {
				t.Errorf("%s with %q: %d %s", path, tok, r.status, r.body)
			}
		}
	}
	q := url.Values{"image_refs.repo": {"python"}, "start_time": {"2026-05-01T00:00:00Z"}, "end_time": {"2026-06-01T00:00:00Z"}}
	wantErr(t, e.call("GET", resolvedRoute+"?"+q.Encode(), "", nil), http.StatusUnauthorized, api.CodeUnauthenticated)
	e.ok(e.get(resolvedRoute+"?"+q.Encode()), nil)
	wantErr(t, e.call("POST", documentsRoute, adminTok, "{}"), http.StatusNotImplemented, api.CodeUnimplemented)
	wantNoRoute(t, e.get(metadataRoute+"/CVE-2026-1"))
}

// Metadata pages by id, either way, a token continuing only its query;
// skipped adds up over the pages; ids and id keep those; an order but by
// id, and more ids than a request takes, are refused.
func TestVulnerabilityMetadataPaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	all := e.list(metadataRoute, "vulnerabilityMetadata", url.Values{"page_size": {"1000"}})
	if len(all.Items) != maxPageSize || all.TotalCount == "" || all.NextPageToken == "" {
		t.Fatalf("a page of %d, total %q", len(all.Items), all.TotalCount)
	}
	ids := make([]string, len(all.Items))
	for i, it := range all.Items {
		ids[i] = it["id"].(string)
	}
	if !slices.IsSorted(ids) {
		t.Errorf("not by id: %v", ids[:5])
	}
	p1 := e.list(metadataRoute, "vulnerabilityMetadata", url.Values{"page_size": {"3"}, "order_by": {"id desc"}, "skip": {"2"}})
	p2 := e.list(metadataRoute, "vulnerabilityMetadata", url.Values{"page_size": {"3"}, "order_by": {"id desc"}, "skip": {"1"},
		"page_token": {p1.NextPageToken}})
	if p1.Skipped != 2 || p2.Skipped != 3 || len(p2.Items) != 3 || p2.Items[0]["id"].(string) >= p1.Items[2]["id"].(string) {
		t.Errorf("pages %+v then %+v", p1, p2)
	}
	// A token of another query starts from the first page.
	other := e.list(metadataRoute, "vulnerabilityMetadata", url.Values{"page_size": {"3"}, "page_token": {p1.NextPageToken}})
	if other.Items[0]["id"] != ids[0] {
		t.Errorf("another query's token continued: %v", other.Items[0]["id"])
	}
	some := e.list(metadataRoute, "vulnerabilityMetadata", url.Values{"ids": {ids[7], "CVE-1999-0001"}, "id": {ids[3]}})
	if len(some.Items) != 2 || some.Items[0]["id"] != ids[3] || some.Items[1]["id"] != ids[7] {
		t.Errorf("by ids: %+v", some.Items)
	}
	for q, field := range map[string]string{"order_by=uid": "order_by", "order_by=id+up": "order_by", "page_size=-1": "page_size",
		"skip=x": "skip", "ids=" + manyIDs(maxMetadataIDs+1): "ids"} {
		s := wantErr(t, e.get(metadataRoute+"?"+q), http.StatusBadRequest, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != field {
			t.Errorf("%s refused on %s", q, f)
		}
	}
}

// manyIDs are n distinct CVE ids, comma separated.
func manyIDs(n int) string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("CVE-2026-%d", i)
	}
	return strings.Join(ids, ",")
}

// Documents hold the package advisories of the feed, none of an image;
// a CVE keeps only the advisories going by it.
func TestDocumentsOfTheFeed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	var out struct{ Documents []api.Document }
	e.ok(e.get(documentsRoute), &out)
	images := map[string]bool{}
	for _, r := range acmeRepos() {
		images[r.name] = true
	}
	n, notes := 0, 0
	for _, d := range out.Documents {
		n += len(d.Advisories)
		if d.ID != originOf(d.ID) {
			t.Errorf("%s is no origin package", d.ID)
		}
		// A document's Fixed (advisory/v2) has no note; its other events
		// keep theirs.
		for _, a := range d.Advisories {
			for _, ev := range a.Events {
				if ev.Kind == api.EventFixed && ev.Details.Note != "" {
					t.Errorf("%s: a fixed event with a note: %+v", a.ID, ev)
				}
				if ev.Details.Note != "" {
					notes++
				}
			}
		}
	}
	if notes == 0 {
		t.Error("no document event has a note")
	}
	feed := allAdvisories(t, e, url.Values{})
	packages := 0
	for _, a := range feed {
		if string(a["artifactType"]) != `"image"` {
			packages++
		}
	}
	if n != packages || n == 0 {
		t.Errorf("%d advisories in documents, %d of packages in the feed", n, packages)
	}
	cve := out.Documents[0].Advisories[0].Aliases[0]
	var one struct{ Documents []api.Document }
	e.ok(e.get(documentsRoute+"?cves="+cve), &one)
	if len(one.Documents) == 0 || slices.ContainsFunc(one.Documents, func(d api.Document) bool {
		return slices.ContainsFunc(d.Advisories, func(a api.DocumentAdvisory) bool { return !slices.Contains(a.Aliases, cve) })
	}) {
		t.Errorf("by %s: %+v", cve, one.Documents)
	}
}

// An image's resolved vulnerabilities: one report a day, the repo by name
// among the organizations the caller sees, its tags known; several repos
// only without tags; a range of dates that is one and not too long.
func TestResolvedVulnsRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	q := func(kv ...string) string {
		v := url.Values{"start_time": {"2026-05-01T00:00:00Z"}, "end_time": {"2026-05-31T23:00:00Z"}}
		for i := 0; i < len(kv); i += 2 {
			v.Add(kv[i], kv[i+1])
		}
		return resolvedRoute + "?" + v.Encode()
	}
	var out struct{ ResolvedVulnsReports []api.ResolvedVulnsReport }
	e.ok(e.get(q("image_refs.repo", "python", "image_refs.repo", "node")), &out)
	if len(out.ResolvedVulnsReports) != 31 {
		t.Errorf("%d reports for 31 days", len(out.ResolvedVulnsReports))
	}
	e.ok(e.get(q("image_refs.repo", "python", "image_refs.tags", "latest", "image_refs.tags", "3.12")), nil)
	wantErr(t, e.get(q("image_refs.repo", "python", "image_refs.tags", "no-such-tag")), http.StatusNotFound, api.CodeNotFound)
	wantErr(t, e.get(q("image_refs.repo", "no-such-repo")), http.StatusNotFound, api.CodeNotFound)
	for query, field := range map[string]string{
		q(): "image_refs",
		q("image_refs.repo", "python", "image_refs.repo", "node", "image_refs.tags", "latest"):                  "image_refs",
		resolvedRoute + "?image_refs.repo=python&end_time=2026-05-01T00:00:00Z":                                 "start_time",
		resolvedRoute + "?image_refs.repo=python&start_time=2026-05-01T00:00:00Z&end_time=may":                  "end_time",
		resolvedRoute + "?image_refs.repo=python&start_time=2026-05-01T00:00:00Z&end_time=2026-04-01T00:00:00Z": "end_time",
		resolvedRoute + "?image_refs.repo=python&start_time=2024-05-01T00:00:00Z&end_time=2026-04-01T00:00:00Z": "end_time",
	} {
		s := wantErr(t, e.get(query), http.StatusBadRequest, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != field {
			t.Errorf("%s refused on %s, want %s", query, f, field)
		}
	}
}

// What an image ships: itself, its runtime's packages, the system's
// (but static, which has none of them), never another image.
func TestShips(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		image, artifact, typ string
		want                 bool
	}{
		{"python", "python", "image", true}, {"python", "python-3.12-dev", "package", true}, {"python", "py3-requests", "package", true},
		{"python", "openssl", "package", true}, {"static", "openssl", "package", false}, {"python", "nodejs-22", "package", false},
		{"nginx", "nginx", "package", true}, {"nginx", "redis", "package", false}, {"go", "go-1.24", "package", true},
		{"python", "python-fips", "image", false},
	} {
		if got := ships(c.image, &api.Advisory{ArtifactName: c.artifact, ArtifactType: c.typ}); got != c.want {
			t.Errorf("%s ships %s %s: %v", c.image, c.typ, c.artifact, got)
		}
	}
}
