package ui

import (
	"context"
	"strings"
	"testing"

	"canopy/api"
)

// sharedPython gives the organization four more repos named python, at
// its top and in folders, the one in apps/web with a tag of its own, and
// answers the uids of the five by path.
func sharedPython(t *testing.T, c *api.Client, org string) map[string]string {
	t.Helper()
	ctx := context.Background()
	groups, err := c.ListGroups(ctx, api.ListOptions{DescendantsOf: org, PageSize: api.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	names, at := map[string]string{}, map[string]string{"acme.example": org}
	for _, g := range groups.Items {
		names[g.UID] = g.Name
	}
	for _, g := range groups.Items {
		at[pathOf(names, org, "acme.example", g.UID)] = g.UID
	}
	out := map[string]string{}
	for _, folder := range []string{"acme.example", "data/ml", "apps/web", "security"} {
		r, err := c.CreateRepo(ctx, at[folder], api.Repo{Name: "python"})
		if err != nil {
			t.Fatal(err)
		}
		out[folder+"/python"] = r.UID
	}
	if _, err := c.CreateTag(ctx, out["apps/web/python"], "web-only", "sha256:"+strings.Repeat("ab", 32)); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTagsOfARepoPath: :tags takes a repo's path or uid, as canopy list
// --repo does; a name several repos share opens nothing and says which
// repos it names and how to pick one; a wrong path says so.
func TestTagsOfARepoPath(t *testing.T) {
	t.Parallel()
	h, c := startAt(t, Start{})
	h.waitText("acme.example")
	uids := sharedPython(t, c, h.srv.OrgUID())

	h.typeText(":tags python")
	h.keys("enter")
	s := h.waitText("5 repos are named python (:tags <path> or <uid> picks one): acme.example/python, apps/web/python, data/ml/python …and 2 more")
	if strings.Contains(s, "tags of") || strings.Contains(s, "filtered") {
		t.Errorf("a shared name opened a table:\n%s", s)
	}

	h.typeText(":tags apps/web/python")
	h.keys("enter")
	s = h.waitText("tags of apps/web/python", "web-only", "1/1 loaded")
	if strings.Contains(s, "latest") {
		t.Errorf("tags of another python:\n%s", s)
	}
	h.keys("esc")

	h.typeText(":tags platform/base-images/python")
	h.keys("enter")
	h.waitText("tags of platform/base-images/python", "184/184 loaded")
	h.keys("esc")

	// The organization's own, by its name or by a leading /.
	h.typeText(":tags /python")
	h.keys("enter")
	h.waitText("tags of /python", "0/0 loaded")
	h.keys("esc")

	// By uid: the title names the repo.
	h.typeText(":tags " + uids["apps/web/python"])
	h.keys("enter")
	h.waitText("tags of python", "web-only", "1/1 loaded")
	h.keys("esc")

	h.typeText(":tags platform/ci/python")
	h.keys("enter")
	h.waitText("no repo at platform/ci/python; python is at acme.example/python, apps/web/python, data/ml/python …and 2 more")
	h.typeText(":tags platform/ci/nothing")
	h.keys("enter")
	h.waitText("no repo at platform/ci/nothing, and no repo is named nothing")
	h.typeText(":tags " + h.srv.OrgUID() + "/2ac9b0de70e3c6b6/0123456789abcdef")
	h.keys("enter")
	h.waitText("no repo has the uid " + h.srv.OrgUID() + "/2ac9b0de70e3c6b6/0123456789abcdef")
}

// TestTagsOfAPartOfAName: a plain name no repo has still filters the whole
// table by it, as before.
func TestTagsOfAPartOfAName(t *testing.T) {
	t.Parallel()
	h, _ := startAt(t, Start{Command: ":tags pyth"})
	h.waitText("no repo is named pyth: the loaded tags are filtered by it")
}
