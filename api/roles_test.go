package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// The client's role writes against the emulator: what each sends (the
// parent folder in the path, the body in lowerCamelCase, the mask by its
// proto path) and reads back; and each refusal, typed: a built-in role
// changed or deleted, a capability no customer's role may hold, none at
// all, a name taken, a role still bound, a caller without the right.
func TestRoleWrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	want := api.NewRole{Name: "deployer", Description: "Pushes and tags images.",
		Capabilities: []string{"CAP_REPO_LIST", "CAP_TAG_CREATE", "CAP_TAG_LIST"}}

	if got := must(c.FindRole(ctx, e.org, want))(t); got != nil {
		t.Fatalf("found %+v before the create", got)
	}
	e.rec.reset()
	r := must(c.CreateRole(ctx, e.org, want))(t)
	sent := e.rec.last(t)
	var body map[string]any
	if err := json.Unmarshal(sent.Body, &body); err != nil || sent.Method != http.MethodPost || sent.Path != "/iam/v2/roles/"+e.org ||
		len(body) != 3 || body["name"] != "deployer" || len(body["capabilities"].([]any)) != 3 {
		t.Fatalf("sent %s %s %s", sent.Method, sent.URI, sent.Body)
	}
	if r.GetParent() != e.org || r.BuiltIn() || r.Name != "deployer" || !slices.Equal(r.Capabilities, want.Capabilities) || r.CreateTime.IsZero() {
		t.Fatalf("made %+v", r)
	}
	if got := must(c.FindRole(ctx, e.org, want))(t); got == nil || got.UID != r.UID {
		t.Errorf("found %+v after the create, want %s", got, r.UID)
	}
	if _, err := c.CreateRole(ctx, e.org, want); api.CodeOf(err) != api.CodeAlreadyExists {
		t.Errorf("the same name again: %v, want ALREADY_EXISTS", err)
	}
	for _, bad := range []api.NewRole{
		{Name: "viewer", Capabilities: []string{"CAP_REPO_LIST"}},
		{Name: "nothing"},
		{Name: "staff", Capabilities: []string{"CAP_REPO_LIST", "CAP_REPO_INTERNAL_ADMIN"}},
		{Name: "old", Capabilities: []string{"CAP_SIGSTORE_LIST"}},
		{Name: "marker", Capabilities: []string{"CAP_INTERNAL"}},
		{Name: "", Capabilities: []string{"CAP_REPO_LIST"}},
	} {
		_, err := c.CreateRole(ctx, e.org, bad)
		switch {
		case bad.Name == "viewer" && api.CodeOf(err) != api.CodeAlreadyExists:
			t.Errorf("a custom role named as a built-in one: %v, want ALREADY_EXISTS", err)
		case bad.Name != "viewer" && !api.IsInvalidArgument(err):
			t.Errorf("%+v: %v, want INVALID_ARGUMENT", bad, err)
		case bad.Name != "viewer" && bad.Name != "" && api.FieldViolations(err)[0].Field != "capabilities":
			t.Errorf("%+v: refused for %+v, want its capabilities", bad, api.FieldViolations(err))
		}
	}

	// One field at a time; the capabilities replaced whole.
	next := *r
	next.Name, next.Description, next.Capabilities = "deployers", "", []string{"CAP_TAG_LIST", "CAP_IAM_IDENTITY_LIST"}
	for _, m := range api.RoleUpdates() {
		e.rec.reset()
		got := must(c.UpdateRole(ctx, next, m))(t)
		s := e.rec.last(t)
		if s.Method != http.MethodPatch || s.Path != "/iam/v2/roles/"+r.UID || s.Query.Get("update_mask") != m {
			t.Fatalf("sent %s %s", s.Method, s.URI)
		}
		if m == api.FieldDescription && string(s.Body) != "{}" {
			t.Errorf("clearing the description sent %s", s.Body)
		}
		if m == api.FieldCapabilities && !slices.Equal(got.Capabilities, next.Capabilities) {
			t.Errorf("capabilities now %v", got.Capabilities)
		}
	}
	got := must(c.GetRole(ctx, r.UID))(t)
	if got.Name != "deployers" || got.Description != "" || !slices.Equal(got.Capabilities, next.Capabilities) || got.UpdateTime.IsZero() {
		t.Errorf("read back %+v", got)
	}
	none := next
	none.Capabilities = nil
	if _, err := c.UpdateRole(ctx, none, api.FieldCapabilities); !api.IsInvalidArgument(err) {
		t.Errorf("no capability left: %v, want INVALID_ARGUMENT", err)
	}

	// The service's own roles are neither changed nor deleted.
	viewer := must(c.GetRole(ctx, viewerRole))(t)
	viewer.Description = "mine now"
	if _, err := c.UpdateRole(ctx, *viewer, api.FieldDescription); !api.IsFailedPrecondition(err) ||
		!strings.Contains(api.PreconditionViolations(err)[0].Description, "built in") {
		t.Errorf("a built-in role changed: %v, want FAILED_PRECONDITION", err)
	}
	if err := c.DeleteRole(ctx, viewerRole); !api.IsFailedPrecondition(err) {
		t.Errorf("a built-in role deleted: %v, want FAILED_PRECONDITION", err)
	}

	// A role still bound stays; unbound, it goes.
	carol := must(c.FindIdentity(ctx, e.org, "carol"))(t)
	b := must(c.CreateRoleBinding(ctx, e.org, api.CreateRoleBinding{IdentityUID: carol.UID, RoleUID: r.UID}))(t)
	err := c.DeleteRole(ctx, r.UID)
	if vs := api.PreconditionViolations(err); !api.IsFailedPrecondition(err) || len(vs) != 1 || !strings.Contains(vs[0].Description, "1 role binding") {
		t.Fatalf("a bound role deleted: %v, want FAILED_PRECONDITION naming its one binding", err)
	}
	must(0, c.DeleteRoleBinding(ctx, b.UID))(t)
	e.rec.reset()
	must(0, c.DeleteRole(ctx, r.UID))(t)
	if s := e.rec.last(t); s.Method != http.MethodDelete || s.Path != "/iam/v2/roles/"+r.UID || len(s.Body) != 0 {
		t.Fatalf("sent %s %s %s", s.Method, s.URI, s.Body)
	}
	if _, err := c.GetRole(ctx, r.UID); !api.IsNotFound(err) {
		t.Errorf("read after the delete: %v", err)
	}
	if err := c.DeleteRole(ctx, r.UID); !api.IsNotFound(err) {
		t.Errorf("delete again: %v", err)
	}

	// A viewer may read roles, not write them.
	tok, _ := viewerToken(t, e)
	v := newClient(t, e.url, api.Options{TokenSource: static(tok)})
	if _, err := v.CreateRole(ctx, e.org, want); !api.IsPermissionDenied(err) {
		t.Errorf("a viewer made a role: %v, want PERMISSION_DENIED", err)
	}
	// Requests as previews say them.
	if s := api.Roles.Patch(r.UID, api.FieldCapabilities).String(); s != "PATCH /iam/v2/roles/"+r.UID+"?update_mask=capabilities" {
		t.Errorf("the update reads %q", s)
	}
}
