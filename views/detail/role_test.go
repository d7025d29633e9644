package detail

import (
	"context"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/theme"
	"canopy/views"
	"canopy/views/capabilities"
)

// A role's page groups its capabilities by the catalogue's domains, in
// its order, counting what it holds of each, with one the catalogue lacks
// apart; HELD BY lists who holds it where, read lazily.
func TestRolePageGroupsCapabilitiesAndListsHolders(t *testing.T) {
	cat := []capabilities.Option{
		{Name: "CAP_IAM_IDENTITY_CREATE", Short: "identity.create", Domain: "identities"},
		{Name: "CAP_IAM_IDENTITY_LIST", Short: "identity.list", Domain: "identities"},
		{Name: "CAP_REPO_LIST", Short: "repo.list", Domain: "registry: repos"},
		{Name: "CAP_TAG_LIST", Short: "tag.list", Domain: "registry: tags"},
	}
	held := []string{"CAP_TAG_LIST", "CAP_SIGSTORE_LIST", "CAP_IAM_IDENTITY_LIST"}
	groups := RoleGroups(cat, held)
	if len(groups) != 3 || groups[0].Domain != "identities" || groups[0].Of != 2 || groups[1].Short[0] != "tag.list" ||
		groups[2].Domain != otherDomain || groups[2].Short[0] != "CAP_SIGSTORE_LIST" {
		t.Fatalf("groups %+v", groups)
	}
	bindings := []api.RoleBinding{
		{UID: "org/b2", Identity: &api.BindingIdentity{Name: "zed"}, Group: &api.Ref{Name: "platform"}, CreateTime: api.TimeOf(now.Add(-time.Hour))},
		{UID: "org/b1", Identity: &api.BindingIdentity{Name: "alice"}, Group: &api.Ref{Name: "acme.example"}, CreateTime: api.TimeOf(now.Add(-48 * time.Hour))},
	}
	page := RolePage(RoleSources{Catalogue: cat, Bindings: func(context.Context, string) ([]api.RoleBinding, error) { return bindings, nil }})
	kind := func(any) *Kind {
		return &Kind{UID: func(any) string { return "org/r" }, Title: func(any) safe.Text { return "auditor" }, Page: page}
	}
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default(), Now: func() time.Time { return now }}
	m := NewPage(context.Background(), common, Fetch{Kind: kind}, &api.Role{UID: "org/r", Name: "auditor", Capabilities: held})
	m.SetSize(80, 30)
	settle(t, m, m.Init())
	s := screen(m)
	for _, want := range []string{"capabilities  3 in 3 domains", "identities 1/2", "identity.list", "registry: tags 1/1",
		"not in the catalogue", "CAP_SIGSTORE_LIST", "HELD BY"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q:\n%s", want, s)
		}
	}
	if a, z := strings.Index(s, "alice"), strings.Index(s, "zed"); a < 0 || z < a || !strings.Contains(s, "acme.example") {
		t.Errorf("the holders, by name:\n%s", s)
	}
	for _, l := range strings.Split(m.View(), "\n") {
		if text.Width(l) > 80 {
			t.Errorf("a line wider than 80: %q", l)
		}
	}
}
