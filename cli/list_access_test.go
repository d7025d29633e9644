package cli

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/census"
	"canopy/cli/exit"
)

// accessOut is a row of canopy list access -o json, as a script reads it.
type accessOut struct {
	Identity struct {
		UID, Name, Workload string
		Gone                bool
	}
	Folder struct{ UID, Path string }
	Groups map[string]string
	Grants []struct {
		Capability, Short, Binding string
		Role                       struct{ UID, Name string }
		On                         struct{ UID, Path string }
		Inherited                  bool
	}
	Flags []struct{ Kind, Says string }
}

// accessWorld is the seeded organization as the client lists it, to
// count who holds what where without package census: a binding applies
// on its folder and on every folder below it.
type accessWorld struct {
	org      *api.Group
	paths    map[string]string   // every folder's path by uid, the organization's name for it
	roles    map[string]api.Role // by uid
	ids      map[string]api.Identity
	bindings []api.RoleBinding
	client   *api.Client
}

func readAccessWorld(t *testing.T, getenv func(string) string, org string) *accessWorld {
	t.Helper()
	client, err := api.New(api.Options{BaseURL: getenv("CANOPY_API_URL"), TokenSource: api.StaticToken(getenv("CANOPY_TOKEN"), "test")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	g, err := client.GetGroup(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	w := &accessWorld{org: g, paths: map[string]string{g.UID: g.Name}, roles: map[string]api.Role{}, ids: map[string]api.Identity{}, client: client}
	under := api.ListOptions{DescendantsOf: g.UID}
	names := map[string]string{}
	for _, f := range readAll(t, client.ListGroups, api.GroupKey, under) {
		names[f.UID] = f.Name
	}
	for uid := range names {
		var parts []string
		for u := uid; u != g.UID; u = api.ParentUID(u) {
			parts = append([]string{names[u]}, parts...)
		}
		w.paths[uid] = strings.Join(parts, "/")
	}
	roles, err := client.RolesOf(ctx, g.UID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roles {
		w.roles[r.UID] = r
	}
	for _, id := range readAll(t, client.ListIdentities, api.IdentityKey, under) {
		w.ids[id.UID] = id
	}
	w.bindings = readAll(t, client.ListRoleBindings, api.RoleBindingKey, under)
	if len(w.paths) < 5 || len(w.roles) == 0 || len(w.ids) == 0 || len(w.bindings) == 0 {
		t.Fatalf("the seed is thin: %d folders, %d roles, %d identities, %d bindings", len(w.paths), len(w.roles), len(w.ids), len(w.bindings))
	}
	return w
}

// folder is the uid of a folder's path ("" for the organization).
func (w *accessWorld) folder(t *testing.T, path string) string {
	t.Helper()
	for uid, p := range w.paths {
		if p == path && uid != w.org.UID || path == "" && uid == w.org.UID {
			return uid
		}
	}
	t.Fatalf("no folder %q", path)
	return ""
}

// identity is the uid of the one identity named so.
func (w *accessWorld) identity(t *testing.T, name string) string {
	t.Helper()
	var found []string
	for uid, id := range w.ids {
		if id.Name == name {
			found = append(found, uid)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d identities named %s", len(found), name)
	}
	return found[0]
}

func (w *accessWorld) role(t *testing.T, name string) string {
	t.Helper()
	for uid, r := range w.roles {
		if r.Name == name {
			return uid
		}
	}
	t.Fatalf("no role %s", name)
	return ""
}

// applies reports whether a binding on folder on counts at folder at.
func applies(on, at string) bool { return on == at || strings.HasPrefix(at, on+"/") }

// at is every identity's capabilities at a folder, of those a binding
// applies to there.
func (w *accessWorld) at(folder string) map[string][]string {
	out := map[string][]string{}
	for _, b := range w.bindings {
		if b.Group == nil || b.Identity == nil || b.Role == nil || !applies(b.Group.UID, folder) {
			continue
		}
		out[b.Identity.UID] = union(out[b.Identity.UID], w.roles[b.Role.UID].Capabilities)
	}
	return out
}

func union(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// capsOf are the capabilities a row says the identity holds.
func capsOf(r accessOut) []string {
	var caps []string
	for _, g := range r.Grants {
		caps = union(caps, []string{g.Capability})
	}
	return caps
}

// checkRow holds a row's grants, groups and folder to the world: each
// grant a binding of that identity, on that folder or above it, of a role
// that has the capability; each group's level what those capabilities make.
func (w *accessWorld) checkRow(t *testing.T, what string, r accessOut) {
	t.Helper()
	if p, ok := w.paths[r.Folder.UID]; !ok || p != r.Folder.Path {
		t.Errorf("%s: folder %+v, want the path %q", what, r.Folder, p)
	}
	if id, ok := w.ids[r.Identity.UID]; !ok || id.Name != r.Identity.Name || r.Identity.Gone {
		t.Errorf("%s: identity %+v, listed as %+v", what, r.Identity, id)
	}
	for _, g := range r.Grants {
		ok := slices.ContainsFunc(w.bindings, func(b api.RoleBinding) bool {
			return b.UID == g.Binding && b.Identity.UID == r.Identity.UID && b.Role.UID == g.Role.UID && b.Group.UID == g.On.UID
		})
		c, _ := api.CapabilityOf(g.Capability)
		switch {
		case !ok:
			t.Errorf("%s: %s from binding %s, which is not one of %s's: %+v", what, g.Capability, g.Binding, r.Identity.Name, g)
		case !slices.Contains(w.roles[g.Role.UID].Capabilities, g.Capability) || w.roles[g.Role.UID].Name != g.Role.Name:
			t.Errorf("%s: role %+v does not grant %s", what, g.Role, g.Capability)
		case !applies(g.On.UID, r.Folder.UID) || g.Inherited != (g.On.UID != r.Folder.UID) || g.On.Path != w.paths[g.On.UID]:
			t.Errorf("%s: a grant on %+v at %s, inherited %v", what, g.On, r.Folder.Path, g.Inherited)
		case c.Short == "" || g.Short != c.Short:
			t.Errorf("%s: %s's short name %q, want %q", what, g.Capability, g.Short, c.Short)
		}
	}
	caps := capsOf(r)
	for _, grp := range census.Groups() {
		n := 0
		for _, c := range grp.Caps {
			if slices.Contains(caps, c) {
				n++
			}
		}
		want := map[bool]string{true: "some", false: "none"}[n > 0]
		if n == len(grp.Caps) {
			want = "all"
		}
		if r.Groups[grp.Key] != want {
			t.Errorf("%s: %s holds %d of %s's %d capabilities: %q, want %q", what, r.Identity.Name, n, grp.Key, len(grp.Caps), r.Groups[grp.Key], want)
		}
	}
	if len(r.Groups) != len(census.Groups()) {
		t.Errorf("%s: groups %v", what, r.Groups)
	}
}

// byIdentity are the rows' capabilities by identity, each identity once.
func byIdentity(t *testing.T, rows []accessOut) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range rows {
		if _, twice := out[r.Identity.UID]; twice {
			t.Errorf("%s has two rows", r.Identity.Name)
		}
		out[r.Identity.UID] = capsOf(r)
	}
	return out
}

// sameHoldings compares who holds what, by identity, naming the first
// differences.
func (w *accessWorld) sameHoldings(t *testing.T, what string, got, want map[string][]string) {
	t.Helper()
	for uid, caps := range want {
		if g, ok := got[uid]; !ok || !slices.Equal(g, caps) {
			t.Errorf("%s: %s holds %v, the listings say %v", what, w.ids[uid].Name, g, caps)
		}
	}
	for uid := range got {
		if _, ok := want[uid]; !ok {
			t.Errorf("%s: %s has a row, but no binding applies there", what, w.ids[uid].Name)
		}
	}
}

// TestListAccessAtFolders: who holds what at the organization (the
// default), at folders named by path and at a repo's folder named by uid
// is what the organization's folders, roles, identities and role bindings
// make of it, counted here from the client's own listings; rows in the
// order census gives them.
func TestListAccessAtFolders(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	w := readAccessWorld(t, getenv, srv.OrgUID())
	repos := readAll(t, w.client.ListRepos, api.RepoKey, api.ListOptions{DescendantsOf: srv.OrgUID()})
	i := slices.IndexFunc(repos, func(r api.Repo) bool { return strings.Contains(w.paths[api.ParentUID(r.UID)], "/") })
	if i < 0 {
		t.Fatal("no repo in a folder below a folder")
	}
	repoFolder := api.ParentUID(repos[i].UID)
	for _, tc := range []struct {
		args   []string
		folder string
	}{
		{nil, w.org.UID},
		{[]string{"--folder", "/"}, w.org.UID},
		{[]string{"--folder", "acme.example"}, w.org.UID},
		{[]string{"--folder", "apps/payments"}, w.folder(t, "apps/payments")},
		{[]string{"--folder", "platform/ci/"}, w.folder(t, "platform/ci")},
		{[]string{"--folder", repoFolder}, repoFolder},
	} {
		what := "access " + strings.Join(tc.args, " ")
		rows := listJSON[accessOut](t, getenv, append([]string{"access"}, tc.args...)...)
		want := w.at(tc.folder)
		if len(rows) != len(want) {
			t.Errorf("%s: %d rows, %d identities hold something there", what, len(rows), len(want))
		}
		w.sameHoldings(t, what, byIdentity(t, rows), want)
		for _, r := range rows {
			if r.Folder.UID != tc.folder {
				t.Errorf("%s: a row at %s", what, r.Folder.Path)
			}
			w.checkRow(t, what, r)
		}
	}
	// Below the organization, more hold something than at it (bindings
	// on folders), and those above still do.
	if at, below := w.at(w.org.UID), w.at(w.folder(t, "apps/payments")); len(below) <= len(at) {
		t.Errorf("the seed binds nobody on apps/payments: %d at the organization, %d there", len(at), len(below))
	}

	// The order is census's: by name.
	a, err := census.ReadAccess(t.Context(), w.client, *w.org, 90*24*time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, r := range a.At(w.folder(t, "apps/payments")) {
		want = append(want, r.Who.UID)
	}
	for _, r := range listJSON[accessOut](t, getenv, "access", "--folder", "apps/payments") {
		got = append(got, r.Identity.UID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows in the order %v, census's %v", got, want)
	}
}

// TestListAccessOfIdentity: --identity NAME|UID is that identity at each
// folder where a binding of its applies, holding there what those
// bindings' roles grant; with --folder, at that folder only.
func TestListAccessOfIdentity(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	w := readAccessWorld(t, getenv, srv.OrgUID())
	for _, name := range []string{"bob", "ci-runner", "payments-ci", "security-scanner"} {
		uid := w.identity(t, name)
		want := map[string][]string{} // capabilities by folder path
		for f, p := range w.paths {
			if caps, ok := w.at(f)[uid]; ok {
				want[p] = caps
			}
		}
		for _, by := range []string{name, uid} {
			rows := listJSON[accessOut](t, getenv, "access", "--identity", by)
			got := map[string][]string{}
			for _, r := range rows {
				if r.Identity.UID != uid {
					t.Errorf("--identity %s: a row of %s", by, r.Identity.Name)
				}
				got[r.Folder.Path] = capsOf(r)
				w.checkRow(t, "--identity "+by, r)
			}
			if len(rows) != len(want) || !maps.EqualFunc(got, want, slices.Equal) {
				t.Errorf("--identity %s: %d rows at %v, want %v", by, len(rows), slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
			}
		}
	}
	// bob is bound on the organization: he holds it at every folder, on
	// folders below it by inheritance.
	if rows := listJSON[accessOut](t, getenv, "access", "--identity", "bob"); len(rows) != len(w.paths) || rows[0].Folder.UID != w.org.UID ||
		rows[0].Grants[0].Inherited || !rows[1].Grants[0].Inherited {
		t.Errorf("bob: %d rows for %d folders, the organization's first, inherited below it", len(rows), len(w.paths))
	}
	// ci-runner only where it is bound.
	if rows := listJSON[accessOut](t, getenv, "access", "--identity", "ci-runner"); len(rows) != 1 || rows[0].Folder.Path != "platform/ci" ||
		rows[0].Identity.Workload == "" {
		t.Errorf("ci-runner: %+v", rows)
	}

	uid := w.identity(t, "payments-ci")
	rows := listJSON[accessOut](t, getenv, "access", "--identity", "payments-ci", "--folder", "apps/payments")
	if len(rows) != 1 || rows[0].Identity.UID != uid || !slices.Equal(capsOf(rows[0]), w.at(w.folder(t, "apps/payments"))[uid]) {
		t.Errorf("payments-ci at apps/payments: %+v", rows)
	}
	if out, errs, code := list(t, getenv, "access", "--identity", "payments-ci", "--folder", "apps/web", "-o", "json"); code != 0 || out != "[]\n" {
		t.Errorf("payments-ci at apps/web, where it holds nothing: exit %d %q %s", code, out, errs)
	}
}

// TestListAccessByRole: --role NAME|UID is one row per binding of that
// role, at its folder, with what that role grants.
func TestListAccessByRole(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	w := readAccessWorld(t, getenv, srv.OrgUID())
	for _, name := range []string{"editor", "viewer", "release-manager"} {
		role := w.role(t, name)
		var want []string
		for _, b := range w.bindings {
			if b.Role.UID == role {
				want = append(want, b.Identity.UID+" @ "+b.Group.UID)
			}
		}
		slices.Sort(want)
		for _, by := range []string{name, role} {
			rows := listJSON[accessOut](t, getenv, "access", "--role", by)
			var got []string
			for _, r := range rows {
				got = append(got, r.Identity.UID+" @ "+r.Folder.UID)
				if caps := capsOf(r); !slices.Equal(caps, union(nil, w.roles[role].Capabilities)) {
					t.Errorf("--role %s: %s at %s holds %v", by, r.Identity.Name, r.Folder.Path, caps)
				}
				w.checkRow(t, "--role "+by, r)
			}
			slices.Sort(got)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("--role %s: rows %v, bindings %v", by, got, want)
			}
		}
	}
}

// TestListAccessTable: the table has the matrix's columns (one a census
// group, titled as it is), a row a JSON item, "all", "some" and the dot
// for levels, and the flags by word.
func TestListAccessTable(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "access")
	titles := []string{"IDENTITY", "FOLDER"}
	for _, g := range census.Groups() {
		titles = append(titles, g.Title)
	}
	titles = append(titles, "FLAGS")
	if code != 0 || errs != "" || !regexp.MustCompile(`^`+strings.Join(titles, " +")+`\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	rows := listJSON[accessOut](t, getenv, "access")
	if strings.Count(out, "\n") != len(rows)+1 || len(rows) == 0 {
		t.Errorf("%d lines for %d rows:\n%s", strings.Count(out, "\n"), len(rows), out)
	}
	// Each row says what its item says: who, where, each group's level
	// ("all", "some", the dot for none) and its flags by word (- for none).
	cell := map[string]string{"all": "all", "some": "some", "none": "·"}
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:] {
		r := rows[min(i, len(rows)-1)]
		want := []string{regexp.QuoteMeta(r.Identity.Name), regexp.QuoteMeta(r.Folder.Path)}
		for _, g := range census.Groups() {
			want = append(want, cell[r.Groups[g.Key]])
		}
		var words []string
		for _, f := range r.Flags {
			if !slices.Contains(words, f.Kind) {
				words = append(words, f.Kind)
			}
		}
		if len(words) == 0 {
			words = []string{"-"}
		}
		want = append(want, regexp.QuoteMeta(strings.Join(words, ", ")))
		if !regexp.MustCompile(`^` + strings.Join(want, " +") + `$`).MatchString(line) {
			t.Errorf("row %d %q, its item %+v", i, line, r)
		}
	}
	for _, c := range []string{" all ", " · "} {
		if !strings.Contains(out, c) {
			t.Errorf("no cell %q:\n%s", c, out)
		}
	}
	out, _, _ = list(t, getenv, "access", "--role", "editor")
	// editor manages neither bindings nor who gets in: no IAM flag below
	// the organization.
	if !regexp.MustCompile(`(?m)^ci-runner +platform/ci +all +all +all +all +· +· +all +all +-$`).MatchString(out) {
		t.Errorf("--role editor:\n%s", out)
	}
	if out, _, code := list(t, getenv, "access", "--filter", "ci-runner", "--identity", "ci-runner"); code != 0 || strings.Count(out, "\n") != 2 {
		t.Errorf("--filter: exit %d\n%s", code, out)
	}
}

// TestListAccessMistakes: a name, path or uid that names nothing is a
// failure that says so (exit 1); flags that ask two things, or access's
// flags on another collection, a usage mistake (exit 2). Nothing is
// printed on stdout.
func TestListAccessMistakes(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--identity", "nobody"}, exit.Failure, `--identity "nobody": no identity of acme.example has this name (canopy list identities lists them)`},
		{[]string{"--identity", srv.OrgUID() + "/0123456789abcdef"}, exit.Failure, `no identity of acme.example has this uid`},
		{[]string{"--folder", "apps/nope"}, exit.Failure, `--folder "apps/nope": no folder of acme.example has this path`},
		{[]string{"--folder", srv.OrgUID() + "/0123456789abcdef"}, exit.Failure, `no folder of acme.example has this uid`},
		{[]string{"--folder", strings.Repeat("b", 40)}, exit.Failure, `not a folder of acme.example`},
		{[]string{"--role", "janitor"}, exit.Failure, `--role "janitor": no role of acme.example has this name (canopy list roles lists them)`},
		{[]string{"--role", "editor", "--identity", "bob"}, exit.Usage, `--role lists each binding of a role wherever it is: it takes neither --identity nor --folder`},
		{[]string{"--role", "editor", "--folder", "apps"}, exit.Usage, `it takes neither --identity nor --folder`},
	} {
		args := append([]string{"access"}, tc.args...)
		if out, errs, code := list(t, getenv, args...); code != tc.code || out != "" || !strings.HasPrefix(errs, "canopy list: ") ||
			!strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d %q %q, want %d and %q", args, code, out, errs, tc.code, tc.want)
		}
	}
	for _, f := range []string{"identity", "folder", "role"} {
		if _, errs, code := list(t, getenv, "repos", "--"+f, "x"); code != exit.Usage || !strings.Contains(errs, "--"+f+" applies to access only") {
			t.Errorf("repos --%s: exit %d %q", f, code, errs)
		}
	}
	if _, errs, code := list(t, getenv, "access", "--repo", "nginx"); code != exit.Usage || !strings.Contains(errs, "--repo applies to") {
		t.Errorf("access --repo: exit %d %q", code, errs)
	}
	seen := map[string]bool{}
	for _, name := range listNames() {
		if seen[name] {
			t.Errorf("canopy list names %s twice", name)
		}
		seen[name] = true
	}
}

// TestListAccessPartial: a part the token may not read (identities) is
// said on stderr, and the rows are those the rest makes (exit 0).
func TestListAccessPartial(t *testing.T) {
	t.Parallel()
	srv := seededEmulator(t)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/iam/v2/identities" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"code":7,"message":"permission denied: identities"}`))
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
	for _, o := range []string{"table", "json"} {
		out, errs, code := list(t, getenv, "access", "-o", o)
		if code != 0 || errs != "canopy list: the access review is partial: identities: not readable with this token\n" ||
			!strings.Contains(out, "alice") || !strings.Contains(out, "bob") {
			t.Errorf("-o %s: exit %d %q\n%s", o, code, errs, out)
		}
	}
	// A name is still found among the names the bindings give; one that is
	// not says the identities were not all read.
	if out, _, code := list(t, getenv, "access", "--identity", "bob"); code != 0 || !strings.Contains(out, "bob") {
		t.Errorf("--identity bob: exit %d\n%s", code, out)
	}
	if _, errs, code := list(t, getenv, "access", "--identity", "nobody"); code != exit.Failure || !strings.Contains(errs, "the identities were not all read: give a uid") {
		t.Errorf("--identity nobody: exit %d %q", code, errs)
	}
}

// TestListAccessHostile: what a hostile server names its identities,
// folders and roles is inert in the table and escaped in JSON.
func TestListAccessHostile(t *testing.T) {
	t.Parallel()
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: "list-token", Hostile: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": srv.OrgUID()})
	out, errs, code := list(t, getenv, "access", "--role", "viewer")
	if code != 0 || strings.Count(out, "\n") < 3 {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	assertInertOutput(t, "access --role viewer", out)
	if !strings.Contains(out, "␛") {
		t.Errorf("no hostile name in the table, the test proves less than it says:\n%s", out)
	}
	js, _, _ := list(t, getenv, "access", "--role", "viewer", "-o", "json")
	assertInertOutput(t, "access --role viewer -o json", js)
	var rows []accessOut
	if err := json.Unmarshal([]byte(js), &rows); err != nil || !strings.Contains(js, `\u001b`) {
		t.Errorf("JSON: %v, escaped: %v", err, strings.Contains(js, `\u001b`))
	}
}
