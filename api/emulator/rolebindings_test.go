package emulator

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"canopy/api"
)

// A binding's role or identity changes in place, by mask path; its folder
// and the server's parts cannot; only who may update bindings changes one.
func TestBindingPatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	carol := e.identityUID("carol")
	bs := e.list("/iam/v2/roleBindings", "roleBindings", url.Values{"identity": {carol}})
	b := bs.Items[0]["uid"].(string)
	path := "/iam/v2/roleBindings/" + b
	var got api.RoleBinding
	e.ok(e.call("PATCH", path+"?update_mask=role_uid", adminTok, map[string]any{"roleUid": builtinRoleUID("editor")}), &got)
	if got.UID != b || got.Role == nil || got.Role.Name != "editor" || got.Identity.UID != carol {
		t.Fatalf("answered %+v", got)
	}
	// A read-modify-write body: what a read gave is ignored, the mask says
	// what changes.
	body := map[string]any{"uid": b, "roleUid": builtinRoleUID("viewer"), "identity": got.Identity, "group": got.Group, "role": got.Role,
		"createTime": got.CreateTime}
	e.ok(e.call("PATCH", path+"?update_mask=role_uid", adminTok, body), &got)
	if got.Role.Name != "viewer" {
		t.Errorf("answered %+v", got.Role)
	}
	for mask, field := range map[string]string{"group": "update_mask", "roleUid": "update_mask", "uid": "update_mask"} {
		s := wantErr(t, e.call("PATCH", path+"?update_mask="+mask, adminTok, map[string]any{}), http.StatusBadRequest, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != field {
			t.Errorf("mask %s refused on %s: %s", mask, f, s.Message)
		}
	}
	wantErr(t, e.call("PATCH", path+"?update_mask=identity_uid", adminTok, map[string]any{"identityUid": "nope"}),
		http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("PATCH", "/iam/v2/roleBindings/"+e.org+"/0123456789abcdef?update_mask=role_uid", adminTok,
		map[string]any{"roleUid": builtinRoleUID("viewer")}), http.StatusNotFound, api.CodeNotFound)
	editor := e.tokenFor(issuerGoogle, "117730195837465019283") // bob
	wantErr(t, e.call("PATCH", path+"?update_mask=role_uid", editor, map[string]any{"roleUid": builtinRoleUID("owner")}),
		http.StatusForbidden, api.CodePermissionDenied)
}

// A batch makes all its bindings or none: every one is checked (its
// parent the batch's, a role of its own or the batch's, not twice, not
// held already) before any is made; it is a verb of the collection.
func TestBindingBatchCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	ml := e.groupUID("ml")
	alice, bob, carol := e.identityUID("alice"), e.identityUID("bob"), e.identityUID("carol")
	viewer := builtinRoleUID("viewer")
	req := func(parent, identity, role string) map[string]any {
		return map[string]any{"parent": parent, "roleBinding": map[string]any{"identityUid": identity, "roleUid": role}}
	}
	batch := "/iam/v2/roleBindings:batchCreate"
	count := func() int {
		return len(e.list("/iam/v2/roleBindings", "roleBindings", url.Values{"group": {ml}}).Items)
	}
	before := count()
	for field, body := range map[string]map[string]any{
		"parent":                                {"requests": []any{req("", alice, viewer)}},
		"requests":                              {"parent": ml, "requests": []any{}},
		"requests[1].parent":                    {"parent": ml, "requests": []any{req(ml, alice, viewer), req(e.org, bob, viewer)}},
		"requests[1].role_binding.role_uid":     {"parent": ml, "roleUid": viewer, "requests": []any{req(ml, alice, ""), req(ml, bob, builtinRoleUID("owner"))}},
		"requests[2].role_binding":              {"parent": ml, "requests": []any{req(ml, alice, viewer), req(ml, bob, viewer), req(ml, alice, viewer)}},
		"requests[0].role_binding.identity_uid": {"parent": ml, "requests": []any{req(ml, "", viewer)}},
	} {
		s := wantErr(t, e.call("POST", batch, adminTok, body), http.StatusBadRequest, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != field {
			t.Errorf("refused on %s, want %s: %s", f, field, s.Message)
		}
	}
	var many []any
	for i := range 26 {
		many = append(many, req(ml, fmt.Sprint(i), viewer))
	}
	wantErr(t, e.call("POST", batch, adminTok, map[string]any{"parent": ml, "requests": many}), http.StatusBadRequest, api.CodeInvalidArgument)
	if n := count(); n != before {
		t.Fatalf("refused batches made %d bindings", n-before)
	}

	var out struct {
		RoleBindings []api.RoleBinding `json:"roleBindings"`
	}
	// The batch's role for those that name none.
	e.ok(e.call("POST", batch, adminTok, map[string]any{"parent": ml, "roleUid": viewer,
		"requests": []any{req(ml, alice, ""), req("", bob, viewer)}}), &out)
	if len(out.RoleBindings) != 2 || out.RoleBindings[0].Identity.UID != alice || out.RoleBindings[1].Identity.UID != bob ||
		out.RoleBindings[1].Group.UID != ml || out.RoleBindings[0].Role.UID != viewer {
		t.Fatalf("answered %+v", out)
	}
	// carol is new here, bob is not: none is made.
	wantErr(t, e.call("POST", batch, adminTok, map[string]any{"parent": ml, "requests": []any{req(ml, carol, viewer), req(ml, bob, viewer)}}),
		http.StatusConflict, api.CodeAlreadyExists)
	if n := count(); n != before+2 {
		t.Errorf("%d bindings on ml, want %d: a refused batch made one", n, before+2)
	}
	wantErr(t, e.call("GET", batch, adminTok, nil), http.StatusNotImplemented, api.CodeUnimplemented)
	wantNoRoute(t, e.call("POST", batch+"/x", adminTok, map[string]any{}))
	viewerTok := e.tokenFor(issuerGoogle, "109283746501928374650") // carol
	wantErr(t, e.call("POST", batch, viewerTok, map[string]any{"parent": ml, "requests": []any{req(ml, carol, viewer)}}),
		http.StatusForbidden, api.CodePermissionDenied)
}
