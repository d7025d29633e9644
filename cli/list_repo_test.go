package cli

import (
	"net/http/httptest"
	"strings"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/cli/exit"
)

// TestListTagsOfARepoNameTwoFoldersShare: repos in different folders may
// share a name. canopy list tags --repo NAME then lists neither: it says
// the name is ambiguous, naming each repo's path and uid (exit 2); the
// path or the uid picks one.
func TestListTagsOfARepoNameTwoFoldersShare(t *testing.T) {
	t.Parallel()
	// An emulator of its own: the test adds a repo.
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: "list-token"})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken("list-token", "test")})
	if err != nil {
		t.Fatal(err)
	}
	// python is in platform/base-images; another python goes into
	// security.
	var security string
	for _, g := range readAll(t, client.ListGroups, api.GroupKey, api.ListOptions{ChildrenOf: srv.OrgUID()}) {
		if g.Name == "security" {
			security = g.UID
		}
	}
	other, err := client.CreateRepo(t.Context(), security, api.Repo{Name: "python"})
	if err != nil {
		t.Fatal(err)
	}
	first := readAll(t, client.ListRepos, api.RepoKey, api.ListOptions{DescendantsOf: srv.OrgUID(), Name: "python"})
	if len(first) != 2 {
		t.Fatalf("%d repos named python, want 2", len(first))
	}
	out, errs, code := list(t, getenv, "tags", "--repo", "python")
	if code != exit.Usage || out != "" {
		t.Fatalf("--repo python: exit %d, printed %q; want %d and nothing", code, out, exit.Usage)
	}
	for _, want := range []string{`--repo "python" names 2 repos of acme.example: `, "security/python (uid " + other.UID + ")", "; choose one by path or uid"} {
		if !strings.Contains(errs, want) {
			t.Errorf("--repo python said %q, want %q", errs, want)
		}
	}

	// The new repo has no tags: by path or uid, its listing is the
	// header alone; the first python, by path, has its tags.
	for _, pick := range []string{"security/python", other.UID} {
		out, errs, code = list(t, getenv, "tags", "--repo", pick)
		if code != 0 || strings.Count(strings.TrimSpace(out), "\n") != 0 {
			t.Errorf("--repo %s: exit %d %q, printed\n%s\nwant the header alone", pick, code, errs, out)
		}
	}
	out, errs, code = list(t, getenv, "tags", "--repo", "platform/base-images/python")
	if code != 0 || strings.Count(out, "\n") < 2 {
		t.Errorf("--repo platform/base-images/python: exit %d %q, printed\n%s", code, errs, out)
	}
	if _, errs, code = list(t, getenv, "tags", "--repo", "data/python"); code != exit.Failure ||
		!strings.Contains(errs, `no repo at "data/python" in acme.example; the repos named "python" are platform/base-images/python (uid `) {
		t.Errorf("--repo data/python: exit %d %q", code, errs)
	}
}
