package emulator

import (
	"net/url"
	"slices"
	"testing"
)

// TestReposByIDs: uidp.ids keeps the repos of exactly those uids, within
// the scope asked, in the list's order, and pages them like any filter.
func TestReposByIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	python, nginx := e.repoUID("python"), e.repoUID("nginx")
	// The other organization's python: named by uid, outside the scope.
	both := e.list("/registry/v2/repos", "repos", url.Values{"name": {"python"}})
	other := slices.DeleteFunc(uids(both.Items), func(u string) bool { return u == python })
	if len(other) != 1 {
		t.Fatalf("python outside %s: %v", e.org, other)
	}
	ids := []string{nginx, python, other[0], e.org + "/0000000000000000"}

	in := e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {e.org}, "uidp.ids": ids, "page_size": {"200"}})
	want := []string{nginx, python}
	if got := uids(in.Items); !sameSet(got, want) || in.TotalCount != "2" || in.NextPageToken != "" {
		t.Fatalf("ids in %s: %v (total %s, token %q), want %v", e.org, got, in.TotalCount, in.NextPageToken, want)
	}
	anywhere := e.list("/registry/v2/repos", "repos", url.Values{"uidp.ids": ids, "page_size": {"200"}})
	if got := uids(anywhere.Items); !sameSet(got, append(want, other[0])) {
		t.Fatalf("ids anywhere: %v", got)
	}
	// A page of one, then the token: the same two, each once.
	first := e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {e.org}, "uidp.ids": ids, "page_size": {"1"}})
	if len(first.Items) != 1 || first.NextPageToken == "" {
		t.Fatalf("first page of one: %v, token %q", uids(first.Items), first.NextPageToken)
	}
	second := e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {e.org}, "uidp.ids": ids, "page_size": {"1"},
		"page_token": {first.NextPageToken}})
	if got := append(uids(first.Items), uids(second.Items)...); !sameSet(got, want) || second.NextPageToken != "" {
		t.Fatalf("paged: %v, last token %q", got, second.NextPageToken)
	}
	none := e.list("/registry/v2/repos", "repos", url.Values{"uidp.ids": {e.org + "/ffffffffffffffff"}})
	if len(none.Items) != 0 || none.TotalCount != "0" {
		t.Fatalf("an unknown uid: %v", uids(none.Items))
	}
}

// sameSet reports whether got holds want's uids, each once, in any order.
func sameSet(got, want []string) bool {
	return len(got) == len(want) && !slices.ContainsFunc(want, func(u string) bool { return !slices.Contains(got, u) })
}
