package emulator

import (
	"net/url"
	"strings"
	"testing"
)

// TestHostileSeed: Options.Hostile serves every class of hostile string
// through the API, the same for the same seed, and leaves the benign data
// (uids included) as it was.
func TestHostileSeed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1, Hostile: true})
	var body strings.Builder
	for _, q := range []struct{ path, plural string }{
		{"/iam/v2/groups", "items"}, {"/iam/v2/identities", "items"}, {"/iam/v2/roles", "items"},
		{"/registry/v2/repos", "items"}, {"/events/v2/subscriptions", "items"},
		{"/vulnerabilities/v2/advisories", "items"}, {"/libraries/v2/artifacts", "items"},
	} {
		r := e.get(q.path + "?page_size=200&ecosystems=ECOSYSTEM_JAVA&uidp.descendants_of=" + url.QueryEscape(e.org))
		if q.path == "/vulnerabilities/v2/advisories" || q.path == "/libraries/v2/artifacts" {
			r = e.get(q.path + "?page_size=200&ecosystems=ECOSYSTEM_JAVA")
		}
		if r.status != 200 {
			t.Fatalf("%s: %d %s", q.path, r.status, r.body)
		}
		body.Write(r.body)
	}
	readme := e.get("/registry/v2/repos/" + e.repoUID("escapes") + "/readme")
	body.Write(readme.body)
	body.Write(e.get("/registry/v2/repos/" + e.repoUID("nested-readme") + "/readme").body)
	// JSON escapes control characters as \u00XX (and > as \u003e); the rest
	// arrives raw.
	for _, want := range []string{`\u001b[2J`, `\u001b]0;pwned\u0007`, `\u001b]52;c;`, `\u001b]8;;`, `\u001bP+q`,
		`\u001b_G`, `\r`, `\b`, `\u0007`, "\u009b", "\u202e", "\u2066", "\u2069", "\u200b", "\ufeff",
		"漢字", "🐍", "̤", "long漢long漢long漢", strings.Repeat(`\u003e`, 100) + " quoted", strings.Repeat("- ", 2000)} {
		if !strings.Contains(body.String(), want) {
			t.Errorf("no %q served", want)
		}
	}

	plain, _ := New(Options{Seed: 1})
	again, _ := New(Options{Seed: 1, Hostile: true})
	if plain.OrgUID() != e.srv.OrgUID() || again.OrgUID() != e.srv.OrgUID() {
		t.Fatal("hostile data moved the organization's uid")
	}
	if a, b := plain.st.repos.items[0].UID, e.srv.st.repos.items[0].UID; a != b {
		t.Errorf("hostile data changed benign uids: %s vs %s", a, b)
	}
	if n := len(again.st.advs.items); n != len(e.srv.st.advs.items) || again.st.advs.items[n-1].UID != e.srv.st.advs.items[n-1].UID {
		t.Error("hostile data is not deterministic")
	}
}
