package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"canopy/api"
	"canopy/census"
)

// heldAt is what every identity holds at a folder, computed here from
// the client's own listings: a binding applies on its folder and on
// every folder below it.
func heldAt(t *testing.T, c *api.Client, org, folder string) map[string]map[string]bool {
	t.Helper()
	ctx := t.Context()
	roles, err := c.RolesOf(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	caps := map[string][]string{}
	for _, r := range roles {
		caps[r.UID] = r.Capabilities
	}
	out := map[string]map[string]bool{}
	for b, err := range api.NewCursor(c.ListRoleBindings, api.ListOptions{DescendantsOf: org, PageSize: 50}, api.RoleBindingKey).All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if on := b.Group.UID; on != folder && !strings.HasPrefix(folder, on+"/") {
			continue
		}
		name := b.Identity.Name
		if out[name] == nil {
			out[name] = map[string]bool{}
		}
		for _, c := range caps[b.Role.UID] {
			out[name][c] = true
		}
	}
	return out
}

// cellsOf are the matrix cells a set of capabilities makes.
func cellsOf(held map[string]bool) []string {
	var out []string
	for _, g := range census.Groups() {
		n := 0
		for _, c := range g.Caps {
			if held[c] {
				n++
			}
		}
		switch {
		case n == 0:
			out = append(out, "·")
		case n == len(g.Caps):
			out = append(out, "all")
		default:
			out = append(out, "some")
		}
	}
	return out
}

// TestAccessMatrixAgreesWithTheServer: :access at the organization and
// at a folder lists every identity holding something there, each cell
// what its bindings (on the folder and above it) grant; enter shows the
// grants behind the row, inherited ones said so.
func TestAccessMatrixAgreesWithTheServer(t *testing.T) {
	t.Parallel()
	h := watchedShell(t, 140, 50)
	h.waitText("platform")
	org := h.srv.OrgUID()
	payments := ""
	for g, err := range api.NewCursor(h.client.ListGroups, api.ListOptions{DescendantsOf: org}, api.GroupKey).All(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		if g.Name == "payments" {
			payments = g.UID
		}
	}
	for _, c := range []struct{ command, folder string }{{"access", org}, {"access apps/payments", payments}} {
		want := heldAt(t, h.client, org, c.folder)
		typeCommand(h.harness, c.command)
		s := h.waitFor("the matrix", func(s string) bool {
			return strings.Contains(line(s, "canopy  "), "access at") && strings.Contains(s, fmt.Sprintf("of %d ·", len(want))) && !h.m.busy()
		})
		for name, held := range want {
			got := strings.Fields(line(s, " "+name+" "))
			if len(got) < 9 || !slices.Equal(got[1:9], cellsOf(held)) {
				t.Errorf("%s: %s's row %q, want %q", c.command, name, got, cellsOf(held))
			}
		}
	}
	// payments-ci is bound editor on apps/payments: its grants there are
	// its own; at apps/payments, alice's owner is inherited.
	h.typeText("/alice")
	h.keys("enter")
	h.waitText("/alice")
	h.keys("enter")
	s := h.waitText("pull of alice at apps/payments", "tag.create (CAP_TAG_CREATE): owner on acme.example (inherited)")
	if !strings.Contains(s, "role_bindings.create (CAP_IAM_ROLE_BINDINGS_CREATE): owner on acme.example (inherited)") {
		t.Errorf("the grants page:\n%s", s)
	}
	// The cell cursor: → moves it to PUSH, whose grants enter shows first.
	h.keys("esc")
	h.waitText("access at apps/payments")
	h.keys("l")
	h.keys("enter")
	s = h.waitText("push of alice at apps/payments")
	if push, pull := strings.Index(s, "manifest.create"), strings.Index(s, "repo.blobs.get"); push < 0 || pull < 0 || push > pull {
		t.Errorf("the push grants are not first:\n%s", s)
	}
}

// TestAccessFollowsABindMadeHere: w on a folder shows who holds what
// there; a binding made here then shows in it at once, without listing
// the bindings again.
func TestAccessFollowsABindMadeHere(t *testing.T) {
	t.Parallel()
	h, atWeb := webMatrix(t)
	s := h.waitFor("the matrix of web", atWeb)
	if strings.Contains(s, " carol ") && strings.Contains(line(s, " carol "), "all  all") {
		t.Fatalf("carol pushes in web already:\n%s", s)
	}
	bindings := h.count("/iam/v2/roleBindings")
	h.keys("esc")
	h.waitText("details: web")
	h.keys("b")
	h.waitText("Bind which identity on web?")
	h.typeText("carol")
	h.keys("enter")
	h.waitText("Which role for carol")
	h.typeText("editor")
	h.keys("enter")
	h.waitText("Bind editor to carol on")
	h.keys("enter")
	h.waitText("bound editor → carol")
	h.keys("w")
	s = h.waitFor("carol pushing in web", func(s string) bool {
		return strings.Contains(line(s, "canopy  "), "access at web") && len(strings.Fields(line(s, " carol "))) > 2 &&
			strings.Fields(line(s, " carol "))[2] == "all"
	})
	if got := h.count("/iam/v2/roleBindings"); got != bindings {
		t.Errorf("the bindings were listed %d times more after the bind", got-bindings)
	}
	if row := line(s, " carol "); !strings.Contains(row, "all") {
		t.Errorf("carol's row %q", row)
	}
}

// TestAccessChangeShownAlreadyReadsNothing: a matrix opened after a change
// to the review, whose message comes after it opened (a bind's, on a busy
// machine), loads the review as changed here: it does not read the
// organization's bindings again. r still does.
func TestAccessChangeShownAlreadyReadsNothing(t *testing.T) {
	t.Parallel()
	h, atWeb := webMatrix(t)
	h.waitFor("the matrix of web", atWeb)
	bindings := h.count("/iam/v2/roleBindings")
	h.send(accessChanged())
	h.waitFor("the matrix loaded again", atWeb)
	if got := h.count("/iam/v2/roleBindings"); got != bindings {
		t.Errorf("a change shown already read the bindings %d times more", got-bindings)
	}
	h.keys("r")
	h.waitFor("r to read the bindings again", func(s string) bool {
		return atWeb(s) && h.count("/iam/v2/roleBindings") == bindings+1
	})
}

// webMatrix is a watched shell asked for the access matrix of apps/web
// (w), and what says the matrix is shown, loaded.
func webMatrix(t *testing.T) (*watched, func(string) bool) {
	t.Helper()
	h := watchedShell(t, 140, 50)
	h.waitText("platform")
	h.moveTo("apps")
	h.keys("l")
	h.moveTo("web")
	h.keys("w")
	return h, func(s string) bool { return strings.Contains(line(s, "canopy  "), "access at web") && !h.m.busy() }
}
