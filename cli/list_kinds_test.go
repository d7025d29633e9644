package cli

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/cli/exit"
)

// listJSON runs canopy list -o json and decodes what it printed.
func listJSON[T any](t *testing.T, getenv func(string) string, args ...string) []T {
	t.Helper()
	out, errs, code := list(t, getenv, append(args, "-o", "json")...)
	var items []T
	if err := json.Unmarshal([]byte(out), &items); code != 0 || err != nil {
		t.Fatalf("%v -o json: exit %d, %v: %s", args, code, err, errs)
	}
	return items
}

// column is the text of one column of a printed table, row by row (the
// header left out), cut at the display cells its title starts at.
func column(t *testing.T, out, title string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	head := lines[0]
	at := regexp.MustCompile(`(^|  )` + title + `( |$)`).FindStringIndex(head)
	if at == nil {
		t.Fatalf("no %s column:\n%s", title, head)
	}
	start := ansi.StringWidth(head[:at[0]])
	if at[0] > 0 {
		start += 2
	}
	end := 1 << 20 // the last column is not padded
	if next := regexp.MustCompile(`  \S`).FindStringIndex(head[at[1]-1:]); next != nil {
		end = ansi.StringWidth(head[:at[1]-1+next[0]]) + 2
	}
	cells := make([]string, 0, len(lines)-1)
	for _, l := range lines[1:] {
		cells = append(cells, strings.TrimSpace(ansi.Cut(l, start, end)))
	}
	return cells
}

// TestListSubscriptions: every subscription of the organization, its sink
// and FOLDER as the UI's :subscriptions shows them; JSON is {uid, sink}.
func TestListSubscriptions(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	out, errs, code := list(t, getenv, "subscriptions")
	if code != 0 || !regexp.MustCompile(`^SINK +FOLDER\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	subs := listJSON[api.Subscription](t, getenv, "subscriptions")
	if len(subs) == 0 || strings.Count(out, "\n") != len(subs)+1 {
		t.Fatalf("%d subscriptions in JSON, table:\n%s", len(subs), out)
	}
	for i, sink := range column(t, out, "SINK") {
		if sink != subs[i].Sink || !strings.HasPrefix(subs[i].UID, srv.OrgUID()+"/") {
			t.Errorf("row %d: %q, JSON %+v", i, sink, subs[i])
		}
	}
	if !slices.IsSortedFunc(subs, func(a, b api.Subscription) int { return strings.Compare(a.UID, b.UID) }) {
		t.Errorf("subscriptions are not in the server's order (by uid): %+v", subs)
	}
	raw, _, _ := list(t, getenv, "subscriptions", "-o", "json")
	if strings.Contains(raw, "createTime") || strings.Contains(raw, `"name"`) {
		t.Errorf("a subscription is {uid, sink}:\n%s", raw)
	}
}

// TestListFolderColumn: the org-wide tables name each row's folder by its
// path below the organization, the organization by its name, as the UI's
// FOLDER column does; JSON stays the API's resources.
func TestListFolderColumn(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	groups := listJSON[api.Group](t, getenv, "groups")
	path := func(uid string) string {
		if uid == srv.OrgUID() {
			return "acme.example"
		}
		var parts []string
		for u := uid; u != srv.OrgUID(); u = api.ParentUID(u) {
			i := slices.IndexFunc(groups, func(g api.Group) bool { return g.UID == u })
			if i < 0 {
				t.Fatalf("no folder %s", u)
			}
			parts = append([]string{groups[i].Name}, parts...)
		}
		return strings.Join(parts, "/")
	}
	check := func(kind string, uids []string) {
		t.Helper()
		out, errs, code := list(t, getenv, kind)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", kind, code, errs)
		}
		folders := column(t, out, "FOLDER")
		if len(folders) != len(uids) {
			t.Fatalf("%s: %d rows, JSON %d", kind, len(folders), len(uids))
		}
		deep := false
		for i, f := range folders {
			if want := path(api.ParentUID(uids[i])); f != want {
				t.Errorf("%s row %d: FOLDER %q, want %q", kind, i, f, want)
			}
			deep = deep || strings.Contains(f, "/")
		}
		if kind != "bindings" && !deep {
			t.Errorf("%s: no row below a folder of a folder:\n%s", kind, out)
		}
	}
	var repos, ids, bindings, subs []string
	for _, r := range listJSON[api.Repo](t, getenv, "repos") {
		repos = append(repos, r.UID)
	}
	for _, i := range listJSON[api.Identity](t, getenv, "identities") {
		ids = append(ids, i.UID)
	}
	for _, b := range listJSON[api.RoleBinding](t, getenv, "bindings") {
		bindings = append(bindings, b.UID)
	}
	for _, s := range listJSON[api.Subscription](t, getenv, "subscriptions") {
		subs = append(subs, s.UID)
	}
	check("repos", repos)
	check("identities", ids)
	check("bindings", bindings)
	check("subscriptions", subs)
	if out, _, _ := list(t, getenv, "repos"); !regexp.MustCompile(`(?m)^python +platform/base-images +`).MatchString(out) {
		t.Errorf("python is not in platform/base-images:\n%.800s", out)
	}
	// -o json is the API's resources: no FOLDER, and no folders listed for it.
	getenv, seen := recordingEnv(t)
	if out, _, _ := list(t, getenv, "repos", "-o", "json"); strings.Contains(out, "FOLDER") || strings.Contains(out, "platform/base-images") {
		t.Errorf("JSON holds the FOLDER column:\n%.400s", out)
	}
	for _, s := range *seen {
		if strings.Contains(s, "/iam/v2/groups?") && strings.Contains(s, "descendants_of") {
			t.Errorf("-o json listed the folders: %s", s)
		}
	}
}

// TestListLibraries: the artifacts of both ecosystems by name, as
// :libraries shows them; --ecosystem narrows to one.
func TestListLibraries(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "libraries")
	if code != 0 || !regexp.MustCompile(`^NAME +ECOSYSTEM +LATEST +VERSIONS +DESCRIPTION\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	names, ecos := column(t, out, "NAME"), column(t, out, "ECOSYSTEM")
	if !slices.IsSorted(names) || !slices.Contains(ecos, "java") || !slices.Contains(ecos, "python") {
		t.Errorf("not both ecosystems by name:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^requests +python +\S+ +\d+ +HTTP for Humans\.$`).MatchString(out) {
		t.Errorf("no requests row as the UI shows it:\n%s", out)
	}
	python := listJSON[api.Artifact](t, getenv, "libraries", "--ecosystem", "python")
	all := listJSON[api.Artifact](t, getenv, "libraries")
	if len(python) == 0 || len(python) >= len(all) || len(all) != len(names) {
		t.Errorf("%d python artifacts of %d (%d rows)", len(python), len(all), len(names))
	}
	for _, a := range python {
		if a.Ecosystem != api.EcosystemPython {
			t.Errorf("--ecosystem python listed %s (%s)", a.Name, a.Ecosystem)
		}
	}
	// --rank, as / does: names that match first (then fuzzy matches in
	// other columns); without it, the same rows in the list's order.
	ranked, _, _ := list(t, getenv, "libraries", "--filter", "spring", "--rank")
	if !strings.HasPrefix(column(t, ranked, "NAME")[0], "org.springframework:spring-core") {
		t.Errorf("--filter spring --rank:\n%s", ranked)
	}
	out, _, _ = list(t, getenv, "libraries", "--filter", "spring")
	inOrder := column(t, out, "NAME")
	if !slices.Equal(slices.Sorted(slices.Values(column(t, ranked, "NAME"))), slices.Sorted(slices.Values(inOrder))) ||
		!slices.IsSorted(inOrder) {
		t.Errorf("--filter spring: not the ranked rows in the list's order:\n%s", out)
	}
}

// TestListVersions: an artifact's versions, named by name or uid, as the
// table an artifact of :libraries opens.
func TestListVersions(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	arts := listJSON[api.Artifact](t, getenv, "libraries", "--ecosystem", "java")
	guava := arts[slices.IndexFunc(arts, func(a api.Artifact) bool { return a.Name == "com.google.guava:guava" })]
	out, errs, code := list(t, getenv, "versions", "--artifact", guava.Name)
	if code != 0 || !regexp.MustCompile(`^VERSION +SIZE +CREATED +UPDATED\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	if n := strings.Count(out, "\n") - 1; n != int(guava.VersionCount) || !slices.Contains(column(t, out, "VERSION"), guava.LatestVersion) {
		t.Errorf("%d versions, want %d with %s:\n%s", n, guava.VersionCount, guava.LatestVersion, out)
	}
	byUID := listJSON[api.ArtifactVersion](t, getenv, "versions", "--artifact", guava.UID, "--ecosystem", "java")
	if len(byUID) != int(guava.VersionCount) || !strings.HasPrefix(byUID[0].UID, guava.UID) {
		t.Errorf("by uid: %d versions, %+v", len(byUID), byUID[0])
	}
	if _, errs, code := list(t, getenv, "versions", "--artifact", "left-pad"); code != exit.Failure || !strings.Contains(errs, `no library artifact named "left-pad"`) {
		t.Errorf("an unknown artifact: exit %d %q", code, errs)
	}
	if _, errs, code := list(t, getenv, "versions", "--artifact", "requests", "--ecosystem", "java"); code != exit.Failure || !strings.Contains(errs, `"requests" or with that uid in java`) {
		t.Errorf("an artifact of the other ecosystem: exit %d %q", code, errs)
	}
}

// TestListNewFlagsWhereTheyApply: --artifact and --ecosystem are refused
// where they do not apply, and versions needs --artifact (usage, 2).
func TestListNewFlagsWhereTheyApply(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"versions"}, "versions of which artifact? say it with --artifact"},
		{[]string{"repos", "--artifact", "requests"}, "--artifact applies to versions only"},
		{[]string{"subscriptions", "--ecosystem", "java"}, "--ecosystem applies to libraries and versions only"},
		{[]string{"libraries", "--ecosystem", "go"}, `--ecosystem "go": want java or python`},
		{[]string{"libraries", "--repo", "x"}, "--repo applies to tags, advisories and documents only"},
	} {
		if out, errs, code := list(t, getenv, tc.args...); code != exit.Usage || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%v: exit %d %q, want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	if out, errs, code := list(t, getenv, "libraries", "--ecosystem", "ECOSYSTEM_JAVA"); code != 0 || strings.Contains(out, "python") {
		t.Errorf("--ecosystem as the API names it: exit %d %s", code, errs)
	}
}

// TestListRolesBuiltInFirst: roles as RolesOf gathers them, built-in
// first, each kind by name, custom ones of the organization's folders too.
func TestListRolesBuiltInFirst(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "roles")
	if code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	kinds, names := column(t, out, "KIND"), column(t, out, "NAME")
	split := slices.Index(kinds, "custom")
	if split <= 0 || slices.Contains(kinds[split:], "built-in") {
		t.Fatalf("built-in roles do not come first:\n%s", out)
	}
	if !slices.IsSorted(names[:split]) || !slices.IsSorted(names[split:]) {
		t.Errorf("roles are not by name within their kind:\n%s", out)
	}
	// The capabilities are counted, not listed: a role's line stays one.
	for i, n := range column(t, out, "CAPS") {
		if c, err := strconv.Atoi(n); err != nil || c <= 0 {
			t.Errorf("%s grants %q capabilities:\n%s", names[i], n, out)
		}
	}
}
