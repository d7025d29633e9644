package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// identityNamed finds an identity of the primary organization by name.
func identityNamed(t *testing.T, e *env, name string) api.Identity {
	t.Helper()
	ids := must(e.client.ListIdentities(t.Context(), api.ListOptions{DescendantsOf: e.org, Name: name}))(t)
	return pick(t, ids.Items, func(id api.Identity) bool { return id.Name == name })
}

// A binding's role changes in place: the PATCH names role_uid alone and
// carries the role's uid alone; the binding keeps its uid and comes back
// hydrated with the new role. A role of no organization of the binding's,
// or one the identity already has there, is refused.
func TestPatchRoleBinding(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	carol := identityNamed(t, e, "carol")
	roles := must(c.RolesOf(ctx, e.org))(t)
	editor := pick(t, roles, func(r api.Role) bool { return r.Name == "editor" })
	bs := must(c.ListRoleBindings(ctx, api.ListOptions{Identity: carol.UID}))(t)
	b := pick(t, bs.Items, func(b api.RoleBinding) bool { return b.Role != nil && b.Role.Name == "viewer" })

	e.rec.reset()
	got := must(c.PatchRoleBinding(ctx, b.UID, editor.UID))(t)
	r := e.rec.last(t)
	if r.Method != http.MethodPatch || r.Path != "/iam/v2/roleBindings/"+b.UID || r.Query.Get("update_mask") != "role_uid" ||
		string(r.Body) != `{"roleUid":"`+editor.UID+`"}` {
		t.Fatalf("sent %s %s %s", r.Method, r.URI, r.Body)
	}
	if got.UID != b.UID || got.Role == nil || got.Role.Name != "editor" || got.Identity == nil || got.Identity.UID != carol.UID {
		t.Fatalf("answered %+v", got)
	}
	if again := must(c.GetRoleBinding(ctx, b.UID))(t); again.Role.UID != editor.UID {
		t.Errorf("read back role %+v", again.Role)
	}
	if _, err := c.PatchRoleBinding(ctx, b.UID, "no-such-role"); !api.IsInvalidArgument(err) || api.FieldViolations(err)[0].Field != "role_binding.role_uid" {
		t.Errorf("an unknown role: %v", err)
	}
	if _, err := c.PatchRoleBinding(ctx, e.org+"/0123456789abcdef", editor.UID); !api.IsNotFound(err) {
		t.Errorf("a binding that is not there: %v", err)
	}
	// Another binding of carol's, given the role she has there now.
	other := must(c.CreateRoleBinding(ctx, e.org, api.CreateRoleBinding{IdentityUID: carol.UID, RoleUID: viewerRole}))(t)
	if _, err := c.PatchRoleBinding(ctx, other.UID, editor.UID); api.CodeOf(err) != api.CodeAlreadyExists {
		t.Errorf("the role she has there already: %v, want ALREADY_EXISTS", err)
	}
}

// A batch create is one POST of the collection's verb, its body the whole
// request: the folder, and each binding as a create's request on it. The
// answer holds the bindings in the order asked. A batch that cannot be
// made whole (one identity has the role there already) makes none;
// FindRoleBindings says which identities have it, from one listing.
func TestBatchCreateRoleBindings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	group := must(c.FindGroup(ctx, e.org, "security"))(t)
	alice, bob, carol := identityNamed(t, e, "alice"), identityNamed(t, e, "bob"), identityNamed(t, e, "carol")
	ids := []string{alice.UID, bob.UID, carol.UID}

	found := must(c.FindRoleBindings(ctx, group.UID, viewerRole, ids))(t)
	if len(found) != 0 {
		t.Fatalf("found %v before the batch", found)
	}
	e.rec.reset()
	out := must(c.BatchCreateRoleBindings(ctx, group.UID, viewerRole, ids))(t)
	r := e.rec.last(t)
	var body struct {
		Parent   string `json:"parent"`
		Requests []struct {
			Parent      string            `json:"parent"`
			RoleBinding map[string]string `json:"roleBinding"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || r.Method != http.MethodPost || r.URI != "/iam/v2/roleBindings:batchCreate" ||
		body.Parent != group.UID || len(body.Requests) != 3 || body.Requests[1].Parent != group.UID ||
		body.Requests[1].RoleBinding["identityUid"] != bob.UID || body.Requests[1].RoleBinding["roleUid"] != viewerRole {
		t.Fatalf("sent %s %s %s", r.Method, r.URI, r.Body)
	}
	if len(out.RoleBindings) != 3 {
		t.Fatalf("answered %+v", out)
	}
	for i, b := range out.RoleBindings {
		if b.Identity == nil || b.Identity.UID != ids[i] || b.Group == nil || b.Group.UID != group.UID || b.Role.UID != viewerRole {
			t.Errorf("binding %d: %+v", i, b)
		}
	}
	found = must(c.FindRoleBindings(ctx, group.UID, viewerRole, ids))(t)
	if len(found) != 3 || found[bob.UID].UID != out.RoleBindings[1].UID {
		t.Errorf("found %v after the batch", found)
	}

	// All or none: alice has viewer there now, so none of the three is made.
	platform := must(c.FindGroup(ctx, e.org, "platform"))(t)
	must(c.CreateRoleBinding(ctx, platform.UID, api.CreateRoleBinding{IdentityUID: alice.UID, RoleUID: viewerRole}))(t)
	if _, err := c.BatchCreateRoleBindings(ctx, platform.UID, viewerRole, ids); api.CodeOf(err) != api.CodeAlreadyExists {
		t.Fatalf("a batch with a binding that exists: %v, want ALREADY_EXISTS", err)
	}
	if found := must(c.FindRoleBindings(ctx, platform.UID, viewerRole, ids))(t); len(found) != 1 || found[alice.UID] == nil {
		t.Errorf("a refused batch made %v", found)
	}
	many := make([]string, api.MaxBatchBindings+1)
	if _, err := c.BatchCreateRoleBindings(ctx, platform.UID, viewerRole, many); err == nil {
		t.Error("a batch over the bound was sent")
	}
	if got := api.RoleBindings.BatchCreate().String(); got != "POST /iam/v2/roleBindings:batchCreate" {
		t.Errorf("the batch create reads %q", got)
	}
}

// A service without the batch create answers so that NotOnServer says it
// lacks the call (a gateway's 404 without a resource): the caller binds one
// at a time instead.
func TestBatchCreateMissingIsNotOnServer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/iam/v2/roleBindings:batchCreate" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"code":5,"message":"Not Found"}`))
			return
		}
		e.srv.ServeHTTP(w, r)
	}))
	c := newClient(t, url, api.Options{TokenSource: static(adminToken)})
	_, err := c.BatchCreateRoleBindings(t.Context(), e.org, viewerRole, []string{identityNamed(t, e, "bob").UID})
	if !api.NotOnServer(err) {
		t.Errorf("%v: want NotOnServer", err)
	}
}
