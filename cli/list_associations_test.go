package cli

import (
	"regexp"
	"strings"
	"testing"

	"canopy/api"
)

// TestListAssociations: the organization's account associations as
// :associations shows them: its own first, each with the path of the
// folder it belongs to, its providers and accounts; JSON is the API's
// resources, each with its folder's uid.
func TestListAssociations(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	out, errs, code := list(t, getenv, "associations")
	if code != 0 || !regexp.MustCompile(`^NAME +FOLDER +PROVIDERS +ACCOUNTS +UPDATED\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	rows := strings.Split(strings.TrimRight(out, "\n"), "\n")[1:]
	if len(rows) != 5 || !regexp.MustCompile(`^acme-chainguard +acme\.example +github, chainguard +github acme · chainguard 2 services `).MatchString(rows[0]) {
		t.Fatalf("the organization's own is not first:\n%s", out)
	}
	for _, row := range []string{`platform-aws +platform +aws, github +aws 123456789012 · github acme-platform, acme-tools`,
		`ml-sandbox +data/ml +gcp +gcp acme-ml-sandbox`, `payments-clouds +apps/payments +aws, azure +aws 731946285017 · azure 5b8e2c41`,
		`security-audit +security +aws +aws 480215663917`} {
		if !regexp.MustCompile(`(?m)^` + row).MatchString(out) {
			t.Errorf("no row %s:\n%s", row, out)
		}
	}
	as := listJSON[api.AccountAssociation](t, getenv, "associations")
	if len(as) != 5 || as[0].UID != srv.OrgUID() || as[0].Chainguard == nil || as[1].UID == srv.OrgUID() {
		t.Errorf("JSON: %+v", as)
	}
	if out, _, code := list(t, getenv, "associations", "--filter", "azure"); code != 0 || strings.Count(out, "\n") != 2 ||
		!strings.Contains(out, "payments-clouds") {
		t.Errorf("--filter azure (a provider): exit %d\n%s", code, out)
	}
}

// TestListTerms: the documents the organization accepted, newest first,
// the version apart from the document, who accepted by name and email as
// :terms shows it.
func TestListTerms(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "terms")
	if code != 0 || !regexp.MustCompile(`^DOCUMENT +VERSION +ACCEPTED BY +ACCEPTED\nchainguard-tos +3 +alice <alice@acme\.example> +\S.*\n$`).MatchString(out) {
		t.Fatalf("exit %d %s\n%q", code, errs, out)
	}
	ts := listJSON[api.TermsAcceptance](t, getenv, "terms")
	if len(ts) != 1 || ts[0].DocID != "chainguard-tos.v3" || ts[0].AcceptedBy == "alice" {
		t.Errorf("JSON: %+v", ts)
	}
}
