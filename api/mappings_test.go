package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// The client's mapping calls against the emulator: what each sends (the
// provider filter by its query name; the batch delete's verb after the
// collection, its body the whole request) and what it reads back; the
// errors are the service's, typed.
func TestExternalGroupRoleMappings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	okta := must(c.FindIdentityProvider(ctx, e.org, "okta-sso"))(t)
	entra := must(c.FindIdentityProvider(ctx, e.org, "entra-contractors"))(t)
	viewer := pick(t, must(c.RolesOf(ctx, e.org))(t), func(r api.Role) bool { return r.Name == "viewer" })

	all := must(c.ListExternalGroupRoleMappings(ctx, api.ListOptions{DescendantsOf: e.org}))(t)
	if len(all.Items) != 4 {
		t.Fatalf("seeded %d mappings, want 4", len(all.Items))
	}
	e.rec.reset()
	oktas := must(c.ListExternalGroupRoleMappings(ctx, api.ListOptions{IdentityProvider: okta.UID}))(t)
	if r := e.rec.last(t); r.Query.Get("identity_provider_uid") != okta.UID || len(oktas.Items) != 3 {
		t.Fatalf("sent %s, read %d", r.URI, len(oktas.Items))
	}
	for _, m := range oktas.Items {
		if m.IdentityProviderUID != okta.UID || m.GetParent() != okta.UID || m.GetName() != "" || m.Scope != e.org {
			t.Errorf("listed %+v", m)
		}
	}

	want := api.NewExternalGroupRoleMapping{ExternalGroupID: "acme-oncall", RoleUID: viewer.UID, Scope: e.org}
	if got := must(c.FindExternalGroupRoleMapping(ctx, okta.UID, want))(t); got != nil {
		t.Fatalf("found %+v before the create", got)
	}
	e.rec.reset()
	m := must(c.CreateExternalGroupRoleMapping(ctx, okta.UID, want))(t)
	r := e.rec.last(t)
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil || r.Method != http.MethodPost ||
		r.Path != "/iam/v2/externalGroupRoleMappings/"+okta.UID || len(body) != 3 || body["externalGroupId"] != "acme-oncall" {
		t.Fatalf("sent %s %s %s", r.Method, r.URI, r.Body)
	}
	if m.ExternalGroupID != "acme-oncall" || m.GetParent() != okta.UID || m.CreateTime.IsZero() {
		t.Fatalf("made %+v", m)
	}
	if got := must(c.FindExternalGroupRoleMapping(ctx, okta.UID, want))(t); got == nil || got.UID != m.UID {
		t.Errorf("found %+v after the create, want %s", got, m.UID)
	}
	if got := must(c.GetExternalGroupRoleMapping(ctx, m.UID))(t); *got != *m {
		t.Errorf("read %+v, made %+v", got, m)
	}
	if _, err := c.CreateExternalGroupRoleMapping(ctx, okta.UID, want); api.CodeOf(err) != api.CodeAlreadyExists {
		t.Errorf("the same again: %v, want ALREADY_EXISTS", err)
	}
	if _, err := c.CreateExternalGroupRoleMapping(ctx, okta.UID, api.NewExternalGroupRoleMapping{ExternalGroupID: "x",
		RoleUID: viewer.UID, Scope: okta.UID}); !api.IsInvalidArgument(err) || api.FieldViolations(err)[0].Field != "scope" {
		t.Errorf("a scope other than the organization: %v", err)
	}

	must(0, c.DeleteExternalGroupRoleMapping(ctx, m.UID))(t)
	if _, err := c.GetExternalGroupRoleMapping(ctx, m.UID); !api.IsNotFound(err) {
		t.Errorf("read after the delete: %v", err)
	}
	if err := c.DeleteExternalGroupRoleMapping(ctx, m.UID); !api.IsNotFound(err) {
		t.Errorf("delete again: %v", err)
	}

	uids := []string{oktas.Items[0].UID, oktas.Items[1].UID, m.UID} // the last is gone: skipped
	entras := must(c.ListExternalGroupRoleMappings(ctx, api.ListOptions{IdentityProvider: entra.UID}))(t)
	if _, err := c.BatchDeleteExternalGroupRoleMappings(ctx, okta.UID, append(slices.Clone(uids), entras.Items[0].UID)); !api.IsInvalidArgument(err) {
		t.Fatalf("a batch with another provider's mapping: %v, want INVALID_ARGUMENT", err)
	}
	e.rec.reset()
	out := must(c.BatchDeleteExternalGroupRoleMappings(ctx, okta.UID, uids))(t)
	r = e.rec.last(t)
	if r.Method != http.MethodPost || r.URI != "/iam/v2/externalGroupRoleMappings:batchDelete" ||
		string(r.Body) != `{"parent":"`+okta.UID+`","names":["`+uids[0]+`","`+uids[1]+`","`+uids[2]+`"]}` {
		t.Fatalf("sent %s %s %s", r.Method, r.URI, r.Body)
	}
	if out.Parent != okta.UID || len(out.Mappings) != 2 || out.Mappings[0].UID != uids[0] || out.Mappings[1].UID != uids[1] {
		t.Fatalf("the batch answered %+v", out)
	}
	left := must(c.ListExternalGroupRoleMappings(ctx, api.ListOptions{DescendantsOf: e.org}))(t)
	if len(left.Items) != 2 {
		t.Errorf("%d left, want okta's third and entra's", len(left.Items))
	}
	// Requests as previews say them.
	if got := api.ExternalGroupRoleMappings.BatchDelete().String(); got != "POST /iam/v2/externalGroupRoleMappings:batchDelete" {
		t.Errorf("the batch delete reads %q", got)
	}
}
