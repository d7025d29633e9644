package ui

import (
	"context"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/views/detail"
)

func TestArtifactOfARepo(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		repo, artifact string
		want           bool
	}{
		{"python", "python", true}, {"python", "python-3.13", true}, {"go", "go-1.24", true},
		{"node", "node-exporter", false}, {"node", "nodejs-22", false}, {"go", "go-", false}, {"python", "py3-requests", false},
	} {
		if got := artifactOf(c.repo, c.artifact); got != c.want {
			t.Errorf("artifactOf(%q, %q) = %v", c.repo, c.artifact, got)
		}
	}
}

// What tagSets keeps is bounded: maxIndexed tags per repo, maxRepos repos.
func TestTagSetsAreBounded(t *testing.T) {
	t.Parallel()
	ts := newTagSets()
	page := make([]api.Tag, 1000)
	for r := range maxRepos + 2 {
		repo := fmt.Sprintf("org/repo%d", r)
		for p := 0; p < maxIndexed/1000+3; p++ {
			for i := range page {
				page[i] = api.Tag{UID: fmt.Sprintf("%s/t%d-%d", repo, p, i), Name: "x", Digest: "sha256:1"}
			}
			ts.add(repo, page, 1_000_000)
		}
	}
	if len(ts.repos) != maxRepos {
		t.Errorf("%d repos kept, want %d", len(ts.repos), maxRepos)
	}
	for uid, r := range ts.repos {
		if len(r.tags) != maxIndexed {
			t.Errorf("%s: %d tags kept, want %d", uid, len(r.tags), maxIndexed)
		}
	}
	known := ts.known(&api.Tag{UID: fmt.Sprintf("org/repo%d/new", maxRepos+1), Digest: "sha256:1"}, "repo")
	if known == nil || known.Searched != maxIndexed || known.Of != 1_000_000 || !known.Partial {
		t.Errorf("known: %+v", known)
	}
}

// repoWithTags is a repo of the seeded emulator and two of its tags.
func repoWithTags(t *testing.T, c *api.Client, org string) (string, []api.Tag) {
	t.Helper()
	ctx := context.Background()
	repos, err := c.ListRepos(ctx, api.ListOptions{DescendantsOf: org, PageSize: api.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range repos.Items {
		tags, err := c.ListTags(ctx, api.ListOptions{ChildrenOf: r.UID, PageSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(tags.Items) == 2 {
			return r.UID, tags.Items
		}
	}
	t.Fatal("no repo with two tags")
	return "", nil
}

// relAnswer is a detail's message for the relations of a tag.
type relAnswer struct {
	rel detail.Related
	err error
}

func replyWith(rel detail.Related, err error) tea.Msg { return relAnswer{rel, err} }

// One search per repo answers every detail that asked while it ran; once
// it is done, the next detail is answered without a request; a search the
// repo was forgotten during is run again. Only Update (here: the test)
// touches the sets: the search's command returns what it found.
func TestOneSearchPerRepoAnswersEveryDetailThatAsked(t *testing.T) {
	t.Parallel()
	srv, c := newEmulator(t, emulator.Options{Seed: 1})
	repo, tags := repoWithTags(t, c, srv.OrgUID())
	ctx := context.Background()
	ts := newTagSets()
	search := ts.ask(c, relatedAsk{ctx: ctx, tag: &tags[0], reply: replyWith})
	if search == nil {
		t.Fatal("nothing known, and no search")
	}
	if again := ts.ask(c, relatedAsk{ctx: ctx, tag: &tags[1], reply: replyWith}); again != nil {
		t.Fatal("a second search of the same repo while the first runs")
	}
	answers, again := ts.searched(search().(searchedMsg))
	if again != nil || len(answers) != 2 {
		t.Fatalf("%d answers (again: %v), want 2", len(answers), again != nil)
	}
	for _, a := range answers {
		if a := a.(relAnswer); a.err != nil || a.rel.Partial || a.rel.Searched == 0 || a.rel.Searched != a.rel.Of {
			t.Errorf("answer %+v", a)
		}
	}
	if _, ok := ts.ask(c, relatedAsk{ctx: ctx, tag: &tags[0], reply: replyWith})().(relAnswer); !ok {
		t.Error("a repo searched in full is searched again")
	}

	ts.forget(repo)
	search = ts.ask(c, relatedAsk{ctx: ctx, tag: &tags[0], reply: replyWith})
	msg := search().(searchedMsg)
	ts.forget(repo) // a tag was deleted while the search ran
	if answers, again := ts.searched(msg); len(answers) != 0 || again == nil {
		t.Errorf("a search of a forgotten repo was kept (%d answers) or not run again", len(answers))
	}
}
