package ui

import (
	"slices"
	"testing"

	"canopy/api"
)

// A breadcrumb too long for the header drops its middle titles before it
// cuts the top screen's.
func TestBreadcrumbKeepsTheEnds(t *testing.T) {
	t.Parallel()
	titles := []string{"acme.example", "repos of platform", "tags of nginx", "nginx:1.27"}
	for _, tc := range []struct {
		w    int
		want string
	}{
		{80, "acme.example › repos of platform › tags of nginx › nginx:1.27"},
		{50, "acme.example › … › tags of nginx › nginx:1.27"},
		{34, "acme.example › … › nginx:1.27"},
		{16, "… › nginx:1.27"},
		{10, "… › nginx…"},
	} {
		if got := breadcrumb(titles, tc.w, "…"); got != tc.want {
			t.Errorf("%d wide: %q, want %q", tc.w, got, tc.want)
		}
	}
	if got := breadcrumb([]string{"acme.example"}, 6, "…"); got != "acme.…" {
		t.Errorf("one title, 6 wide: %q", got)
	}
}

// The folder pickers list the organization, then the folders by path as
// the tree has them, whatever order the server listed them in.
func TestGroupOptionsFollowTheTree(t *testing.T) {
	t.Parallel()
	groups := []api.Group{{UID: "org/d", Name: "data"}, {UID: "org/d/m", Name: "ml"}, {UID: "org/p", Name: "platform"},
		{UID: "org/dl", Name: "data-lake"}, {UID: "org", Name: "acme"}, {UID: "org/a", Name: "Apps"}, {UID: "org/a/w", Name: "web"}}
	var got []string
	for _, o := range groupOptions(groups) {
		got = append(got, string(o.Label))
	}
	want := []string{"acme (organization)", "Apps", "Apps/web", "data", "data/ml", "data-lake", "platform"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
