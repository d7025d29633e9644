package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"canopy/api"
	"canopy/cli/exit"
)

// --filter searches the REPO column as `/` does in the UI's table of tags:
// the tags of redis are found by their repo, and !redis drops them.
func TestListFilterSearchesTheRepoColumn(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "tags", "--filter", "redis")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	byRepo := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "redis" {
			byRepo++
		}
	}
	if byRepo == 0 {
		t.Errorf("no redis tag found by its repo:\n%.600s", out)
	}
	out, _, _ = list(t, getenv, "tags", "--filter", "!redis")
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "redis" {
			t.Fatalf("!redis kept %q", l)
		}
	}
}

// TestListTagsJSONReadsRepoNamesOnlyForAFilter: JSON has no REPO column,
// so `tags -o json` lists no repo; --filter searches the REPO column in
// JSON as in a table, so it finds redis's tags by their repo there too.
func TestListTagsJSONReadsRepoNamesOnlyForAFilter(t *testing.T) {
	t.Parallel()
	getenv, seen := recordingEnv(t)
	tags := listJSON[api.Tag](t, getenv, "tags")
	for _, s := range *seen {
		if strings.HasPrefix(s, "/registry/v2/repos") {
			t.Errorf("tags -o json listed the repos: %s", s)
		}
	}
	repos := listJSON[api.Repo](t, getenv, "repos")
	redis := ""
	for _, r := range repos {
		if r.Name == "redis" {
			redis = r.UID
		}
	}
	byRepo := 0
	for _, tag := range listJSON[api.Tag](t, getenv, "tags", "--filter", "redis") {
		if api.ParentUID(tag.UID) == redis {
			byRepo++
		}
	}
	if len(tags) == 0 || redis == "" || byRepo == 0 {
		t.Errorf("%d tags, redis %q: %d of its tags found by --filter redis in JSON", len(tags), redis, byRepo)
	}
}

// TestListTagsWhenReposFail: the repos' names are looked up as the pages
// of tags arrive; when they cannot be, a table (and --filter, which searches them) fails
// saying so, with nothing printed, while JSON, which needs none, lists
// the tags.
func TestListTagsWhenReposFail(t *testing.T) {
	t.Parallel()
	org := strings.Repeat("a", 40)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /iam/v2/groups/{uid}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"uid":"` + r.PathValue("uid") + `","name":"org"}`))
	})
	mux.HandleFunc("GET /registry/v2/repos", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"code":7,"message":"no repos for you"}`))
	})
	mux.HandleFunc("GET /registry/v2/tags", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"tags":[{"uid":"` + org + `/0123456789abcdef/fedcba9876543210","name":"latest","digest":"sha256:00"}]}`))
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "t", "CANOPY_ORG": org})
	for _, args := range [][]string{{"tags"}, {"tags", "-o", "json", "--filter", "lat"}} {
		out, errs, code := list(t, getenv, args...)
		if code != exit.Failure || out != "" || !strings.Contains(errs, "list repos for the REPO column: ") || !strings.Contains(errs, "no repos for you") {
			t.Errorf("%v: exit %d, printed %q, stderr %q", args, code, out, errs)
		}
	}
	if out, errs, code := list(t, getenv, "tags", "-o", "json"); code != exit.OK || !strings.Contains(out, `"name": "latest"`) {
		t.Errorf("tags -o json: exit %d, printed %q, stderr %q", code, out, errs)
	}
}

// TestListFilterFindsTheSameRowsInJSON: --filter searches the columns a
// table shows in place of uids (FOLDER, REPO, a mapping's ROLE and
// PROVIDER, who accepted terms) in JSON too, so that both print the same
// rows: platform's repos by their folder, a role's mappings by its name.
func TestListFilterFindsTheSameRowsInJSON(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	for _, c := range []struct{ kind, filter string }{
		{"repos", "platform"}, {"groups", "platform"}, {"identities", "platform"}, {"roles", "acme"},
		{"mappings", "viewer"}, {"tags", "redis"},
	} {
		table, errs, code := list(t, getenv, c.kind, "--filter", c.filter)
		if code != exit.OK {
			t.Fatalf("%s --filter %s: exit %d: %s", c.kind, c.filter, code, errs)
		}
		rows := rowsOf(table)
		if table == "" {
			rows = nil
		}
		var byName int
		for _, r := range rows {
			if strings.Contains(strings.ToLower(strings.Fields(r)[0]), c.filter) {
				byName++
			}
		}
		elems := listJSON[map[string]any](t, getenv, c.kind, "--filter", c.filter)
		if len(elems) != len(rows) || len(rows) == byName {
			t.Errorf("%s --filter %s: %d rows in a table (%d by their name), %d in JSON", c.kind, c.filter, len(rows), byName, len(elems))
		}
	}
}
