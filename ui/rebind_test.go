package ui

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"canopy/api"
)

// roleUID is the uid of the organization's role of this name.
func (h *harness) roleUID(t *testing.T, name string) string {
	t.Helper()
	roles, err := h.m.opts.Client.RolesOf(context.Background(), h.srv.OrgUID())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roles {
		if r.Name == name {
			return r.UID
		}
	}
	t.Fatalf("no role %s", name)
	return ""
}

// e on a row of :bindings changes the binding's role in place: the bind
// flow's role picker (on the role it has), then the form, which previews
// the PATCH of role_uid; one PATCH carries the role's uid alone; the row
// shows the new role; u gives it back its old one, with the same mask.
func TestEditABindingsRoleAndUndo(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 40)
	h.waitText("platform")
	typeCommand(h, "bindings")
	h.waitText("role bindings of acme.example", " loaded")
	h.typeText("/carol")
	h.keys("enter")
	h.waitFor("carol's row under the cursor", func(string) bool {
		return regexp.MustCompile(`^ carol +viewer +acme\.example`).MatchString(h.selected())
	})
	h.keys("e")
	h.waitText("Which role for carol on acme.example instead of viewer?", "1 viewer", "2 editor")
	h.keys("2")
	s := h.waitText("edit role of carol on acme.example", "PATCH /iam/v2/roleBindings/", "?update_mask=role_uid", `"viewer" → "editor"`)
	if strings.Contains(s, "Which role") {
		t.Errorf("the picker stayed under the form:\n%s", s)
	}
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent before enter: %+v", got)
	}
	h.keys("enter")
	h.waitText(`role of carol on acme.example changed (u undoes): "viewer" → "editor"`)
	h.waitFor("the row with its new role", func(string) bool {
		return regexp.MustCompile(`^ carol +editor +acme\.example`).MatchString(h.selected())
	})
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Method != "PATCH" || !strings.HasSuffix(got[0].Path, "?update_mask=role_uid") ||
		len(got[0].Body) != 1 || got[0].Body["roleUid"] != h.roleUID(t, "editor") {
		t.Fatalf("requests %+v", got)
	}
	uid := strings.TrimSuffix(strings.TrimPrefix(got[0].Path, "/iam/v2/roleBindings/"), "?update_mask=role_uid")

	h.keys("u")
	h.waitText(`undid role of carol on acme.example: back to "viewer"`)
	h.waitFor("the row with its old role", func(string) bool {
		return regexp.MustCompile(`^ carol +viewer +acme\.example`).MatchString(h.selected())
	})
	got = last(reqs, mu)
	if len(got) != 2 || got[1].Method != "PATCH" || got[1].Path != got[0].Path || got[1].Body["roleUid"] != h.roleUID(t, "viewer") {
		t.Fatalf("the undo sent %+v", got)
	}
	b, err := h.m.opts.Client.GetRoleBinding(context.Background(), uid)
	if err != nil || b.Role.Name != "viewer" || b.UID != uid {
		t.Errorf("the server has %+v, %v", b, err)
	}
}

// e on a binding's page, and on its node in the tree, opens the same
// picker; esc leaves the binding as it was.
func TestEditABindingFromItsPageAndNode(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 40)
	h.waitText("platform")
	typeCommand(h, "bindings")
	h.waitText("role bindings of acme.example", " loaded")
	h.typeText("/carol")
	h.keys("enter")
	h.waitFor("carol's row under the cursor", func(string) bool { return strings.Contains(h.selected(), "carol") })
	h.keys("enter")
	h.waitText("binding viewer → carol on acme.example", "ROLE")
	h.keys("e")
	h.waitText("Which role for carol on acme.example instead of viewer?")
	h.keys("esc")
	h.waitText("binding viewer → carol on acme.example", "ROLE")
	h.keys("esc", "esc", "esc") // the page, the table's filter, the table
	h.waitText("details: acme.example")

	h.moveTo("role bindings of acme.example")
	h.keys("l")
	h.waitText("carol")
	for range 80 {
		if strings.Contains(h.screen(), "details: binding viewer → carol") {
			break
		}
		h.keys("j")
	}
	h.waitText("details: binding viewer → carol on acme.example")
	h.keys("e")
	h.waitText("Which role for carol on acme.example instead of viewer?")
	h.keys("esc")
	h.waitText("details: binding viewer → carol on acme.example")
	if got := last(reqs, mu); len(got) != 0 {
		t.Errorf("sent %+v", got)
	}
	if b, err := h.m.opts.Client.ListRoleBindings(context.Background(), api.ListOptions{Identity: h.identityUID(t, "carol")}); err != nil ||
		len(b.Items) != 1 || b.Items[0].Role.Name != "viewer" {
		t.Errorf("carol's bindings: %+v %v", b, err)
	}
}

// A role change whose answer is lost is looked up (the binding read again)
// before anything is sent again: found with the new role, it is done, u
// can undo it, and one PATCH was sent.
func TestLostRoleChangeIsLookedUp(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 160, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/iam/v2/roleBindings/")
	})
	h.waitText("platform")
	typeCommand(h, "bindings")
	h.waitText("role bindings of acme.example", " loaded")
	h.typeText("/carol")
	h.keys("enter")
	h.waitFor("carol's row under the cursor", func(string) bool { return strings.Contains(h.selected(), "carol") })
	h.keys("e")
	h.waitText("instead of viewer?")
	h.keys("2")
	h.waitText(`"viewer" → "editor"`)
	h.keys("enter")
	h.waitText(`no answer, but the server has the new value: role of carol on acme.example changed (u undoes): "viewer" → "editor"`)
	patches := 0
	for _, c := range d.received() {
		if strings.HasPrefix(c, "PATCH ") {
			patches++
		}
	}
	if patches != 1 {
		t.Errorf("%d PATCHes, want 1: %v", patches, d.received())
	}
	b, err := truth.ListRoleBindings(context.Background(), api.ListOptions{Identity: h.identityUID(t, "carol")})
	if err != nil || len(b.Items) != 1 || b.Items[0].Role.Name != "editor" {
		t.Errorf("carol's bindings: %+v %v", b, err)
	}
}
