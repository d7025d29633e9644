package emulator

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"canopy/api"
)

// mappingsPath is the collection of external group role mappings.
const mappingsPath = "/iam/v2/externalGroupRoleMappings"

// providerUID finds a seeded identity provider of the primary org by name.
func (e *env) providerUID(name string) string {
	e.t.Helper()
	p := e.list("/iam/v2/identityProviders", "identityProviders", url.Values{"uidp.descendants_of": {e.org}, "name": {name}})
	if len(p.Items) != 1 {
		e.t.Fatalf("provider %s: %d matches", name, len(p.Items))
	}
	return p.Items[0]["uid"].(string)
}

// Mappings are seeded under both providers; a list filters by provider (in
// either spelling of its name) and by the hierarchy; a viewer reads them.
func TestMappingsList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	okta, entra := e.providerUID("okta-sso"), e.providerUID("entra-contractors")
	all := e.list(mappingsPath, "externalGroupRoleMappings", url.Values{"uidp.descendants_of": {e.org}})
	if len(all.Items) != 4 || all.TotalCount != "4" {
		t.Fatalf("listed %d of %s: %v", len(all.Items), all.TotalCount, all.Items)
	}
	for _, m := range all.Items {
		uid, provider := m["uid"].(string), m["identityProviderUid"].(string)
		if api.ParentUID(uid) != provider || (provider != okta && provider != entra) || m["scope"] != e.org ||
			m["externalGroupId"] == "" || m["roleUid"] == "" || m["createTime"] == nil {
			t.Errorf("mapping %v: want it under its provider, on the organization", m)
		}
	}
	for _, q := range []url.Values{{"identity_provider_uid": {okta}}, {"identityProviderUid": {okta}}, {"uidp.children_of": {okta}}} {
		if p := e.list(mappingsPath, "externalGroupRoleMappings", q); len(p.Items) != 3 {
			t.Errorf("%v: %d mappings, want okta's 3", q, len(p.Items))
		}
	}
	if p := e.list(mappingsPath, "externalGroupRoleMappings", url.Values{"uidp.children_of": {e.org}}); len(p.Items) != 0 {
		t.Errorf("children of the organization: %v; a mapping is a provider's child", p.Items)
	}
	viewer := e.tokenFor(issuerGoogle, "109283746501928374650") // carol
	if p := e.listAs(viewer, mappingsPath, "externalGroupRoleMappings", url.Values{"identity_provider_uid": {entra}}); len(p.Items) != 1 {
		t.Errorf("a viewer reads %d of entra's mappings, want 1", len(p.Items))
	}
	one := all.Items[0]["uid"].(string)
	var got api.ExternalGroupRoleMapping
	e.ok(e.get(mappingsPath+"/"+one), &got)
	if got.UID != one {
		t.Errorf("get %s: %+v", one, got)
	}
	wantErr(t, e.get(mappingsPath+"/"+okta+"/0123456789abcdef"), http.StatusNotFound, api.CodeNotFound)
}

// A create mints the uid under the provider and takes a role of the
// organization on the organization only, a group id, and each (group,
// role) once; only who may make providers and bindings makes one.
func TestMappingsCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	okta := e.providerUID("okta-sso")
	body := map[string]any{"externalGroupId": "acme-sre", "roleUid": builtinRoleUID("viewer"), "scope": e.org}
	var made api.ExternalGroupRoleMapping
	e.ok(e.call("POST", mappingsPath+"/"+okta, adminTok, body), &made)
	if api.ParentUID(made.UID) != okta || made.IdentityProviderUID != okta || made.ExternalGroupID != "acme-sre" ||
		made.Scope != e.org || made.CreateTime.IsZero() {
		t.Fatalf("made %+v", made)
	}
	s := wantErr(t, e.call("POST", mappingsPath+"/"+okta, adminTok, body), http.StatusConflict, api.CodeAlreadyExists)
	if ri := (&api.Error{Status: s}).ResourceInfo(); ri == nil || ri.ResourceName != made.UID {
		t.Errorf("the refusal names %+v, want the mapping there", ri)
	}
	// The same group and role through the other provider is another mapping.
	e.ok(e.call("POST", mappingsPath+"/"+e.providerUID("entra-contractors"), adminTok, body), nil)

	for field, bad := range map[string]map[string]any{
		"external_group_id": {"externalGroupId": "", "roleUid": builtinRoleUID("viewer"), "scope": e.org},
		"role_uid":          {"externalGroupId": "x", "roleUid": "nope", "scope": e.org},
		"scope":             {"externalGroupId": "x", "roleUid": builtinRoleUID("viewer"), "scope": e.groupUID("platform")},
	} {
		s := wantErr(t, e.call("POST", mappingsPath+"/"+okta, adminTok, bad), http.StatusBadRequest, api.CodeInvalidArgument)
		if got := fieldOf(t, s); got != field {
			t.Errorf("refused on %s, want %s: %s", got, field, s.Message)
		}
	}
	if r := e.call("POST", mappingsPath+"/"+okta, adminTok, `{"externalGroupId":"x","roleUid":"r","scope":"s","uid":"mine"}`); r.status != http.StatusBadRequest {
		t.Errorf("a body with the uid: %d %s", r.status, r.body)
	}
	wantErr(t, e.call("POST", mappingsPath+"/"+e.org+"/0123456789abcdef", adminTok, body), http.StatusNotFound, api.CodeNotFound)
	editor := e.tokenFor(issuerGoogle, "117730195837465019283") // bob
	wantErr(t, e.call("POST", mappingsPath+"/"+okta, editor, map[string]any{"externalGroupId": "y",
		"roleUid": builtinRoleUID("viewer"), "scope": e.org}), http.StatusForbidden, api.CodePermissionDenied)
}

// A delete takes one mapping; a provider's delete takes its mappings; the
// batch delete is a verb of the collection, not a uid under it: it
// refuses a name under another provider before deleting anything, skips
// the names gone, and answers the parent and what it deleted.
func TestMappingsDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	okta, entra := e.providerUID("okta-sso"), e.providerUID("entra-contractors")
	oktas := uids(e.list(mappingsPath, "externalGroupRoleMappings", url.Values{"identity_provider_uid": {okta}}).Items)
	entras := uids(e.list(mappingsPath, "externalGroupRoleMappings", url.Values{"identity_provider_uid": {entra}}).Items)
	if len(oktas) != 3 || len(entras) != 1 {
		t.Fatalf("seeded %v and %v", oktas, entras)
	}

	batch := mappingsPath + ":batchDelete"
	s := wantErr(t, e.call("POST", batch, adminTok, map[string]any{"parent": okta, "names": []string{oktas[0], entras[0]}}),
		http.StatusBadRequest, api.CodeInvalidArgument)
	if f := fieldOf(t, s); f != "names[1]" {
		t.Errorf("refused on %s: %s", f, s.Message)
	}
	if p := e.list(mappingsPath, "externalGroupRoleMappings", url.Values{"uidp.descendants_of": {e.org}}); len(p.Items) != 4 {
		t.Fatalf("a refused batch deleted something: %d left", len(p.Items))
	}
	wantErr(t, e.call("POST", batch, adminTok, map[string]any{"parent": okta}), http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("GET", batch, adminTok, nil), http.StatusNotImplemented, api.CodeUnimplemented)
	wantNoRoute(t, e.call("POST", batch+"/x", adminTok, map[string]any{}))
	viewer := e.tokenFor(issuerGoogle, "109283746501928374650") // carol
	wantErr(t, e.call("POST", batch, viewer, map[string]any{"parent": okta, "names": oktas[:1]}), http.StatusForbidden, api.CodePermissionDenied)

	e.ok(e.call("DELETE", mappingsPath+"/"+oktas[0], adminTok, nil), nil)
	wantErr(t, e.call("DELETE", mappingsPath+"/"+oktas[0], adminTok, nil), http.StatusNotFound, api.CodeNotFound)
	var out api.BatchDeletedMappings
	r := e.call("POST", batch, adminTok, map[string]any{"parent": okta, "names": []string{oktas[0], oktas[1], oktas[2], oktas[1]}})
	e.ok(r, &out)
	if out.Parent != okta || len(out.Mappings) != 2 || out.Mappings[0].UID != oktas[1] || out.Mappings[1].UID != oktas[2] {
		t.Fatalf("batch answered %s", r.body)
	}
	// Nothing left to delete: the parent is still said, the list is empty.
	r = e.call("POST", batch, adminTok, map[string]any{"parent": okta, "names": oktas})
	if e.ok(r, nil); !strings.Contains(string(r.body), `"parent":"`+okta+`"`) || !strings.Contains(string(r.body), `"externalGroupRoleMappings":[]`) {
		t.Errorf("an empty batch answered %s", r.body)
	}

	e.ok(e.call("DELETE", "/iam/v2/identityProviders/"+entra, adminTok, nil), nil)
	wantErr(t, e.get(mappingsPath+"/"+entras[0]), http.StatusNotFound, api.CodeNotFound)
	if p := e.list(mappingsPath, "externalGroupRoleMappings", url.Values{"uidp.descendants_of": {e.org}}); len(p.Items) != 0 {
		t.Errorf("left %v", p.Items)
	}
}
