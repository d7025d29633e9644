package detail

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/text"
	"canopy/theme"
	"canopy/views"
)

// paneWith is a pane 80 columns wide whose pages load from src.
func paneWith(src pageSources) *Model {
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default(), Now: func() time.Time { return now }}
	m := New(context.Background(), common, Fetch{Kind: kindsWith(src), Advisories: func(string, []string) tea.Cmd { return nil }})
	m.SetSize(80, 60)
	return m
}

// within fails for a line of the screen wider than the pane.
func within(t *testing.T, s string, w int) {
	t.Helper()
	for _, l := range strings.Split(s, "\n") {
		if n := text.Width(l); n > w {
			t.Errorf("a line of %d cells in %d: %q", n, w, l)
		}
	}
}

// An advisory's page reads the metadata of the ids it goes by once the
// selection rests: each id's score, summary, details and references, the
// URLs whole however narrow; an id with nothing known says so.
func TestAdvisoryVulnerabilities(t *testing.T) {
	t.Parallel()
	var asked []string
	long := "https://github.com/openssl/openssl/commit/0123456789abcdef0123456789abcdef01234567?diff=split&w=1"
	m := paneWith(pageSources{advisory: AdvisorySources{Vulnerabilities: func(_ context.Context, ids []string) ([]api.VulnerabilityMetadata, error) {
		asked = ids
		return []api.VulnerabilityMetadata{{ID: "CVE-2026-1234", Summary: "openssl: heap \x1b[31moverflow\x1b[0m in the parser",
			Details:    "A length is not checked before a copy.",
			Severities: []api.Severity{{Type: api.SeverityCVSSv3, Score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"}},
			References: []api.Reference{{Type: api.RefAdvisory, URL: "https://nvd.nist.gov/vuln/detail/CVE-2026-1234"},
				{Type: api.RefFix, URL: long}, {Type: "TYPE_NEWER", URL: "https://example.com/x"}}}}, nil
	}}})
	adv := &api.Advisory{UID: "adv", AdvisoryID: "CGA-abcd-efgh-ijkl", ArtifactName: "openssl",
		Aliases: []string{"CVE-2026-1234", "GHSA-aaaa-bbbb-cccc"}}
	m.Show(adv)
	if s := screen(m); !strings.Contains(s, "VULNERABILITIES") || !strings.Contains(s, "loads when the selection rests") || asked != nil {
		t.Fatalf("before the rest (asked %v):\n%s", asked, s)
	}
	settle(t, m, m.Update(dueMsg{owner: m, seq: m.seq}))
	s := screen(m)
	for _, want := range []string{"CVE-2026-1234  9.8 critical", "openssl: heap ␛[31moverflow␛[0m in the parser",
		"A length is not checked before a copy.", "advisory    https://nvd.nist.gov/vuln/detail/CVE-2026-1234",
		"fix         https://github.com/openssl/openssl/commit/", "newer       https://example.com/x",
		"GHSA-aaaa-bbbb-cccc  nothing known of it"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if strings.Join(asked, ",") != "CVE-2026-1234,GHSA-aaaa-bbbb-cccc" {
		t.Errorf("asked about %v", asked)
	}
	if strings.Contains(m.View(), "\x1b[31m") {
		t.Error("the server's escape sequence reached the terminal")
	}
	if !strings.Contains(strings.NewReplacer("\n", "", " ", "").Replace(s), strings.ReplaceAll(long, " ", "")) {
		t.Errorf("the long URL is not whole:\n%s", s)
	}
	within(t, s, 80)
	if strings.Index(s, "VULNERABILITIES") > strings.Index(s, "EVENTS") && strings.Contains(s, "EVENTS") {
		t.Error("the vulnerabilities come after the events")
	}
}

// A failure to read the metadata says so, and r reads again.
func TestAdvisoryVulnerabilitiesFail(t *testing.T) {
	t.Parallel()
	fail := true
	m := paneWith(pageSources{advisory: AdvisorySources{Vulnerabilities: func(context.Context, []string) ([]api.VulnerabilityMetadata, error) {
		if fail {
			return nil, errors.New("vulnerability metadata: GET /advisory/v2/metadata: 503")
		}
		return nil, nil
	}}})
	show(t, m, &api.Advisory{UID: "adv", AdvisoryID: "CGA-abcd-efgh-ijkl", Aliases: []string{"CVE-2026-1"}})
	if s := screen(m); !strings.Contains(s, "503 (r to retry)") {
		t.Fatalf("no failure:\n%s", s)
	}
	fail = false
	settle(t, m, m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"}))
	if s := screen(m); !strings.Contains(s, "VULNERABILITY\n") || !strings.Contains(s, "CVE-2026-1  nothing known of it") {
		t.Errorf("after r:\n%s", s)
	}
}

// resolvedFake answers what an image had resolved: on two days of the
// last thirty, three vulnerabilities of ratings critical, high and none
// scored.
func resolvedFake(opened *any) *ResolvedSources {
	day := func(d int) api.Time { return api.TimeOf(now.Truncate(24*time.Hour).AddDate(0, 0, -d)) }
	return &ResolvedSources{
		Ask: func(_ context.Context, item any, reply func(Resolved, error) tea.Msg) tea.Cmd {
			return func() tea.Msg {
				return reply(Resolved{Image: "python:latest", Since: now.AddDate(0, 0, -30), Till: now, Reports: []api.ResolvedVulnsReport{
					{Date: day(20), ResolvedVulns: []api.ResolvedVuln{{ID: "CGA-aaaa-aaaa-aaaa", CVSSSeverities: []api.Severity{{Type: api.SeverityCVSSv3, Score: "9.8"}}}}},
					{Date: day(19)},
					{Date: day(3), ResolvedVulns: []api.ResolvedVuln{
						{ID: "CGA-bbbb-bbbb-bbbb", CVSSSeverities: []api.Severity{{Type: api.SeverityCVSSv3, Score: "7.5"}}},
						{ID: "CGA-cccc-cccc-cccc"}}},
				}}, nil)
			}
		},
		Open: func(item any) tea.Cmd { *opened = item; return nil },
	}
}

// A repo's page sums up what its image had resolved: how many, on how
// many days, by rating, the latest; v lists them.
func TestRepoResolved(t *testing.T) {
	t.Parallel()
	var opened any
	m := paneWith(pageSources{repo: RepoSources{Resolved: resolvedFake(&opened)}})
	repo := &api.Repo{UID: "org/python", Name: "python"}
	m.Show(repo)
	if s := screen(m); !strings.Contains(s, "RESOLVED") || !strings.Contains(s, "reads when the selection rests") {
		t.Fatalf("before the rest:\n%s", s)
	}
	settle(t, m, m.Update(dueMsg{owner: m, seq: m.seq}))
	s := screen(m)
	for _, want := range []string{"RESOLVED IN THE LAST 30 DAYS", "3 vulnerabilities in python:latest, on 2 days",
		"1 critical · 1 high · 1 unscored", "latest 2026-11-20 (3 days ago): CGA-bbbb-bbbb-bbbb, CGA-cccc-cccc-cccc", "v lists them day by day"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	within(t, s, 80)
	m.Update(tea.KeyPressMsg{Code: 'v', Text: "v"})
	if opened != any(repo) {
		t.Errorf("v opened %v", opened)
	}
}

// A tag's page has the same part, after its image and relations; a
// failure says so and r asks again.
func TestTagResolved(t *testing.T) {
	t.Parallel()
	var opened any
	fail := true
	src := resolvedFake(&opened)
	ask := src.Ask
	src.Ask = func(ctx context.Context, item any, reply func(Resolved, error) tea.Msg) tea.Cmd {
		if fail {
			return func() tea.Msg { return reply(Resolved{}, errors.New("resolved vulnerabilities: 403 denied")) }
		}
		return ask(ctx, item, reply)
	}
	m := paneWith(pageSources{tag: TagSources{Resolved: src}})
	show(t, m, &api.Tag{UID: "org/python/t", Name: "3.12"})
	if s := screen(m); !strings.Contains(s, "RESOLVED") || !strings.Contains(s, "403 denied") {
		t.Fatalf("no failure:\n%s", s)
	}
	fail = false
	settle(t, m, m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"}))
	if s := screen(m); !strings.Contains(s, "3 vulnerabilities in python:latest") {
		t.Errorf("after r:\n%s", s)
	}
}

// A document's page: its package and namespace, how its advisories
// stand, then each (the latest changed first) with its ids and events.
func TestDocumentPage(t *testing.T) {
	t.Parallel()
	m := paneWith(pageSources{})
	at := func(d int) api.Time { return api.TimeOf(now.AddDate(0, 0, -d)) }
	show(t, m, &api.Document{ID: "openssl", Advisories: []api.DocumentAdvisory{
		{ID: "CGA-aaaa-aaaa-aaaa", Aliases: []string{"CVE-2026-1"}, PackageNamespace: "wolfi", Events: []api.DocumentEvent{
			{Timestamp: at(40), Kind: api.EventDetection}, {Timestamp: at(30), Kind: api.EventFixed, Details: api.EventDetails{FixedVersion: "3.5.1-r0"}}}},
		{ID: "CGA-bbbb-bbbb-bbbb", Aliases: []string{"CVE-2026-2", "GHSA-aaaa-bbbb-cccc"}, PackageNamespace: "wolfi", Events: []api.DocumentEvent{
			{Timestamp: at(2), Kind: api.EventDetection}}},
	}})
	s := screen(m)
	for _, want := range []string{"advisory document: openssl", "package       openssl", "namespace     wolfi",
		"advisories    2: 1 open · 1 resolved", "updated       2 days ago", "a lists the feed's advisories of openssl",
		"CGA-bbbb-bbbb-bbbb", "status        detected", "CVE-2026-2, GHSA-aaaa-bbbb-cccc", "CGA-aaaa-aaaa-aaaa", "in 3.5.1-r0"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "CGA-bbbb") > strings.Index(s, "CGA-aaaa") {
		t.Error("the advisory changed last is not first")
	}
	within(t, s, 80)
}

// A vulnerability's page: its summary and rating, scores, details and
// references.
func TestVulnerabilityPage(t *testing.T) {
	t.Parallel()
	m := paneWith(pageSources{})
	show(t, m, &api.VulnerabilityMetadata{ID: "CVE-2026-1234", Summary: "curl: use after free",
		Details:    strings.Repeat("A connection closed while a request is in flight frees a buffer. ", 4),
		Severities: []api.Severity{{Type: api.SeverityCVSSv3, Score: "7.5"}},
		References: []api.Reference{{Type: api.RefWeb, URL: "https://www.cve.org/CVERecord?id=CVE-2026-1234"}}})
	s := screen(m)
	for _, want := range []string{"id            CVE-2026-1234", "summary       curl: use after free", "severity      7.5 high",
		"SEVERITIES", "DETAILS", "frees a buffer.", "REFERENCES", "web         https://www.cve.org/CVERecord?id=CVE-2026-1234"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	within(t, s, 80)
}
