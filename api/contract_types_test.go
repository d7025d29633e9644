package api_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"canopy/api"
)

// routeOf is the table's route of call; the test fails without one.
func routeOf(t *testing.T, call string) api.Route {
	t.Helper()
	for _, r := range api.Contract() {
		if r.Call == call {
			return r
		}
	}
	t.Fatalf("no route %s in the table", call)
	return api.Route{}
}

// TestContractShape: one route per call, each complete for its kind, and
// every route of every Contract() a copy of its own.
func TestContractShape(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, r := range api.Contract() {
		if seen[r.Call] {
			t.Errorf("%s: listed twice", r.Call)
		}
		seen[r.Call] = true
		if r.Service == "" || r.RPC == "" || r.Method == "" || !strings.HasPrefix(r.Path, "/") {
			t.Errorf("%s: incomplete: %+v", r.Call, r)
		}
		if hasBody := r.Method == "POST" || r.Method == "PATCH"; hasBody != (r.Body != "") {
			t.Errorf("%s: %s with body %q", r.Call, r.Method, r.Body)
		}
		if patch := r.Method == "PATCH"; patch != (len(r.Updates) > 0) || patch != (slices.Contains(r.Query, "update_mask") || r.MaskOf != "") {
			t.Errorf("%s: %s with updates %v and query %v", r.Call, r.Method, r.Updates, r.Query)
		}
		if (r.ListKey == "") != (len(r.Page) == 0) {
			t.Errorf("%s: list key %q with page keys %v", r.Call, r.ListKey, r.Page)
		}
	}
	// A route changed in place changes no other route, nor the next Contract().
	fresh := api.Contract()
	for i := range fresh {
		a := api.Contract()
		scribble(&a[i])
		for k := range a {
			if k != i && !reflect.DeepEqual(a[k], fresh[k]) {
				t.Errorf("changing %s changed %s", fresh[i].Call, fresh[k].Call)
			}
		}
	}
	if !reflect.DeepEqual(api.Contract(), fresh) {
		t.Error("a change to one Contract() reached the next")
	}
}

// scribble overwrites everything a route's slices hold.
func scribble(r *api.Route) {
	for _, l := range [][]string{r.Query, r.Page, r.Reads, r.Sends} {
		for j := range l {
			l[j] = "scribbled"
		}
	}
	for j := range r.Updates {
		r.Updates[j] = api.Update{Mask: "scribbled"}
	}
	for j := range r.Enums {
		for k := range r.Enums[j].Values {
			r.Enums[j].Values[k] = "scribbled"
		}
	}
}

// TestContractChecksCatch: the request checks find what they are for, so
// that TestContractRequests passing means something.
func TestContractChecksCatch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		call string
		ex   exchange
		want string // in the one problem found; "" for none
	}{
		{"ListArtifactVersions", exchange{method: "GET", target: "/libraries/v2/artifacts/pypi%2Frequests/versions"}, ""},
		{"ListArtifactVersions", exchange{method: "GET", target: "/libraries/v2/artifacts/pypi/requests/versions"}, "does not fit"},
		{"GetRepo", exchange{method: "GET", target: "/registry/v2/repos/org/a/b"}, ""},
		{"GetRepo", exchange{method: "DELETE", target: "/registry/v2/repos/org/a/b"}, "method DELETE"},
		{"GetRepo", exchange{method: "GET", target: "/registry/v2/repos/org/a/b", body: []byte(`{}`)}, "neither"},
		{"ListSubscriptions", exchange{method: "GET", target: "/events/v2/subscriptions?name=x"}, "query parameter name"},
		{"CountArtifacts", exchange{method: "GET", target: "/libraries/v2/artifacts/count?ecosystems=python"}, "ecosystems=python"},
		{"CreateRepo", exchange{method: "POST", target: "/registry/v2/repos/org", body: []byte(`{"uid":"org/x"}`)}, "body field uid"},
		{"CreateRepo", exchange{method: "POST", target: "/registry/v2/repos/org", body: []byte(`{"catalogTier":"base"}`)}, "catalogTier=base"},
		{"PatchRepo", exchange{method: "PATCH", target: "/registry/v2/repos/org/x?update_mask=catalogTier", body: []byte(`{}`)},
			`path "catalogTier"`},
		{"PatchRepo", exchange{method: "PATCH", target: "/registry/v2/repos/org/x?update_mask=name", body: []byte(`{"description":"d"}`)},
			"not named by the mask"},
		{"PatchRepo", exchange{method: "PATCH", target: "/registry/v2/repos/org/x", body: []byte(`{"name":"n"}`)}, "without an update_mask"},
		{"PatchIdentity", exchange{method: "PATCH", target: "/iam/v2/identities/org/x?update_mask=claim_match.subject",
			body: []byte(`{"claimMatch":{"subject":"s","issuer":"i"}}`)}, "claimMatch.issuer is not named"},
		{"PatchIdentity", exchange{method: "PATCH", target: "/iam/v2/identities/org/x?update_mask=*",
			body: []byte(`{"uid":"org/x","claimMatch":{"claims":{"any":"thing"}},"createTime":"2026-01-01T00:00:00.000Z"}`)}, ""},
	}
	for _, tc := range cases {
		bad := checkExchange(routeOf(t, tc.call), tc.ex, func(string) {})
		switch {
		case tc.want == "" && len(bad) > 0:
			t.Errorf("%s %s: %v, want no problem", tc.call, tc.ex.target, bad)
		case tc.want != "" && (len(bad) != 1 || !strings.Contains(bad[0], tc.want)):
			t.Errorf("%s %s: %q, want one problem saying %q", tc.call, tc.ex.target, bad, tc.want)
		}
	}
}

// answerTypes are the Go types the client decodes each call's answer into
// (an item's, for a List); nil for a call whose answer it does not read.
func answerTypes() map[string]reflect.Type {
	out := map[string]reflect.Type{"GetRepoReadme": reflect.TypeFor[api.RepoReadme](),
		"GetArchitectures": reflect.TypeFor[api.Architectures](), "GetImageSize": reflect.TypeFor[api.ImageSize](),
		"ListArtifactVersions": reflect.TypeFor[api.ArtifactVersion](),
		"CountArtifacts":       reflect.TypeFor[api.ArtifactCounts](), "Ping": reflect.TypeFor[api.PingResponse]()}
	out["ListDocuments"] = reflect.TypeFor[api.DocumentsAnswer]()
	out["ListVulnerabilityMetadata"] = reflect.TypeFor[api.VulnerabilityMetadata]()
	out["ListResolvedVulnsReports"] = reflect.TypeFor[api.ResolvedAnswer]()
	out["LookupGroup"] = reflect.TypeFor[api.LookedUpGroup]()
	out["CheckEligibility"] = reflect.TypeFor[api.Eligibility]()
	out["LookupIdentity"] = reflect.TypeFor[api.LookedUpIdentity]()
	out["UpdateIdentityMetadata"] = reflect.TypeFor[api.IdentityMetadata]()
	out["UpdateRepoReadme"] = reflect.TypeFor[api.RepoReadme]()
	out["CheckAccountAssociation"] = reflect.TypeFor[api.AccountCheck]()
	out["AcceptTerms"] = reflect.TypeFor[api.AcceptedTerms]()
	for _, c := range []string{"ListAccountAssociations", "GetAccountAssociation", "CreateAccountAssociation", "PatchAccountAssociation"} {
		out[c] = reflect.TypeFor[api.AccountAssociation]()
	}
	out["ListTermsAcceptances"] = reflect.TypeFor[api.TermsAcceptance]()
	out["PatchRoleBinding"] = reflect.TypeFor[api.RoleBinding]()
	out["BatchCreateRoleBindings"] = reflect.TypeFor[api.BatchCreatedBindings]()
	out["PatchIdentityProvider"] = reflect.TypeFor[api.IdentityProvider]()
	out["GenerateScimToken"] = reflect.TypeFor[api.ScimToken]()
	out["RegenerateScimToken"] = reflect.TypeFor[api.RegeneratedScimToken]()
	out["RevokeScimToken"] = reflect.TypeFor[api.ScimRevoked]()
	out["SetScimEnabled"] = reflect.TypeFor[api.ScimSwitched]()
	for typ, calls := range map[reflect.Type][]string{
		reflect.TypeFor[api.Repo]():             {"ListRepos", "GetRepo", "CreateRepo", "PatchRepo"},
		reflect.TypeFor[api.Tag]():              {"ListTags", "GetTag", "CreateTag"},
		reflect.TypeFor[api.Group]():            {"ListGroups", "GetGroup", "CreateGroup", "PatchGroup"},
		reflect.TypeFor[api.Identity]():         {"ListIdentities", "GetIdentity", "CreateIdentity", "PatchIdentity"},
		reflect.TypeFor[api.Role]():             {"ListRoles", "GetRole", "CreateRole", "UpdateRole"},
		reflect.TypeFor[api.RoleBinding]():      {"ListRoleBindings", "GetRoleBinding", "CreateRoleBinding"},
		reflect.TypeFor[api.Advisory]():         {"ListAdvisories", "GetAdvisory"},
		reflect.TypeFor[api.Artifact]():         {"ListArtifacts"},
		reflect.TypeFor[api.Subscription]():     {"ListSubscriptions", "GetSubscription", "CreateSubscription"},
		reflect.TypeFor[api.IdentityProvider](): {"ListIdentityProviders", "GetIdentityProvider", "CreateIdentityProvider"},
		reflect.TypeFor[api.GroupInvite]():      {"ListGroupInvites", "GetGroupInvite", "CreateGroupInvite"},
		reflect.TypeFor[api.ExternalGroupRoleMapping](): {"ListExternalGroupRoleMappings", "GetExternalGroupRoleMapping",
			"CreateExternalGroupRoleMapping"},
		reflect.TypeFor[api.BatchDeletedMappings](): {"BatchDeleteExternalGroupRoleMappings"},
	} {
		for _, c := range calls {
			out[c] = typ
		}
	}
	return out
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// jsonFields adds the dotted JSON paths of the fields of a struct type as
// encoding/json decodes them to leaves; a struct is followed into its
// tagged fields, and one that also decodes itself (json.Unmarshaler) is
// noted in custom, for it may read keys that no field names.
func jsonFields(t reflect.Type, prefix string, leaves, custom map[string]bool) {
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		p := prefix + name
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() != reflect.Struct || !slices.ContainsFunc(slices.Collect(ft.Fields()), reflect.StructField.IsExported) {
			leaves[p] = true
			continue
		}
		if reflect.PointerTo(ft).Implements(unmarshaler) {
			custom[p] = true
		}
		jsonFields(ft, p+".", leaves, custom)
	}
}

// TestContractReadsMatchTypes: the fields the table says a call reads are
// the fields of the Go type the client decodes its answer into, so that a
// field added to a type without the table (or the other way) is caught.
func TestContractReadsMatchTypes(t *testing.T) {
	t.Parallel()
	types := answerTypes()
	for _, r := range api.Contract() {
		typ, ok := types[r.Call]
		if !ok {
			if len(r.Reads) > 0 {
				t.Errorf("%s reads %v, but the test knows no type it decodes into", r.Call, r.Reads)
			}
			continue
		}
		leaves, custom := map[string]bool{}, map[string]bool{}
		jsonFields(typ, "", leaves, custom)
		for p := range leaves {
			if !slices.Contains(r.Reads, p) {
				t.Errorf("%s: %v decodes %s, which the table does not list as read", r.Call, typ, p)
			}
		}
		for _, p := range r.Reads {
			byHand := false
			for c := range custom {
				byHand = byHand || strings.HasPrefix(p, c+".")
			}
			if !leaves[p] && !byHand {
				t.Errorf("%s: the table lists %s as read, but %v has no such field", r.Call, p, typ)
			}
		}
	}
}

// enumLiteral is a quoted enum value of the vendor's API in Go source: a
// prefix of one of the enums the client meets, and more.
var enumLiteral = regexp.MustCompile(`"((?:CATALOG_TIER|ECOSYSTEM|REVIEW_STATE|TYPE|SERVICE_PRINCIPAL|ORG_KIND|ORG_STATUS|RELATIONSHIP_TYPE|EVENT_TYPE_FILTER|ACCOUNT_PROVIDER_TYPE|CHECK_STATUS)_[A-Z0-9_]*[A-Z0-9])"`)

// TestContractEnumLiterals: every enum value written out in canopy's code
// (ui/edit.go's catalog tiers, views' review states and reasons) is one the
// table lists, so the proto check covers it. The emulator's are its own.
func TestContractEnumLiterals(t *testing.T) {
	t.Parallel()
	known := map[string]bool{}
	for _, r := range api.Contract() {
		for _, e := range r.Enums {
			for _, v := range e.Values {
				known[v] = true
			}
		}
	}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "emulator" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, m := range enumLiteral.FindAllStringSubmatch(line, -1) {
				if !known[m[1]] {
					t.Errorf("%s:%d: %s is not among the table's enum values (api/contract_*.go)", path, i+1, m[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
