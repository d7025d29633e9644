package emulator

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"

	"canopy/api"
)

// orderCase is one order_by asked of one list, and whether a strict and a
// lenient server take it.
type orderCase struct {
	path, plural, order string
	strict, lenient     bool
}

func orderCases(e *env) []orderCase {
	const groups, tags, subs, advs, binds = "/iam/v2/groups", "/registry/v2/tags", "/events/v2/subscriptions",
		"/vulnerabilities/v2/advisories", "/iam/v2/roleBindings"
	arts := "/libraries/v2/artifacts"
	vers := arts + "/" + url.PathEscape("pypi/requests") + "/versions"
	return []orderCase{
		{groups, "groups", "name", true, true},
		{groups, "groups", "name desc", true, true},
		{groups, "groups", "created_at desc", true, true},
		{groups, "groups", "uid", true, true},
		{groups, "groups", "update_time", false, true},
		{groups, "groups", "create_time", false, true},
		{groups, "groups", "createdAt", false, true},
		{"/iam/v2/identities", "identities", "created_at", true, true},
		{"/iam/v2/roles", "roles", "name asc", true, true},
		{"/registry/v2/repos", "repos", "created_at desc", true, true},
		{"/registry/v2/repos", "repos", "update_time desc", false, true},
		{tags, "tags", "name", true, true},
		{tags, "tags", "created_at", false, true}, // a tag has no createTime
		{tags, "tags", "update_time desc", false, true},
		{subs, "subscriptions", "uid desc", true, true},
		{subs, "subscriptions", "name", false, true}, // a subscription has no name
		{subs, "subscriptions", "created_at", false, true},
		{advs, "advisories", "created_at desc", true, true},
		{advs, "advisories", "name", false, true}, // an advisory has an advisoryId, no name
		{binds, "roleBindings", "created_at", true, true},
		{binds, "roleBindings", "name", false, true},
		{arts, "artifacts", "name desc", true, true},
		{arts, "artifacts", "update_time", false, true},
		{vers, "artifactVersions", "version", true, true},
		{vers, "artifactVersions", "created_at desc", true, true},
		{vers, "artifactVersions", "name", false, true},
		{groups, "groups", "size", false, false},
		{groups, "groups", "name sideways", false, false},
	}
}

// TestStrictOrders: a strict server takes only the documented orders and
// refuses the rest on order_by (api.RefusedOrder); a lenient one takes
// what it always took.
func TestStrictOrders(t *testing.T) {
	t.Parallel()
	for _, strict := range []bool{true, false} {
		e := newEnv(t, Options{Seed: 1, Strict: strict})
		for _, tc := range orderCases(e) {
			want := tc.lenient
			if strict {
				want = tc.strict
			}
			q := url.Values{"order_by": {tc.order}, "ecosystems": {api.EcosystemPython}}
			r := e.get(tc.path + "?" + q.Encode())
			if want {
				if r.status != 200 {
					t.Errorf("strict %v: %s order_by=%q: %d %s", strict, tc.path, tc.order, r.status, r.body)
				}
				continue
			}
			s := wantErr(t, r, 400, api.CodeInvalidArgument)
			if f := fieldOf(t, s); f != "order_by" || !api.RefusedOrder(&api.Error{Status: s}) {
				t.Errorf("strict %v: %s order_by=%q: field %q, message %q", strict, tc.path, tc.order, f, s.Message)
			}
		}
	}
}

// TestStrictOmitsTotalCount: every list of a strict server leaves
// totalCount out, and paging by the token alone still covers everything;
// a lenient server gives it.
func TestStrictOmitsTotalCount(t *testing.T) {
	t.Parallel()
	lists := []struct{ path, plural string }{
		{"/iam/v2/groups", "groups"}, {"/iam/v2/identities", "identities"}, {"/iam/v2/roles", "roles"},
		{"/iam/v2/roleBindings", "roleBindings"}, {"/registry/v2/repos", "repos"}, {"/registry/v2/tags", "tags"},
		{"/events/v2/subscriptions", "subscriptions"}, {"/vulnerabilities/v2/advisories", "advisories"},
		{"/libraries/v2/artifacts?ecosystems=ECOSYSTEM_JAVA", "artifacts"},
		{"/libraries/v2/artifacts/" + url.PathEscape("maven/com.google.guava:guava") + "/versions", "artifactVersions"},
	}
	strict, lenient := newEnv(t, Options{Seed: 1, Strict: true}), newEnv(t, Options{Seed: 1})
	for _, l := range lists {
		for _, e := range []*env{strict, lenient} {
			var raw map[string]json.RawMessage
			e.ok(e.get(l.path), &raw)
			if _, has := raw["totalCount"]; has == e.srv.strict {
				t.Errorf("strict %v: %s: totalCount present %v", e.srv.strict, l.path, has)
			}
			if _, ok := raw[l.plural]; !ok {
				t.Errorf("%s: no %s in %s", l.path, l.plural, raw)
			}
		}
	}
	big := strict.repoUID("aws-cli")
	q := url.Values{"uidp.children_of": {big}, "page_size": {"200"}}
	got, _ := walk(t, strict, "/registry/v2/tags", "tags", q)
	want, total := walk(t, lenient, "/registry/v2/tags", "tags", url.Values{"uidp.children_of": {big}, "page_size": {"200"}})
	if !slices.Equal(got, want) || len(got) != total {
		t.Errorf("strict paging by token: %d tags, lenient %d (total %d)", len(got), len(want), total)
	}
}

// TestStrictBuiltinRoles: a strict server lists the built-in roles (flat
// uids) only in a roles list without a uidp filter; a lenient one lists
// them under any filter. api.RolesOf gathers them from either.
func TestStrictBuiltinRoles(t *testing.T) {
	t.Parallel()
	for _, strict := range []bool{true, false} {
		e := newEnv(t, Options{Seed: 1, Strict: strict})
		builtIn := func(q url.Values) (n, custom int) {
			q.Set("page_size", "200")
			for _, it := range e.list("/iam/v2/roles", "roles", q).Items {
				if r := (api.Role{UID: it["uid"].(string)}); r.BuiltIn() {
					n++
				} else {
					custom++
				}
			}
			return n, custom
		}
		if n, _ := builtIn(url.Values{}); n != len(builtinRoles) {
			t.Errorf("strict %v: no filter lists %d built-in roles, want %d", strict, n, len(builtinRoles))
		}
		for _, q := range []url.Values{{"uidp.descendants_of": {e.org}}, {"uidp.children_of": {e.org}}, {"uidp.in_root": {"true"}}} {
			n, custom := builtIn(q)
			if want := map[bool]int{true: 0, false: len(builtinRoles)}[strict]; n != want {
				t.Errorf("strict %v: %v lists %d built-in roles, want %d", strict, q, n, want)
			}
			if _, ok := q["uidp.in_root"]; !ok && custom == 0 {
				t.Errorf("strict %v: %v lists no custom role", strict, q)
			}
		}
		hs := httptest.NewServer(e.srv)
		defer hs.Close()
		c, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(adminTok, "test")})
		if err != nil {
			t.Fatal(err)
		}
		roles, err := c.RolesOf(t.Context(), e.org)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range roles {
			if r.BuiltIn() {
				n++
			}
		}
		if n != len(builtinRoles) || len(roles) <= n {
			t.Errorf("strict %v: RolesOf gave %d roles, %d built in", strict, len(roles), n)
		}
	}
}
