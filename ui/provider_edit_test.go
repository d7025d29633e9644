package ui

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// fieldCursorTo moves a page's field cursor down to the field labelled so.
func (h *harness) fieldCursorTo(t *testing.T, label string) {
	t.Helper()
	for range 20 {
		if strings.HasPrefix(strings.TrimSpace(h.selected()), label) {
			return
		}
		h.keys("j")
	}
	t.Fatalf("the field cursor never reached %s:\n%s", label, h.screen())
}

// A provider is edited one field at a time: e on its row edits its
// description in place; on its page the field cursor reaches each part of
// its login, the client secret among them, typed as dots, sent alone,
// said as set (never its value: not in the preview, the status line nor
// :changes) and not kept for u, which undoes the description instead.
func TestEditAProviderOneFieldAtATime(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 180, 45)
	h.waitText("platform")
	typeCommand(h, "providers")
	h.waitText("identity providers of acme.example", "CLIENT ID", " loaded")
	h.keys("g", "e") // entra-contractors, first by name
	h.waitText("PATCH /iam/v2/identityProviders/", "?update_mask=description")
	h.typeText(" (EU)")
	h.keys("enter")
	h.waitText("description of entra-contractors changed (u undoes)")
	got := last(reqs, mu)
	if len(got) != 1 || !strings.HasSuffix(got[0].Path, "?update_mask=description") ||
		!reflect.DeepEqual(got[0].Body, map[string]any{"description": "Contractors, through Microsoft Entra ID (EU)"}) {
		t.Fatalf("requests %+v", got)
	}

	h.keys("enter")
	h.waitText("entra-contractors", "SCIM PROVISIONING", "client secret")
	h.waitFor("the provider read whole", func(s string) bool { return !strings.Contains(s, "FROM THE SERVER") })
	h.fieldCursorTo(t, "client secret")
	h.keys("e")
	h.waitText("?update_mask=oidc.client_secret", "no secret: a public client")
	h.typeText("n3w-s3cret")
	s := h.waitText("a new secret (not shown)")
	if strings.Contains(s, "n3w-s3cret") {
		t.Fatalf("the secret shows as it is typed:\n%s", s)
	}
	h.keys("enter")
	s = h.waitText("client secret of entra-contractors set (it is never shown nor kept, so it cannot be undone)")
	if strings.Contains(s, "n3w-s3cret") {
		t.Fatalf("the secret shows:\n%s", s)
	}
	got = last(reqs, mu)
	if len(got) != 2 || !strings.HasSuffix(got[1].Path, "?update_mask=oidc.client_secret") ||
		!reflect.DeepEqual(got[1].Body, map[string]any{"oidc": map[string]any{"clientSecret": "n3w-s3cret"}}) {
		t.Fatalf("requests %+v", got)
	}

	h.fieldCursorTo(t, "groups claim")
	h.keys("e")
	h.waitText("?update_mask=oidc.groups_claim")
	h.typeText("-eu")
	h.waitText(`"groups" → "groups-eu"`)
	h.keys("enter")
	h.waitText("groups claim of entra-contractors changed (u undoes)")
	h.keys("u")
	h.waitText(`undid groups claim of entra-contractors: back to "groups"`)
	h.keys("u") // the secret was never kept: the description's undo is next
	h.waitText("undid description of entra-contractors")
	p, err := h.m.opts.Client.FindIdentityProvider(context.Background(), h.srv.OrgUID(), "entra-contractors")
	if err != nil || p.Description != "Contractors, through Microsoft Entra ID" || p.OIDC.GroupsClaim != "groups" {
		t.Errorf("the server has %+v, %v", p, err)
	}
	h.keys("esc")
	typeCommand(h, "changes")
	h.waitText("changes made in this session", "oidc.client_secret")
	s = h.screen()
	if strings.Contains(s, "n3w-s3cret") || !strings.Contains(line(s, "oidc.client_secret"), "set (not shown)") {
		t.Errorf(":changes says:\n%s", s)
	}
}
