package ui

import (
	"fmt"
	"testing"

	"canopy/api"
)

func TestArtifactOfARepo(t *testing.T) {
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
	ts := newTagSets()
	page := make([]api.Tag, 1000)
	for r := range maxRepos + 2 {
		repo := fmt.Sprintf("org/repo%d", r)
		for p := 0; p < maxIndexed/1000+3; p++ {
			for i := range page {
				page[i] = api.Tag{UID: fmt.Sprintf("%s/t%d-%d", repo, p, i), Name: "x", Digest: "sha256:1"}
			}
			ts.add(repo, 0, page, 1_000_000)
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
