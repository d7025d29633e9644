package emulator

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

func TestCreateAndGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	var g api.Group
	e.ok(e.call("POST", "/iam/v2/groups/"+e.org, adminTok, api.Group{Name: "new-team", Description: "A new team."}), &g)
	if !api.IsChild(g.UID, e.org) || g.Name != "new-team" || g.CreateTime.IsZero() {
		t.Fatalf("created group %+v", g)
	}
	var got api.Group
	e.ok(e.get("/iam/v2/groups/"+g.UID), &got)
	if got.UID != g.UID {
		t.Fatalf("get %+v", got)
	}
	var r api.Repo
	e.ok(e.call("POST", "/registry/v2/repos/"+g.UID, adminTok, api.Repo{Name: "widget", Description: "Widgets."}), &r)
	if !api.IsChild(r.UID, g.UID) {
		t.Fatalf("repo %+v", r)
	}
	var tag api.Tag
	digest := "sha256:" + strings.Repeat("ab", 32)
	e.ok(e.call("POST", "/registry/v2/tags/"+r.UID, adminTok, map[string]string{"name": "v1", "digest": digest}), &tag)
	if tag.Name != "v1" || tag.Digest != digest || !api.IsChild(tag.UID, r.UID) {
		t.Fatalf("tag %+v", tag)
	}
	// Creating the same tag name again moves it to the new digest.
	e.clock.Add(time.Minute)
	digest2 := "sha256:" + strings.Repeat("cd", 32)
	var moved api.Tag
	e.ok(e.call("POST", "/registry/v2/tags/"+r.UID, adminTok, map[string]string{"name": "v1", "digest": digest2}), &moved)
	if moved.UID != tag.UID || moved.Digest != digest2 || !moved.UpdateTime.After(tag.UpdateTime) {
		t.Fatalf("moved tag %+v", moved)
	}
	var arch api.Architectures
	e.ok(e.get("/registry/v2/repos/"+r.UID+"/digests/"+digest2+"/architectures"), &arch)
	if len(arch.Architectures) == 0 {
		t.Fatal("no architectures for a pushed digest")
	}
	var id api.Identity
	cm := &api.ClaimMatch{Issuer: issuerGitHub, Subject: "repo:acme/widget:ref:refs/heads/main"}
	e.ok(e.call("POST", "/iam/v2/identities/"+g.UID, adminTok, api.Identity{Name: "widget-ci", ClaimMatch: cm}), &id)
	if id.ClaimMatch == nil || id.ClaimMatch.Issuer != cm.Issuer || id.ClaimMatch.Subject != cm.Subject {
		t.Fatalf("identity %+v", id)
	}
	var b api.RoleBinding
	e.ok(e.call("POST", "/iam/v2/roleBindings/"+g.UID, adminTok, api.CreateRoleBinding{IdentityUID: id.UID, RoleUID: viewerRoleUID}), &b)
	if b.Identity == nil || b.Identity.Name != "widget-ci" || b.Identity.Issuer != issuerGitHub || b.Role == nil || b.Role.Name != "viewer" || b.Group == nil || b.Group.Name != "new-team" {
		t.Fatalf("binding not hydrated: %s", mustJSON(b))
	}
	var sub api.Subscription
	e.ok(e.call("POST", "/events/v2/subscriptions/"+g.UID, adminTok, api.Subscription{Sink: "https://hooks.example.com/x"}), &sub)
	if sub.Sink != "https://hooks.example.com/x" || !api.IsChild(sub.UID, g.UID) {
		t.Fatalf("subscription %+v", sub)
	}
}

func TestPatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	uid := e.repoUID("nginx")
	var before api.Repo
	e.ok(e.get("/registry/v2/repos/"+uid), &before)
	e.clock.Add(time.Hour)

	t.Run("mask changes only the listed fields", func(t *testing.T) {
		var r api.Repo
		e.ok(e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask=description", adminTok,
			api.Repo{Description: "Edited.", CatalogTier: "CATALOG_TIER_FIPS"}), &r)
		if r.Description != "Edited." || r.CatalogTier != before.CatalogTier || !r.UpdateTime.After(before.UpdateTime) || r.Name != "nginx" {
			t.Fatalf("patched %+v", r)
		}
	})
	t.Run("no mask changes the fields present", func(t *testing.T) {
		var r api.Repo
		e.ok(e.call("PATCH", "/registry/v2/repos/"+uid, adminTok, `{"catalogTier":"CATALOG_TIER_FIPS"}`), &r)
		if r.CatalogTier != "CATALOG_TIER_FIPS" || r.Description != "Edited." {
			t.Fatalf("patched %+v", r)
		}
	})
	t.Run("comma-separated mask", func(t *testing.T) {
		var r api.Repo
		e.ok(e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask=description,aliases", adminTok,
			api.Repo{Description: "Both.", Aliases: []string{"a"}}), &r)
		if r.Description != "Both." || len(r.Aliases) != 1 {
			t.Fatalf("patched %+v", r)
		}
	})
	t.Run("star replaces", func(t *testing.T) {
		var r api.Repo
		e.ok(e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask=*", adminTok, api.Repo{Name: "nginx"}), &r)
		if r.Description != "" || r.CatalogTier != "" || len(r.Aliases) != 0 || len(r.ActiveTags) != 0 || r.Name != "nginx" {
			t.Fatalf("replaced %+v", r)
		}
	})
	t.Run("unchanged keeps updateTime", func(t *testing.T) {
		var a, b api.Repo
		e.ok(e.get("/registry/v2/repos/"+uid), &a)
		e.clock.Add(time.Hour)
		e.ok(e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask=name", adminTok, api.Repo{Name: "nginx"}), &b)
		if !b.UpdateTime.Equal(a.UpdateTime) {
			t.Fatalf("updateTime moved without a change")
		}
	})
	// Unknown, output-only and camelCase paths are refused on update_mask,
	// however the parameter is spelt.
	for _, mask := range []string{"size_bytes", "create_time", "uid", "catalogTier", "activeTags", "name,catalogTier"} {
		for _, param := range []string{"update_mask", "updateMask"} {
			s := wantErr(t, e.call("PATCH", "/registry/v2/repos/"+uid+"?"+param+"="+mask, adminTok, `{}`), 400, api.CodeInvalidArgument)
			if f := fieldOf(t, s); f != "update_mask" || !strings.Contains(s.Message, "catalog_tier") {
				t.Errorf("%s=%s: field %q, message %q", param, mask, f, s.Message)
			}
		}
	}
	alice := e.identityUID("alice")
	var id api.Identity
	e.ok(e.call("PATCH", "/iam/v2/identities/"+alice+"?update_mask=description", adminTok, `{"description":"Alice, CTO"}`), &id)
	if id.Description != "Alice, CTO" || id.Name != "alice" {
		t.Fatalf("identity %+v", id)
	}
	var g api.Group
	e.ok(e.call("PATCH", "/iam/v2/groups/"+e.groupUID("data"), adminTok, `{"description":"Data platform, renamed."}`), &g)
	if g.Description != "Data platform, renamed." {
		t.Fatalf("group %+v", g)
	}
}

func (e *env) identityUID(name string) string {
	e.t.Helper()
	p := e.list("/iam/v2/identities", "identities", url.Values{"name": {name}})
	if len(p.Items) != 1 {
		e.t.Fatalf("identity %s: %d matches", name, len(p.Items))
	}
	return p.Items[0]["uid"].(string)
}

func TestDeleteGroupNotEmpty(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	platform := e.groupUID("platform")
	s := wantErr(t, e.call("DELETE", "/iam/v2/groups/"+platform, adminTok, nil), 400, api.CodeFailedPrecondition)
	vs := (&api.Error{Status: s}).PreconditionViolations()
	kinds := map[string]bool{}
	for _, v := range vs {
		if v.Type != "RESOURCE_NOT_EMPTY" || v.Subject != platform || !strings.HasPrefix(v.Description, "group has ") {
			t.Errorf("violation %+v", v)
		}
		kinds[strings.Fields(v.Description)[3]] = true
	}
	if !kinds["subgroups"] || !kinds["repos"] || len(vs) != len(kinds) {
		t.Fatalf("violations %+v", vs)
	}
	if !strings.HasPrefix(s.Message, "Precondition failed: ") || !strings.Contains(s.Message, "repos") {
		t.Errorf("message %q", s.Message)
	}
	// An empty group goes, and answers {}.
	var g api.Group
	e.ok(e.call("POST", "/iam/v2/groups/"+platform, adminTok, api.Group{Name: "empty"}), &g)
	r := e.call("DELETE", "/iam/v2/groups/"+g.UID, adminTok, nil)
	if r.status != 200 || strings.TrimSpace(string(r.body)) != "{}" {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	wantErr(t, e.get("/iam/v2/groups/"+g.UID), 404, api.CodeNotFound)
}

func TestDeleteRepoDeletesTags(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	uid := e.repoUID("curl")
	tags := e.list("/registry/v2/tags", "tags", url.Values{"uidp.children_of": {uid}})
	if len(tags.Items) == 0 {
		t.Fatal("no tags")
	}
	r := e.call("DELETE", "/registry/v2/repos/"+uid, adminTok, nil)
	if r.status != 200 || strings.TrimSpace(string(r.body)) != "{}" {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	wantErr(t, e.get("/registry/v2/tags/"+tags.Items[0]["uid"].(string)), 404, api.CodeNotFound)
	if p := e.list("/registry/v2/tags", "tags", url.Values{"uidp.children_of": {uid}}); p.TotalCount != "0" {
		t.Fatalf("tags left: %s", p.TotalCount)
	}
}

func TestValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	platform := e.groupUID("platform")
	nginx := e.repoUID("nginx")
	alice := e.identityUID("alice")
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code               api.Code
		field              string
	}{
		{"identity name pattern", "POST", "/iam/v2/identities/" + platform, api.Identity{Name: "Bad Name!"}, 400, api.CodeInvalidArgument, "name"},
		{"identity name missing", "POST", "/iam/v2/identities/" + platform, api.Identity{Description: "x"}, 400, api.CodeInvalidArgument, "name"},
		{"identity name too long", "POST", "/iam/v2/identities/" + platform, api.Identity{Name: strings.Repeat("a", 64)}, 400, api.CodeInvalidArgument, "name"},
		{"description too long", "POST", "/iam/v2/groups/" + platform, api.Group{Name: "xyz", Description: strings.Repeat("d", 513)}, 400, api.CodeInvalidArgument, "description"},
		{"description not printable", "PATCH", "/registry/v2/repos/" + nginx, api.Repo{Description: "bell\a"}, 400, api.CodeInvalidArgument, "description"},
		{"tag name", "POST", "/registry/v2/tags/" + nginx, map[string]string{"name": "-bad", "digest": "sha256:" + strings.Repeat("0", 64)}, 400, api.CodeInvalidArgument, "name"},
		{"tag digest", "POST", "/registry/v2/tags/" + nginx, map[string]string{"name": "ok", "digest": "md5:1"}, 400, api.CodeInvalidArgument, "digest"},
		{"sink not https", "POST", "/events/v2/subscriptions/" + platform, api.Subscription{Sink: "http://hooks.example.com"}, 400, api.CodeInvalidArgument, "sink"},
		{"repo name required", "POST", "/registry/v2/repos/" + platform, api.Repo{Description: "x"}, 400, api.CodeInvalidArgument, "name"},
		{"group name too short", "POST", "/iam/v2/groups/" + platform, api.Group{Name: "ab"}, 400, api.CodeInvalidArgument, "name"},
		{"group name too long", "POST", "/iam/v2/groups/" + platform, api.Group{Name: strings.Repeat("g", 64)}, 400, api.CodeInvalidArgument, "name"},
		{"identity name too short", "POST", "/iam/v2/identities/" + platform, api.Identity{Name: "ab"}, 400, api.CodeInvalidArgument, "name"},
		{"repo catalog tier", "PATCH", "/registry/v2/repos/" + nginx + "?update_mask=catalog_tier", api.Repo{CatalogTier: "GOLD"}, 400, api.CodeInvalidArgument, "catalogTier"},
		{"malformed JSON", "POST", "/iam/v2/groups/" + platform, `{"name":`, 400, api.CodeInvalidArgument, "body"},
		{"unknown JSON field", "POST", "/iam/v2/groups/" + platform, `{"nom":"x"}`, 400, api.CodeInvalidArgument, "body"},
		{"binding without role", "POST", "/iam/v2/roleBindings/" + platform, api.CreateRoleBinding{IdentityUID: alice}, 400, api.CodeInvalidArgument, "roleUid"},
		{"repo name taken", "POST", "/registry/v2/repos/" + api.ParentUID(nginx), api.Repo{Name: "nginx"}, 409, api.CodeAlreadyExists, ""},
		{"binding exists", "POST", "/iam/v2/roleBindings/" + e.org, api.CreateRoleBinding{IdentityUID: alice, RoleUID: builtinRoleUID("owner")}, 409, api.CodeAlreadyExists, ""},
		{"binding to missing identity", "POST", "/iam/v2/roleBindings/" + e.org, api.CreateRoleBinding{IdentityUID: e.org + "/0000000000000000", RoleUID: viewerRoleUID}, 404, api.CodeNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := wantErr(t, e.call(tc.method, tc.path, adminTok, tc.body), tc.status, tc.code)
			if tc.field != "" {
				if f := fieldOf(t, s); f != tc.field {
					t.Errorf("field %q, want %q (%s)", f, tc.field, s.Message)
				}
				if !strings.HasPrefix(s.Message, "Invalid argument: ") {
					t.Errorf("message %q", s.Message)
				}
			}
		})
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	missing := e.org + "/ffffffffffffffff"
	for path, typ := range map[string]string{
		"/iam/v2/groups/" + missing:                          typeGroup,
		"/iam/v2/identities/" + missing:                      typeIdentity,
		"/registry/v2/repos/" + missing:                      typeRepo,
		"/registry/v2/repos/" + missing + "/readme":          typeRepo,
		"/registry/v2/tags/" + missing + "/0123456789abcdef": typeTag,
		"/events/v2/subscriptions/" + missing:                typeSubscription,
		"/vulnerabilities/v2/advisories/nope":                typeAdvisory,
		"/iam/v2/roles/" + strings.Repeat("0", 40):           typeRole,
	} {
		s := wantErr(t, e.get(path), 404, api.CodeNotFound)
		ri := (&api.Error{Status: s}).ResourceInfo()
		if ri == nil || ri.ResourceType != typ || !strings.HasPrefix(s.Message, "Not found: ") {
			t.Errorf("%s: resource info %+v, message %q", path, ri, s.Message)
		}
	}
}

func TestRoleBindingDeleteIsIdempotent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	p := e.list("/iam/v2/roleBindings", "roleBindings", url.Values{"uidp.descendants_of": {e.org}})
	uid := p.Items[0]["uid"].(string)
	for range 2 {
		r := e.call("DELETE", "/iam/v2/roleBindings/"+uid, adminTok, nil)
		if r.status != http.StatusOK || strings.TrimSpace(string(r.body)) != "{}" {
			t.Fatalf("delete: %d %s", r.status, r.body)
		}
	}
	wantErr(t, e.get("/iam/v2/roleBindings/"+uid), 404, api.CodeNotFound)
}

// TestPatchMemberPaths: an update mask may name a member of claim_match
// (claim_match.issuer, claim_match.subject), which changes that member
// only; claim_match whole replaces it; unknown members and camelCase paths
// are refused on update_mask.
func TestPatchMemberPaths(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	alice := e.identityUID("alice")
	var before api.Identity
	e.ok(e.get("/iam/v2/identities/"+alice), &before)
	patch := func(mask, body string) api.Identity {
		t.Helper()
		var id api.Identity
		e.ok(e.call("PATCH", "/iam/v2/identities/"+alice+"?update_mask="+url.QueryEscape(mask), adminTok, body), &id)
		var stored api.Identity
		e.ok(e.get("/iam/v2/identities/"+alice), &stored)
		if mustJSON(stored) != mustJSON(id) {
			t.Fatalf("mask %s: answered %s, stored %s", mask, mustJSON(id), mustJSON(stored))
		}
		return id
	}
	id := patch("claim_match.issuer", `{"claimMatch":{"issuer":"https://issuer.example","subject":"ignored"}}`)
	if id.ClaimMatch == nil || id.ClaimMatch.Issuer != "https://issuer.example" || id.ClaimMatch.Subject != before.ClaimMatch.Subject || id.Description != before.Description {
		t.Fatalf("claim_match.issuer: %s", mustJSON(id))
	}
	id = patch("claim_match.subject", `{"claimMatch":{"subject":"user-42"}}`)
	if id.ClaimMatch.Issuer != "https://issuer.example" || id.ClaimMatch.Subject != "user-42" {
		t.Fatalf("claim_match.subject: %s", mustJSON(id))
	}
	id = patch("claim_match.issuer,claim_match.subject", `{"claimMatch":{"issuer":"https://a.example","subject":"b"}}`)
	if mustJSON(id.ClaimMatch) != mustJSON(&api.ClaimMatch{Issuer: "https://a.example", Subject: "b"}) {
		t.Fatalf("both members: %s", mustJSON(id))
	}
	id = patch("claim_match", `{"claimMatch":{"issuer":"https://c.example","subject":"d"},"description":"ignored"}`)
	if mustJSON(id.ClaimMatch) != mustJSON(&api.ClaimMatch{Issuer: "https://c.example", Subject: "d"}) || id.Description != before.Description {
		t.Fatalf("claim_match whole: %s", mustJSON(id))
	}
	// A member left out of the body is cleared, and the result is checked.
	s := wantErr(t, e.call("PATCH", "/iam/v2/identities/"+alice+"?update_mask=claim_match.subject", adminTok, `{}`), 400, api.CodeInvalidArgument)
	if f := fieldOf(t, s); f != "claimMatch.subject" {
		t.Errorf("cleared subject: field %q", f)
	}
	for _, mask := range []string{"claim_match.email", "description.text", "claim_match.issuer.x", "name.first",
		"claimMatch.issuer", "claimMatch", "claim_match.subjectPattern", "email", "*,name"} {
		s := wantErr(t, e.call("PATCH", "/iam/v2/identities/"+alice+"?update_mask="+url.QueryEscape(mask), adminTok, `{}`), 400, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != "update_mask" || !strings.Contains(s.Message, strings.Split(mask, ",")[0]) {
			t.Errorf("mask %s: field %q, message %q", mask, f, s.Message)
		}
	}
	// "*" replaces every updatable field: description, name, claim match.
	id = patch("*", `{"name":"alice","description":"Alice","claimMatch":{"issuer":"https://e.example","subject":"f"}}`)
	if id.Description != "Alice" || mustJSON(id.ClaimMatch) != mustJSON(&api.ClaimMatch{Issuer: "https://e.example", Subject: "f"}) || id.Name != "alice" || id.Email != before.Email {
		t.Fatalf("*: %s", mustJSON(id))
	}
	// The name is updatable (3 to 63 characters of the pattern).
	id = patch("name", `{"name":"alice n"}`)
	if id.Name != "alice n" || id.Description != "Alice" {
		t.Fatalf("name: %s", mustJSON(id))
	}
	for _, name := range []string{"al", "Alice", strings.Repeat("a", 64)} {
		s := wantErr(t, e.call("PATCH", "/iam/v2/identities/"+alice+"?update_mask=name", adminTok, api.Identity{Name: name}), 400, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != "name" {
			t.Errorf("name %q: field %q", name, f)
		}
	}
}
