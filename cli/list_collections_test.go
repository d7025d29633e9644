package cli

import (
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"canopy/api"
	"canopy/cli/exit"
)

// TestEveryCollectionIsListed: canopy list has an implementation for the
// Collection of every descriptor (package resource's and its own, kinds)
// and for nothing else; what a descriptor
// Needs is a flag that collection takes, with words to ask for it; a kind
// without a collection says why.
func TestEveryCollectionIsListed(t *testing.T) {
	t.Parallel()
	impls := collections()
	var lf listFlags
	lf.register(flag.NewFlagSet("canopy list", flag.ContinueOnError))
	var scoped []string
	for _, sf := range lf.scopedFlags() {
		scoped = append(scoped, sf.name)
	}
	for _, k := range kinds() {
		if k.Collection == "" {
			if k.Unlisted == "" {
				t.Errorf("%s: no collection, and no Unlisted reason for canopy list to give", k.Noun)
			}
			continue
		}
		c, ok := impls[k.Collection]
		switch {
		case !ok:
			t.Errorf("%s: the descriptor's collection %q has no implementation in canopy list (collections)", k.Noun, k.Collection)
		case c == nil:
			t.Errorf("%s: collection %q prints nothing", k.Noun, k.Collection)
		case k.Needs != "" && (!slices.Contains(k.Flags, strings.TrimPrefix(k.Needs, "--")) || k.Ask == ""):
			t.Errorf("%s needs %s: not a flag it takes (%v), or no words to ask for it", k.Collection, k.Needs, k.Flags)
		}
		for _, f := range k.Flags {
			if !slices.Contains(scoped, f) {
				t.Errorf("%s takes --%s, which is not one of the scoped flags %v", k.Collection, f, scoped)
			}
		}
	}
	for name := range impls {
		if _, ok := byCollection(name); !ok {
			t.Errorf("canopy list implements %q, which no descriptor names as its Collection", name)
		}
	}
}

// TestListEveryKind: every kind's collection lists against the emulator
// (exit 0, a table and JSON); a kind without one answers every name a
// user would call it by with the reason, exit 2.
func TestListEveryKind(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	libs := listJSON[api.Artifact](t, getenv, "libraries")
	if len(libs) == 0 {
		t.Fatal("the emulator has no library")
	}
	for _, k := range kinds() {
		if k.Collection == "" {
			for _, word := range []string{k.Noun, k.Nouns, strings.ToUpper(k.Nouns)} {
				out, errs, code := list(t, getenv, word)
				if code != exit.Usage || out != "" || !strings.Contains(errs, k.Unlisted) {
					t.Errorf("canopy list %s: exit %d %q %q, want 2 and %q", word, code, out, errs, k.Unlisted)
				}
			}
			continue
		}
		args := []string{k.Collection}
		if k.Needs == "--artifact" {
			args = append(args, "--artifact", libs[0].UID)
		}
		out, errs, code := list(t, getenv, args...)
		if code != 0 || strings.Count(out, "\n") < 2 {
			t.Errorf("canopy list %v: exit %d %s\n%s", args, code, errs, out)
		}
		// Rows of many folders say whose, as the `:` table does.
		if head, _, _ := strings.Cut(out, "\n"); k.InFolders && !regexp.MustCompile(`\bFOLDER\b`).MatchString(head) {
			t.Errorf("canopy list %v: %s live in folders, but no FOLDER column: %q", args, k.Nouns, head)
		}
		if items := listJSON[map[string]any](t, getenv, args...); len(items) != strings.Count(out, "\n")-1 {
			t.Errorf("canopy list %v: %d items in JSON, %d rows", args, len(items), strings.Count(out, "\n")-1)
		}
	}
}

// TestListNamesWhatIsMeant: a word that names no collection is a usage
// mistake that lists the collections, or names the one meant.
func TestListNamesWhatIsMeant(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	for _, tc := range []struct{ word, want string }{
		{"widgets", `no collection "widgets" (want one of repos, tags, groups, identities, bindings, roles, access, advisories, subscriptions, libraries, versions, providers, invites, mappings, associations, terms, documents, vulnerabilities)`},
		{"folders", `no collection "folders": canopy list groups lists folders`},
		{"idps", `no collection "idps": canopy list providers lists identity providers`},
		{"identity-providers", `canopy list providers lists identity providers`},
		{"rolemappings", `no collection "rolemappings": canopy list mappings lists role mappings`},
		{"ecosystem", `no collection "ecosystem": an ecosystem is a grouping of libraries: canopy list libraries --ecosystem NAME lists one`},
	} {
		if out, errs, code := list(t, getenv, tc.word); code != exit.Usage || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d %q, want 2 and %q", tc.word, code, errs, tc.want)
		}
	}
	if _, errs, code := list(t, getenv); code != exit.Usage || !strings.Contains(errs, "providers, invites") {
		t.Errorf("no collection: exit %d %q", code, errs)
	}
}

// TestListUsageFromTheDescriptors: canopy list -h, canopy's usage and
// completion name every collection; -h says why a kind has none.
func TestListUsageFromTheDescriptors(t *testing.T) {
	t.Parallel()
	help, _, code := list(t, env(t, nil), "-h")
	words := buildCompletion().words["list"]
	summary := strings.Join(strings.Fields(listSummary()), " ")
	for _, k := range kinds() {
		if k.Collection == "" {
			if !strings.Contains(strings.Join(strings.Fields(help), " "), k.Nouns+" none: "+k.Unlisted) {
				t.Errorf("-h does not say why there are no %s:\n%s", k.Nouns, help)
			}
			continue
		}
		// A long name has its text on the next line.
		if !regexp.MustCompile(`(?m)^  `+k.Collection+`\n? +\S`).MatchString(help) || !slices.Contains(words, k.Collection) ||
			!strings.Contains(summary, k.Collection) {
			t.Errorf("%s: not in -h (exit %d), canopy's usage (%q) or completion (%v)", k.Collection, code, summary, words)
		}
	}
	if !strings.Contains(help, "Usage: canopy list "+strings.Join(listNames(), "|")+" [flags]") {
		t.Errorf("-h: %.200s", help)
	}
}

// TestListProviders: the organization's identity providers by name, as
// :providers shows them; JSON is the API's resources in the same order.
func TestListProviders(t *testing.T) {
	t.Parallel()
	getenv, seen := recordingEnv(t)
	out, errs, code := list(t, getenv, "providers")
	if code != 0 || !regexp.MustCompile(`^NAME +FOLDER +ISSUER +CLIENT ID +LOGIN +SCIM +UPDATED\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	if !regexp.MustCompile(`(?m)^okta-sso +acme\.example +https://acme\.okta\.com +0oa8f3k2m1QxYz7Lq5d7 +oidc \+ pkce +yes +\S+$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^entra-contractors +acme\.example +https://login\.microsoftonline\.com/\S+ +a1b2c3d4-\S+ +oidc +no +\S+$`).MatchString(out) {
		t.Errorf("the seeded providers are not shown as the UI shows them:\n%s", out)
	}
	names := column(t, out, "NAME")
	if len(names) < 2 || !slices.IsSorted(names) {
		t.Errorf("providers are not by name: %v", names)
	}
	if !slices.ContainsFunc(*seen, func(q string) bool {
		return strings.HasPrefix(q, "/iam/v2/identityProviders?") && strings.Contains(q, "order_by=name")
	}) {
		t.Errorf("providers were not asked for by name: %v", *seen)
	}
	ps := listJSON[api.IdentityProvider](t, getenv, "providers")
	var jsonNames []string
	for _, p := range ps {
		jsonNames = append(jsonNames, p.Name)
		if p.OIDC == nil || p.OIDC.Issuer == "" {
			t.Errorf("%s: no OIDC login in JSON: %+v", p.Name, p)
		}
	}
	if !slices.Equal(jsonNames, names) {
		t.Errorf("JSON %v, table %v", jsonNames, names)
	}
}

// TestListInvites: the organization's invites in the server's order, as
// :invites shows them (role, who may redeem it, when it expires), and
// never a code: not in a table, not in JSON, not even from a server that
// sends codes in a list (only a create's answer should hold one).
func TestListInvites(t *testing.T) {
	t.Parallel()
	getenv, seen := recordingEnv(t)
	out, errs, code := list(t, getenv, "invites")
	if code != 0 || !regexp.MustCompile(`^ROLE +FOLDER +FOR +EXPIRES +USES +CREATED\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	for _, row := range []string{`viewer +acme\.example +dana@acme\.example +in \S+ days? +once`, `editor +acme\.example +anyone +\S.* +many`, `viewer +acme\.example +erik@partner\.example +expired +once`} {
		if !regexp.MustCompile(`(?m)^` + row + ` +\S+$`).MatchString(out) {
			t.Errorf("no row %s:\n%s", row, out)
		}
	}
	if slices.ContainsFunc(*seen, func(q string) bool {
		return strings.HasPrefix(q, "/iam/v2/groupInvites?") && strings.Contains(q, "order_by")
	}) {
		t.Errorf("invites were asked for in an order, not the server's: %v", *seen)
	}
	invites := listJSON[api.GroupInvite](t, getenv, "invites")
	if len(invites) != strings.Count(out, "\n")-1 {
		t.Fatalf("%d invites in JSON, table:\n%s", len(invites), out)
	}
	for i, f := range column(t, out, "FOR") {
		if g := invites[i]; g.Role == nil || f != map[bool]string{true: "anyone", false: g.Email}[g.Email == ""] {
			t.Errorf("row %d: FOR %q, JSON %+v", i, f, g)
		}
	}

	// A server that leaks the codes into its list.
	srv := seededEmulator(t)
	const code0 = "cgi_leaked0123456789"
	leaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if r.URL.Path == "/iam/v2/groupInvites" && rec.Code == http.StatusOK {
			var page map[string]any
			if err := json.Unmarshal(body, &page); err != nil {
				t.Error(err)
			}
			for _, g := range page["groupInvites"].([]any) {
				g.(map[string]any)["code"] = code0
			}
			body, _ = json.Marshal(page)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		w.Write(body)
	}))
	t.Cleanup(leaky.Close)
	leakEnv := env(t, map[string]string{"CANOPY_API_URL": leaky.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"})
	for _, args := range [][]string{{"invites"}, {"invites", "-o", "json"}, {"invites", "--filter", "cgi_"}, {"invites", "-o", "json", "--filter", "any"}} {
		out, errs, code := list(t, leakEnv, args...)
		if code != 0 || strings.Contains(out+errs, code0) || strings.Contains(out, `"code"`) {
			t.Errorf("%v: exit %d, a code printed:\n%s%s", args, code, out, errs)
		}
	}
}

// TestListMappings: the organization's role mappings in the server's
// order, as :mappings shows them: the group, then its role, provider and
// scope by name (read once first), never a FOLDER (a mapping lives under
// its provider); JSON is the API's resources, uids and all.
func TestListMappings(t *testing.T) {
	t.Parallel()
	getenv, seen := recordingEnv(t)
	out, errs, code := list(t, getenv, "mappings")
	if code != 0 || !regexp.MustCompile(`^EXTERNAL GROUP +ROLE +PROVIDER +SCOPE +CREATED\n`).MatchString(out) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	for _, row := range []string{`acme-platform-admins +owner +okta-sso`, `acme-engineering +editor +okta-sso`,
		`acme-security-review +auditor +okta-sso`, `b7e4c2a9-5d31-4f8e-9a60-2c7d1e3f4b58 +viewer +entra-contractors`} {
		if !regexp.MustCompile(`(?m)^` + row + ` +acme\.example +\S+$`).MatchString(out) {
			t.Errorf("no row %s:\n%s", row, out)
		}
	}
	if slices.ContainsFunc(*seen, func(q string) bool {
		return strings.HasPrefix(q, "/iam/v2/externalGroupRoleMappings?") && strings.Contains(q, "order_by")
	}) {
		t.Errorf("mappings were asked for in an order, not the server's: %v", *seen)
	}
	ms := listJSON[api.ExternalGroupRoleMapping](t, getenv, "mappings")
	groups := column(t, out, "EXTERNAL GROUP")
	if len(ms) != len(groups) {
		t.Fatalf("%d mappings in JSON, table:\n%s", len(ms), out)
	}
	for i, m := range ms {
		if m.ExternalGroupID != groups[i] || m.RoleUID == "" || api.ParentUID(m.UID) != m.IdentityProviderUID {
			t.Errorf("row %d: %q, JSON %+v", i, groups[i], m)
		}
	}
	if out, _, code := list(t, getenv, "mappings", "--filter", "entra"); code != 0 || strings.Count(out, "\n") != 2 ||
		!strings.Contains(out, "b7e4c2a9") {
		t.Errorf("--filter entra (the provider's name): exit %d\n%s", code, out)
	}
}

// TestListGroupsShowsTheirFolder: folders are listed with the folder each
// is in, as :groups shows them.
func TestListGroupsShowsTheirFolder(t *testing.T) {
	t.Parallel()
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "groups")
	if head, _, _ := strings.Cut(out, "\n"); code != 0 || strings.Join(strings.Fields(head), " ") != "NAME FOLDER DESCRIPTION DEPTH UPDATED CREATED" {
		t.Errorf("exit %d %s, header %q", code, errs, head)
	}
}
