package api

import (
	"slices"
	"testing"
)

// A repo is named by uid, by path or by name; a name several repos share
// picks none, and a path picks the one there.
func TestRepoRefPicksTheRepoItNames(t *testing.T) {
	const org = "0123456789abcdef0123456789abcdef01234567"
	base, sec, top := org+"/1111111111111111", org+"/2222222222222222", org
	repos := []Repo{{UID: base + "/aaaaaaaaaaaaaaaa", Name: "python"}, {UID: sec + "/bbbbbbbbbbbbbbbb", Name: "python"},
		{UID: top + "/cccccccccccccccc", Name: "python"}}
	folder := map[string]string{base: "platform/base-images", sec: "security", top: "acme.example"}
	pathOf := func(r *Repo) string { return folder[ParentUID(r.UID)] + "/" + r.Name }
	if ref := ParseRepoRef(org, repos[0].UID); ref.UID != repos[0].UID {
		t.Errorf("a repo's uid reads as %+v", ref)
	}
	if ref := ParseRepoRef(org, org); ref.UID != "" || ref.Name != org {
		t.Errorf("the organization's own uid reads as a repo's: %+v", ref)
	}
	for _, c := range []struct {
		arg  string
		want int // index in repos; -1: none
	}{
		{"platform/base-images/python", 0}, {"security/python", 1}, {"/security/python/", -1},
		{"acme.example/python", 2}, {"/python", 2}, {"python", -1}, {"platform/python", -1},
	} {
		ref := ParseRepoRef(org, c.arg)
		got, paths := ref.Pick(repos, "acme.example", pathOf)
		switch {
		case c.want < 0 && got != nil:
			t.Errorf("%q picks %s, want none", c.arg, got.UID)
		case c.want >= 0 && (got == nil || got.UID != repos[c.want].UID):
			t.Errorf("%q picks %v, want %s", c.arg, got, repos[c.want].UID)
		case got == nil && !slices.Equal(paths, []string{"acme.example/python", "platform/base-images/python", "security/python"}):
			t.Errorf("%q: candidates %q", c.arg, paths)
		}
	}
	if got, _ := ParseRepoRef(org, "python").Pick(repos[1:2], "acme.example", pathOf); got == nil || got.UID != repos[1].UID {
		t.Errorf("the only repo of a name is not picked: %v", got)
	}
}
