package emulator

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

func TestIdentityCapabilities(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	nginx := e.repoUID("nginx")
	viewer := e.tokenFor(issuerGoogle, "109283746501928374650") // carol: viewer on the org
	editor := e.tokenFor(issuerGoogle, "117730195837465019283") // bob: editor on the org
	owner := e.tokenFor(issuerGoogle, "104829573610293847561")  // alice: owner on the org

	t.Run("viewer reads", func(t *testing.T) {
		var r api.Repo
		e.ok(e.call("GET", "/registry/v2/repos/"+nginx, viewer, nil), &r)
		if r.Name != "nginx" {
			t.Fatalf("repo %+v", r)
		}
	})
	t.Run("viewer cannot patch", func(t *testing.T) {
		s := wantErr(t, e.call("PATCH", "/registry/v2/repos/"+nginx, viewer, `{"description":"x"}`), 403, api.CodePermissionDenied)
		if !strings.HasPrefix(s.Message, "Permission denied: ") || !strings.Contains(s.Message, `"carol"`) || !strings.Contains(s.Message, capRepoUpdate) {
			t.Fatalf("message %q", s.Message)
		}
	})
	t.Run("editor patches but cannot bind roles", func(t *testing.T) {
		e.ok(e.call("PATCH", "/registry/v2/repos/"+nginx, editor, `{"description":"by bob"}`), nil)
		carol := e.identityUID("carol")
		s := wantErr(t, e.call("POST", "/iam/v2/roleBindings/"+e.org, editor,
			api.CreateRoleBinding{IdentityUID: carol, RoleUID: builtinRoleUID("editor")}), 403, api.CodePermissionDenied)
		if !strings.Contains(s.Message, capBindingsCreate) {
			t.Fatalf("message %q", s.Message)
		}
	})
	t.Run("owner binds roles", func(t *testing.T) {
		carol := e.identityUID("carol")
		var b api.RoleBinding
		e.ok(e.call("POST", "/iam/v2/roleBindings/"+e.org, owner, api.CreateRoleBinding{IdentityUID: carol, RoleUID: builtinRoleUID("editor")}), &b)
		if b.Role == nil || b.Role.Name != "editor" {
			t.Fatalf("binding %+v", b)
		}
	})
	t.Run("owner of one org sees nothing of the other", func(t *testing.T) {
		roots := e.listAs(owner, "/iam/v2/groups", "groups", url.Values{"uidp.in_root": {"true"}})
		if roots.TotalCount != "1" || roots.Items[0]["uid"] != e.org {
			t.Fatalf("roots %+v", roots)
		}
	})
}

func TestSubgroupIdentityScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	tok := e.tokenFor(issuerGitHub, "repo:acme/payments:environment:production") // viewer on apps/payments only
	payments := e.groupUID("payments")

	groups := e.listAs(tok, "/iam/v2/groups", "groups", url.Values{"uidp.descendants_of": {e.org}, "page_size": {"200"}})
	for _, u := range uids(groups.Items) {
		if u != payments && !api.IsDescendant(u, payments) {
			t.Errorf("sees group %s outside its scope", u)
		}
	}
	all := e.listAs(tok, "/iam/v2/groups", "groups", url.Values{})
	if all.TotalCount != "1" || all.Items[0]["uid"] != payments {
		t.Fatalf("unscoped group list: %+v", all)
	}
	// It cannot list the organization's registry (spec: scoped to the subgroup, no registry).
	for _, q := range []url.Values{{}, {"uidp.descendants_of": {e.org}}, {"uidp.descendants_of": {payments}}} {
		wantErr(t, e.call("GET", "/registry/v2/repos?"+q.Encode(), tok, nil), 403, api.CodePermissionDenied)
	}
	wantErr(t, e.call("GET", "/registry/v2/repos/"+e.repoUID("postgres"), tok, nil), 403, api.CodePermissionDenied)
	// Out of scope Gets answer 403, whether or not the resource exists.
	wantErr(t, e.call("GET", "/iam/v2/groups/"+e.groupUID("security"), tok, nil), 403, api.CodePermissionDenied)
	wantErr(t, e.call("GET", "/iam/v2/groups/"+e.org+"/ffffffffffffffff", tok, nil), 403, api.CodePermissionDenied)
	// Its own group and its bindings are visible.
	e.ok(e.call("GET", "/iam/v2/groups/"+payments, tok, nil), nil)
	b := e.listAs(tok, "/iam/v2/roleBindings", "roleBindings", url.Values{})
	if len(b.Items) == 0 {
		t.Fatal("sees no bindings of its own group")
	}
	for _, u := range uids(b.Items) {
		if !api.IsDescendant(u, payments) {
			t.Errorf("sees binding %s", u)
		}
	}
	// Built-in roles are always listed; the advisory feed is readable.
	roles := e.listAs(tok, "/iam/v2/roles", "roles", url.Values{})
	if roles.TotalCount != "8" {
		t.Errorf("roles: %s, want the 8 built-ins", roles.TotalCount)
	}
	e.ok(e.call("GET", "/vulnerabilities/v2/advisories", tok, nil), nil)
}

func TestExpiredIdentityToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	tok := IdentityToken(issuerGoogle, "104829573610293847561", e.clock.Now().Add(time.Minute))
	e.ok(e.call("GET", "/iam/v2/groups", tok, nil), nil)
	e.clock.Add(2 * time.Minute)
	wantErr(t, e.call("GET", "/iam/v2/groups", tok, nil), 401, api.CodeUnauthenticated)
}

// TestBearerSchemeIsCaseInsensitive: "bearer" and "BEARER" are the same
// scheme (RFC 9110 §11.1); another scheme is no token at all.
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	for _, h := range []string{"bearer " + adminTok, "BEARER " + adminTok, "Basic " + adminTok, "Bearer", adminTok} {
		req, err := http.NewRequest("GET", e.base+"/iam/v2/groups/"+e.org, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", h)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		want := http.StatusUnauthorized
		if strings.HasPrefix(strings.ToLower(h), "bearer ") {
			want = http.StatusOK
		}
		if res.StatusCode != want {
			t.Errorf("Authorization %q: status %d, want %d", strings.Replace(h, adminTok, "<token>", 1), res.StatusCode, want)
		}
	}
}
