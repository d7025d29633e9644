package ui

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"canopy/api"
)

// roleNamed reads the role of the organization with that name.
func (h *harness) roleNamed(t *testing.T, name string) api.Role {
	t.Helper()
	roles, err := h.m.opts.Client.RolesOf(context.Background(), h.srv.OrgUID())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roles {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no role %s", name)
	return api.Role{}
}

// Custom roles are written from :roles: a built-in role's e and d say why
// not; n picks the capabilities of a new one in the picker, then its name
// and description; its page lists them by domain and who holds it; e on
// its capabilities picks them again and sends the new set, undone by u;
// d says which bindings hold it, and the service refuses a role still
// bound until they go.
func TestCustomRolesCreateEditDelete(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 120, 40)
	org := h.srv.OrgUID()
	h.waitText("platform")
	h.typeText(":roles")
	h.keys("enter")
	h.waitText("release-manager", "built-in", "custom", "1 of 10")

	// The first row is a built-in role: e and d are off, saying why.
	h.keys("e")
	h.waitText("apk.pull is built in: the service's own roles are not changed")
	h.keys("d")
	h.waitText("apk.pull is built in: the service's own roles are not deleted")
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent %+v", got)
	}

	// n: the picker, grouped by domain; the filter narrows, space chooses.
	h.keys("n")
	h.waitText("Capabilities of a new role in acme.example", "0 chosen of 154", "GROUPS  0/4", "[ ] groups.create", "create folders")
	h.keys("enter")
	h.waitText("choose one at least")
	h.typeText("tag.cr")
	h.keys("space")
	h.waitText("[x] tag.create", "REGISTRY: TAGS  1/4", "1 shown in 1 domain")
	h.keys("esc")
	h.typeText("identity.list")
	h.keys("space")
	h.waitText("[x] identity.list", "2 chosen of 154")
	h.keys("enter")
	h.waitText("New role in acme.example", "POST /iam/v2/roles/"+org, "identity.list, tag.create")
	h.typeText("deployer")
	h.keys("tab")
	h.typeText("Tags releases.")
	h.keys("enter")
	h.waitText(`created role "deployer" in acme.example`)
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Method != "POST" || got[0].Path != "/iam/v2/roles/"+org || got[0].Body["name"] != "deployer" ||
		!reflect.DeepEqual(got[0].Body["capabilities"], []any{"CAP_IAM_IDENTITY_LIST", "CAP_TAG_CREATE"}) {
		t.Fatalf("requests %+v", got)
	}
	deployer := h.roleNamed(t, "deployer")

	// The new row is under the cursor: its page, the capabilities by
	// domain, nobody holding it yet.
	h.waitFor("the new row", func(s string) bool {
		return strings.Contains(line(s, "deployer"), "custom") && strings.Contains(s, "of 11")
	})
	h.keys("enter")
	s := h.waitText("capabilities  2 in 2 domains", "CAPABILITIES", "HELD BY", "nobody: no role binding holds it")
	if !strings.Contains(line(s, "identities 1/4"), "identity.list") || !strings.Contains(line(s, "registry: tags 1/4"), "tag.create") {
		t.Fatalf("the page does not group the capabilities:\n%s", s)
	}

	// e on the capabilities: the picker from what it grants, then the
	// form saying what the new set adds and drops; u undoes it.
	h.keys("down", "down", "e")
	h.waitText("Capabilities of deployer", "[x] identity.list", "2 chosen of 154")
	h.typeText("tag.list")
	h.keys("space", "esc")
	h.typeText("identity.list")
	h.keys("space", "enter")
	h.waitText("edit capabilities of deployer", "?update_mask=capabilities", "+ tag.list, − identity.list")
	h.keys("enter")
	h.waitText("capabilities of deployer changed (u undoes)")
	h.waitFor("the page's new capabilities", func(s string) bool {
		return strings.Contains(line(s, "registry: tags 2/4"), "tag.create  tag.list") && !strings.Contains(s, "identities 1/4")
	})
	got = last(reqs, mu)
	if p := got[len(got)-1]; p.Method != "PATCH" || p.Path != "/iam/v2/roles/"+deployer.UID+"?update_mask=capabilities" ||
		!reflect.DeepEqual(p.Body, map[string]any{"capabilities": []any{"CAP_TAG_CREATE", "CAP_TAG_LIST"}}) {
		t.Fatalf("request %+v", p)
	}
	h.keys("u")
	h.waitText("undid capabilities of deployer")
	h.waitFor("the capabilities back", func(s string) bool { return strings.Contains(line(s, "identities 1/4"), "identity.list") })

	// Bound, the dialog names who holds it, and the service refuses.
	carol, err := h.m.opts.Client.FindIdentity(context.Background(), org, "carol")
	if err != nil || carol == nil {
		t.Fatal(carol, err)
	}
	b, err := h.m.opts.Client.CreateRoleBinding(context.Background(), org, api.CreateRoleBinding{IdentityUID: carol.UID, RoleUID: deployer.UID})
	if err != nil {
		t.Fatal(err)
	}
	h.keys("r")
	h.waitFor("carol holding it", func(s string) bool { return strings.Contains(line(s, "carol"), "acme.example") })
	h.keys("d")
	h.waitText("Delete role deployer?", "deployer is held by 1 role binding: carol → acme.example",
		"A role still bound is refused: delete its bindings first.")
	h.keys("y")
	h.waitText(`role "deployer" is still bound: 1 role binding holds it`)
	h.keys("esc")
	if _, err := h.m.opts.Client.GetRole(context.Background(), deployer.UID); err != nil {
		t.Fatalf("the role is gone: %v", err)
	}

	// Unbound, it goes: the page closes, the row leaves the table.
	if err := h.m.opts.Client.DeleteRoleBinding(context.Background(), b.UID); err != nil {
		t.Fatal(err)
	}
	h.waitText("HELD BY")
	h.keys("d")
	h.waitText("Delete role deployer?", "No role binding holds it")
	h.keys("y")
	h.waitText("deleted role deployer")
	h.waitFor("the row gone", func(s string) bool {
		return !strings.Contains(tableBody(s), "deployer") && strings.Contains(s, "of 10")
	})
	got = last(reqs, mu)
	if d := got[len(got)-1]; d.Method != "DELETE" || d.Path != "/iam/v2/roles/"+deployer.UID {
		t.Fatalf("request %+v", d)
	}
}

// A built-in role's page says why it is not changed, and n starts a
// custom role from its capabilities.
func TestBuiltInRolePageOffersNewFromIt(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 120, 40)
	h.waitText("platform")
	h.typeText(":roles")
	h.keys("enter")
	h.waitText("registry.pull", "1 of 10")
	h.typeText("/registry.pull")
	h.keys("enter", "enter")
	s := h.waitText("built-in: the service's own, not changed", "CAPABILITIES", "HELD BY", "pull-token-prod", "gitlab-ci-infra")
	if !strings.Contains(line(s, "registry: repos 2/6"), "repo.list  repo.blobs.get") || !strings.Contains(line(s, "pull-token-prod"), "acme.example") {
		t.Fatalf("the page of registry.pull:\n%s", s)
	}
	h.keys("e")
	h.waitText("registry.pull is built in: the service's own roles are not changed (n makes a custom role")
	h.keys("d")
	h.waitText("registry.pull is built in: the service's own roles are not deleted")
	h.keys("n")
	h.waitText("Capabilities of a new role in acme.example, starting from registry.pull's", "5 chosen of 154", "[x] groups.list")
	h.typeText("blobs")
	h.waitText("[x] repo.blobs.get", "[ ] apk.blobs.get")
	h.keys("esc", "esc")
	h.waitText("built-in: the service's own, not changed")
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent %+v", got)
	}
}

// TestLostRoleCreateIsFoundNotSentAgain: after a lost answer the form
// looks for the role of that name, description and capabilities in the
// organization, finds it made, and sends nothing again.
func TestLostRoleCreateIsFoundNotSentAgain(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 120, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/iam/v2/roles/")
	})
	h.waitText("platform")
	h.typeText(":roles")
	h.keys("enter")
	h.waitText("release-manager", "1 of 10")
	h.keys("n")
	h.waitText("Capabilities of a new role")
	h.typeText("repo.list")
	h.keys("space", "enter")
	h.waitText("New role in acme.example", "repo.list")
	h.typeText("lost-role")
	h.keys("enter")
	h.waitText(`no answer, but the server has it: created role "lost-role" in acme.example`)
	h.settle()
	if n := posts(d, "/iam/v2/roles/"); n != 1 {
		t.Errorf("%d POSTs, want 1: %v", n, d.received())
	}
	if r, err := truth.FindRole(context.Background(), h.srv.OrgUID(), api.NewRole{Name: "lost-role", Capabilities: []string{"CAP_REPO_LIST"}}); err != nil || r == nil {
		t.Errorf("the emulator does not have it: %v %v", r, err)
	}
}

// TestLostCapabilityEditIsLookedUp: an edit of a role's capabilities whose
// answer was lost is read back, found made whatever order the set is in,
// and undone like any edit.
func TestLostCapabilityEditIsLookedUp(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 120, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/iam/v2/roles/")
	})
	h.waitText("platform")
	h.typeText(":roles")
	h.keys("enter")
	h.waitText("release-manager", "1 of 10")
	h.typeText("/release-manager")
	h.keys("enter", "enter")
	h.waitText("capabilities  6 in", "HELD BY")
	h.keys("down", "down", "e")
	h.waitText("Capabilities of release-manager", "6 chosen of 154")
	h.typeText("identity.list")
	h.keys("space", "enter")
	h.waitText("edit capabilities of release-manager", "+ identity.list")
	h.keys("enter")
	h.waitText("no answer, but the server has the new value")
	h.settle()
	var patches int
	for _, c := range d.received() {
		if strings.HasPrefix(c, "PATCH /iam/v2/roles/") {
			patches++
		}
	}
	if patches != 1 {
		t.Errorf("%d PATCHes, want 1: %v", patches, d.received())
	}
	roles, err := truth.RolesOf(context.Background(), h.srv.OrgUID())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roles {
		if r.Name == "release-manager" && !slices.Contains(r.Capabilities, "CAP_IAM_IDENTITY_LIST") {
			t.Errorf("the emulator's release-manager: %v", r.Capabilities)
		}
	}
}
