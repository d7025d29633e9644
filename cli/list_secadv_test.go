package cli

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"canopy/api"
)

// TestListDocuments: the advisory documents by package, as :documents
// shows them, one package's with --repo (sent as the service's id); JSON
// is the service's documents, each event's kind its key.
func TestListDocuments(t *testing.T) {
	t.Parallel()
	getenv, seen := recordingEnv(t)
	out, errs, code := list(t, getenv, "documents")
	if code != 0 || !regexp.MustCompile(`^PACKAGE +NAMESPACE +ADVISORIES +OPEN +ALIASES +UPDATED\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	if !regexp.MustCompile(`(?m)^openssl +wolfi +[0-9]+ +[0-9]+ +CVE-`).MatchString(out) {
		t.Errorf("no row of openssl:\n%s", out)
	}
	docs := listJSON[api.Document](t, getenv, "documents")
	if pkgs := column(t, out, "PACKAGE"); len(docs) != len(pkgs) || docs[0].ID != pkgs[0] {
		t.Fatalf("%d documents in JSON, %d rows", len(docs), len(pkgs))
	}
	out, errs, code = list(t, getenv, "documents", "--repo", "openssl")
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.HasPrefix(strings.Split(out, "\n")[1], "openssl ") {
		t.Errorf("--repo openssl: exit %d %s\n%s", code, errs, out)
	}
	if !slices.ContainsFunc(*seen, func(q string) bool { return q == "/advisory/v2/documents?id=openssl" }) {
		t.Errorf("--repo was not sent as the package: %v", *seen)
	}
	one := listJSON[api.Document](t, getenv, "documents", "--repo", "openssl")
	if len(one) != 1 || len(one[0].Advisories) == 0 || one[0].Advisories[0].Events[0].Kind != api.EventDetection {
		t.Errorf("JSON of openssl: %+v", one)
	}
	if out, errs, code := list(t, getenv, "documents", "--max-items", "3"); code != 1 || strings.Count(out, "\n") != 4 ||
		!strings.Contains(errs, "stopped after 3 advisory documents") {
		t.Errorf("--max-items 3: exit %d %s\n%s", code, errs, out)
	}
}

// TestListVulnerabilities: every vulnerability id the feed names, by id,
// with its score and summary.
func TestListVulnerabilities(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "vulnerabilities")
	if code != 0 || !regexp.MustCompile(`^ID +SCORE +RATING +SUMMARY +REFS\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	ids := column(t, out, "ID")
	if len(ids) < 100 || !slices.IsSorted(ids) {
		t.Errorf("%d ids, sorted %v", len(ids), slices.IsSorted(ids))
	}
	vs := listJSON[api.VulnerabilityMetadata](t, getenv, "vulnerabilities")
	if len(vs) != len(ids) || vs[0].ID != ids[0] || vs[0].Summary == "" || len(vs[0].References) == 0 {
		t.Errorf("JSON: %d, first %+v", len(vs), vs[0])
	}
}
