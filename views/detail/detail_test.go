package detail

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/viewstest"
)

var now = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// patience is how long a test lets a render take: a loaded machine renders
// late, and a render that is not about its budget must not run out of it.
const patience = 2 * time.Minute

type fakeFetch struct {
	readmes, images, bindings int
	fail                      bool
}

// sources are the pages' sources, counting what they read.
func (f *fakeFetch) sources() pageSources {
	return pageSources{
		repo: RepoSources{ReadmeBudget: patience,
			Readme: func(_ context.Context, uid string) (string, error) {
				f.readmes++
				if f.fail {
					return "", errors.New("GET readme: 503 unavailable")
				}
				return "# nginx\n\nA **minimal** web server.\n\n- small\n- signed\n\n[docs](https://example.com/docs)\n", nil
			}},
		tag: TagSources{
			Image: func(_ context.Context, repo, digest string) ([]ArchSize, error) {
				f.images++
				return []ArchSize{{Arch: "amd64", Size: 44_040_192}, {Arch: "arm64", Size: 41_943_040}}, nil
			}},
		bindings: func(_ context.Context, id string) ([]api.RoleBinding, error) {
			f.bindings++
			return []api.RoleBinding{
				{UID: "b2", Role: &api.Ref{Name: "viewer"}, Group: &api.Ref{Name: "platform"}, CreateTime: api.TimeOf(now.Add(-72 * time.Hour))},
				{UID: "b1", Role: &api.Ref{Name: "editor"}, Group: &api.Ref{Name: "acme.example"}, CreateTime: api.TimeOf(now.Add(-time.Hour))},
			}, nil
		},
	}
}

func (f *fakeFetch) fetch() Fetch { return Fetch{Kind: kindsWith(f.sources())} }

func newPane(t *testing.T, f *fakeFetch, opts theme.Options) *Model {
	t.Helper()
	common := views.Common{Theme: theme.New(opts), Keys: keymap.Default(), Now: func() time.Time { return now }}
	m := New(context.Background(), common, f.fetch())
	m.SetSize(70, 30)
	return m
}

// settle runs cmd and what follows from it (fetches, renders), batches
// included.
func settle(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0 && n < 50; n++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			queue = append(queue, m.Update(msg))
		}
	}
}

// show selects item and delivers its debounce at once.
func show(t *testing.T, m *Model, item any) {
	t.Helper()
	m.Show(item)
	settle(t, m, m.Update(dueMsg{owner: m, seq: m.seq}))
}

func screen(m *Model) string { return ansi.Strip(m.View()) }

func TestRepoFieldsAndReadme(t *testing.T) {
	f := &fakeFetch{}
	m := newPane(t, f, theme.Options{Name: theme.Dark})
	repo := &api.Repo{UID: "org/aaaa", Name: "nginx", Description: "NGINX web server.", CatalogTier: "CATALOG_TIER_APPLICATION",
		Bundles: []string{"application"}, Aliases: []string{"cgr.dev/acme/nginx"}, ActiveTags: []string{"latest", "1.27"},
		CreateTime: api.TimeOf(now.Add(-3 * 24 * time.Hour)), UpdateTime: api.TimeOf(now.Add(-2 * time.Hour))}
	if cmd := m.Show(repo); cmd == nil {
		t.Fatal("a repo schedules its readme")
	}
	s := screen(m)
	for _, want := range []string{"nginx", "NGINX web server.", "application", "cgr.dev/acme/nginx", "latest, 1.27",
		"3 days ago (2026-11-20 12:00:00 UTC)", "2 hours ago", "README", "loads when the selection rests"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if f.readmes != 0 {
		t.Fatal("fetched before the debounce")
	}
	settle(t, m, m.Update(dueMsg{owner: m, seq: m.seq}))
	s = screen(m)
	if f.readmes != 1 || !strings.Contains(s, "minimal web server") || !strings.Contains(s, "• small") {
		t.Errorf("readme not rendered (%d fetches):\n%s", f.readmes, s)
	}
	if strings.Contains(m.View(), "\x1b]8;") {
		t.Error("readme links became terminal hyperlinks")
	}
	// Back to the same repo: served from the cache, no new request.
	m.Show(&api.Tag{UID: "org/aaaa/t", Name: "latest"})
	show(t, m, repo)
	if f.readmes != 1 {
		t.Errorf("readme fetched %d times", f.readmes)
	}
}

func TestStaleDebounceIsIgnored(t *testing.T) {
	f := &fakeFetch{}
	m := newPane(t, f, theme.Options{Name: theme.Dark})
	m.Show(&api.Repo{UID: "a", Name: "a"})
	old := m.seq
	m.Show(&api.Repo{UID: "b", Name: "b"})
	if cmd := m.Update(dueMsg{owner: m, seq: old}); cmd != nil {
		t.Error("a debounce for an earlier selection fetched")
	}
}

func TestTagImageSizes(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Dark})
	show(t, m, &api.Tag{UID: "org/r/t", Name: "1.27", Digest: "sha256:" + strings.Repeat("ab", 32), Deprecated: true})
	s := screen(m)
	for _, want := range []string{"deprecated    yes, end of life", "IMAGE", "amd64      42.0 MiB", "arm64      40.0 MiB", "2 architectures, 82.0 MiB in all"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if msgs := m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"}); msgs == nil {
		t.Fatal("y gave nothing")
	} else if got := msgs(); got != (views.CopyMsg{Text: "sha256:" + strings.Repeat("ab", 32), What: "digest"}) {
		t.Errorf("y copies %v", got)
	}
}

func TestIdentityBindings(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Dark})
	show(t, m, &api.Identity{UID: "org/i", Name: "ci-bot", ClaimMatch: &api.ClaimMatch{Issuer: "https://token.actions.githubusercontent.com", Subject: "repo:acme/app:ref:refs/heads/main"}})
	s := screen(m)
	for _, want := range []string{"issuer", "token.actions.githubusercontent.com", "last seen     never", "ROLE BINDINGS",
		"editor             on acme.example  1 hour ago", "viewer             on platform  3 days ago"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "editor") > strings.Index(s, "viewer") {
		t.Error("bindings are not sorted by role")
	}
}

func TestAdvisoryTimeline(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Dark})
	show(t, m, &api.Advisory{UID: "adv", AdvisoryID: "CGA-abcd-efgh-ijkl", ArtifactName: "nginx", Aliases: []string{"CVE-2024-1234", "GHSA-xxxx-yyyy-zzzz"},
		Severities: []api.Severity{{Type: api.SeverityCVSSv3, Score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H"}},
		Events: []api.AdvisoryEvent{
			{Kind: api.EventFixed, CreateTime: api.TimeOf(now.Add(-24 * time.Hour)), Details: api.EventDetails{FixedVersion: "1.25.3-r1"}},
			{Kind: api.EventDetection, CreateTime: api.TimeOf(now.Add(-10 * 24 * time.Hour)), Author: "scanner"},
		}})
	s := screen(m)
	for _, want := range []string{"CGA-abcd-efgh-ijkl", "CVE-2024-1234, GHSA-xxxx-yyyy-zzzz", "CVSS v3", "7.5 high",
		"CVSS:3.1/AV:N/AC:L", "EVENTS", "detected", "fixed", "in 1.25.3-r1", "by scanner", "status        fixed"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "detected") > strings.LastIndex(s, "fixed") {
		t.Error("events are not in time order")
	}
}

func TestFailedFetchShowsRetry(t *testing.T) {
	f := &fakeFetch{fail: true}
	m := newPane(t, f, theme.Options{Name: theme.Dark})
	show(t, m, &api.Repo{UID: "r", Name: "nginx"})
	if s := screen(m); !strings.Contains(s, "503 unavailable (r to retry)") {
		t.Fatalf("no failure shown:\n%s", s)
	}
	f.fail = false
	settle(t, m, m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"}))
	if s := screen(m); !strings.Contains(s, "minimal web server") {
		t.Errorf("r did not refetch:\n%s", s)
	}
}

func TestHostileStringsAreShownNotRun(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Dark})
	m.Show(&api.Group{UID: "g\x1b[2J", Name: "evil\x1b]0;pwned\x07", Description: "clip\x1b]52;c;ZXZpbA==\x07 \u202eright-to-left"})
	raw := m.View()
	for _, bad := range []string{"\x1b]0;", "\x1b]52;", "\x1b[2J", "\x07", "\u202e"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the view carries %q raw", bad)
		}
	}
	if s := screen(m); !strings.Contains(s, "evil␛]0;pwned␇") || !strings.Contains(s, "␛]52;c;ZXZpbA==␇") {
		t.Errorf("hostile text not shown visibly:\n%s", s)
	}
}

func TestSummaryFollowsItsCount(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Dark})
	n, busy, err := -1, true, error(nil)
	m.Show(&Summary{Title: "repos of platform", What: "repos", State: func() (int, bool, error) { return n, busy, err }, Hint: "enter opens it"})
	if s := screen(m); !strings.Contains(s, "total         | loading") {
		t.Errorf("unknown total:\n%s", s)
	}
	n, busy = 1234, false
	m.SetSize(71, 30)
	if s := screen(m); !strings.Contains(s, "1,234 repos") {
		t.Errorf("total not updated:\n%s", s)
	}
	n = 1
	m.SetSize(70, 30)
	if s := screen(m); !strings.HasSuffix(strings.TrimSpace(lineOf(s, "total")), "total         1 repo") {
		t.Errorf("one repo:\n%s", s)
	}
}

func lineOf(s, prefix string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return l
		}
	}
	return ""
}

// A collection whose load failed says so, with the whole error (wrapped)
// and how to retry, never "loading".
func TestSummaryOfAFailedCollectionShowsTheWholeError(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Dark})
	m.SetSize(40, 20)
	long := errors.New("GET /registry/v2/repos: Permission denied: identity \"payments-deployer\" lacks CAP_REPO_LIST on \"8707a01d6329783f07df1bd4a477b564aef8fc52\"")
	m.Show(&Summary{Title: "repos of payments", What: "repos", State: func() (int, bool, error) { return -1, false, long }})
	s := screen(m)
	if strings.Contains(s, "loading") || !strings.Contains(s, "! failed") || !strings.Contains(s, "r to retry") {
		t.Errorf("a failed collection:\n%s", s)
	}
	joined := strings.Join(strings.Fields(s), " ")
	if !strings.Contains(joined, "lacks CAP_REPO_LIST on") || !strings.Contains(strings.Join(strings.Fields(s), ""), "8707a01d6329783f07df1bd4a477b564aef8fc52") {
		t.Errorf("the error is cut:\n%s", s)
	}
	for _, l := range strings.Split(s, "\n") {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("line wider than the pane: %q", l)
		}
	}
	// Not started: neither loading nor failed.
	m.Show(&Summary{Title: "identities of payments", What: "identities", State: func() (int, bool, error) { return -1, false, nil }})
	if s := screen(m); !strings.Contains(s, "not loaded yet") {
		t.Errorf("a collection not started:\n%s", s)
	}
	// A failed row of the tree shows its error whole.
	m.Show(&Failure{What: "the folders of apps", Err: long})
	if s := screen(m); !strings.Contains(s, "failed: the folders of apps") || !strings.Contains(s, "payments-deployer") {
		t.Errorf("a failure:\n%s", s)
	}
}

func TestScrollAndPageBack(t *testing.T) {
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default(), Now: func() time.Time { return now }}
	caps := make([]string, 40)
	for i := range caps {
		caps[i] = "CAP_" + strings.Repeat("X", i%5) + string(rune('A'+i%26))
	}
	m := NewPage(context.Background(), common, Fetch{Kind: testKind}, &api.Role{UID: "r", Name: "owner", Capabilities: caps})
	m.SetSize(40, 10)
	m.Init()
	first := screen(m)
	m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if screen(m) == first {
		t.Error("j did not scroll")
	}
	if m.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); !m.Closed() {
		t.Error("esc does not close a page")
	}
	if m.Title() != "owner" {
		t.Errorf("title %q", m.Title())
	}
}

// Every field of a role and of a hydrated role binding is shown.
func TestRoleAndBindingShowEveryField(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Mono})
	m.SetSize(100, 60)
	m.Show(&api.Role{UID: "org/role1", Name: "release-manager", Description: "Ships releases.", Capabilities: []string{"CAP_TAG_CREATE"},
		CreateTime: api.TimeOf(now.Add(-72 * time.Hour)), UpdateTime: api.TimeOf(now.Add(-time.Hour))})
	s := screen(m)
	for _, want := range []string{"created", "3 days ago", "updated", "1 hour ago"} {
		if !strings.Contains(s, want) {
			t.Errorf("role lacks %q:\n%s", want, s)
		}
	}
	m.Show(&api.RoleBinding{UID: "org/b1",
		Identity:   &api.BindingIdentity{UID: "org/id1", Name: "ci-bot", Description: "CI runner", Subject: "repo:acme/app", Issuer: "https://issuer", Email: "ci@acme.example"},
		Role:       &api.Ref{UID: "role-uid-1", Name: "viewer", Description: "Read only."},
		Group:      &api.Ref{UID: "org/g1", Name: "platform", Description: "Platform engineering."},
		CreateTime: api.TimeOf(now.Add(-48 * time.Hour))})
	s = screen(m)
	for _, want := range []string{"org/id1", "CI runner", "ci@acme.example", "repo:acme/app", "https://issuer",
		"role-uid-1", "Read only.", "org/g1", "Platform engineering.", "2 days ago"} {
		if !strings.Contains(s, want) {
			t.Errorf("binding lacks %q:\n%s", want, s)
		}
	}
}

// A tag's relations: deprecated siblings marked, what is known shown while
// the search goes on, advisories named by the artifact names searched,
// their aliases as wide as the pane allows.
func TestTagRelationsMarkDeprecatedAndShowProgress(t *testing.T) {
	release := make(chan struct{})
	f := &fakeFetch{}
	src := f.sources()
	aliases := []string{"CVE-2024-1111", "GHSA-aaaa-bbbb-cccc", "CVE-2024-2222", "GHSA-dddd-eeee-ffff"}
	src.tag.Related = func(ctx context.Context, tag *api.Tag, reply func(Related, error) tea.Msg) tea.Cmd {
		return func() tea.Msg {
			<-release
			return reply(Related{Repo: "python", Searched: 1200, Of: 1200, Artifacts: []string{"python", "python-<version>"},
				Siblings: []Sibling{{Name: "3.0.34", Deprecated: true}, {Name: "3.0"}},
				Advisories: []api.Advisory{{UID: "a", AdvisoryID: "CGA-aaaa-bbbb-cccc", ArtifactName: "python-3.13", Aliases: aliases},
					{UID: "b", AdvisoryID: "CGA-dddd-eeee-ffff", ArtifactName: "python", Events: []api.AdvisoryEvent{
						{Kind: api.EventDetection, ReviewState: api.ReviewApproved}, {Kind: api.EventFixed, ReviewState: api.ReviewPending}}}}}, nil)
		}
	}
	var listed string
	fetch := Fetch{Advisories: func(label string, names []string) tea.Cmd {
		listed = label + ": " + strings.Join(names, " ")
		return nil
	}}
	src.tag.PullRef = func(repo string, t *api.Tag) (string, string) {
		return "cgr.dev/acme/" + repo + ":" + t.Name + "@" + t.Digest, "pull reference"
	}
	src.tag.Known = func(tag *api.Tag) *Related {
		return &Related{Repo: "python", Searched: 200, Of: 1200, Partial: true, Siblings: []Sibling{{Name: "3.0.34", Deprecated: true}}}
	}
	fetch.Kind = kindsWith(src)
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default(), Now: func() time.Time { return now }}
	m := New(context.Background(), common, fetch)
	m.SetSize(120, 40)
	tag := &api.Tag{UID: "org/repo/t1", Name: "3.0.33", Digest: "sha256:" + strings.Repeat("a", 64)}
	m.Show(tag)
	cmd := m.Update(dueMsg{owner: m, seq: m.seq})
	s := screen(m)
	if !strings.Contains(s, "3.0.34 [deprecated]") || !strings.Contains(s, "searched 200/1,200 tags") {
		t.Errorf("what is known is not shown at once:\n%s", s)
	}
	close(release)
	settle(t, m, cmd)
	s = screen(m)
	if !strings.Contains(s, "3.0.34 [deprecated], 3.0") || strings.Contains(s, "searched") {
		t.Errorf("the complete answer:\n%s", s)
	}
	if !strings.Contains(s, "ADVISORIES FOR PYTHON, PYTHON-<VERSION> (2)") {
		t.Errorf("the heading does not name the artifacts searched:\n%s", s)
	}
	if !strings.Contains(s, strings.Join(aliases, " ")) {
		t.Errorf("aliases cut at 120 columns:\n%s", s)
	}
	// Each advisory names its artifact when the list holds another's.
	if !strings.Contains(s, "CGA-aaaa-bbbb-cccc python-3.13 ") || !strings.Contains(s, "CGA-dddd-eeee-ffff python ") {
		t.Errorf("the advisories do not name their artifacts:\n%s", s)
	}
	// The page names the tag's repo and its pull reference once known.
	if !strings.Contains(s, "repo          python") || !strings.Contains(s, "pull          cgr.dev/acme/python:3.0.33@sha256:") {
		t.Errorf("the page does not name the repo and pull reference:\n%s", s)
	}
	if !strings.Contains(s, "a lists them all") {
		t.Errorf("no hint of a:\n%s", s)
	}
	// Narrow, the aliases go first, then the status is cut, marked.
	m.SetSize(60, 40)
	if l := lineOf(screen(m), "CGA-dddd"); !strings.HasSuffix(strings.TrimRight(l, " "), "…") || ansi.StringWidth(l) > 60 || strings.Contains(l, "CVE") {
		t.Errorf("a narrow advisory line: %q", l)
	}
	m.SetSize(120, 40)
	if l := lineOf(screen(m), "CGA-dddd"); !strings.Contains(l, "detected · fixed (in review)") {
		t.Errorf("a wide advisory line: %q", l)
	}
	m.Update(viewstest.Key("a"))
	if listed != "python and python-3.13: python python-3.13" {
		t.Errorf("a listed the advisories of %q, want python's and python-3.13's", listed)
	}
	if cmd := m.Update(viewstest.Key("Y")); cmd == nil {
		t.Error("Y copies nothing")
	} else if msg, ok := cmd().(views.CopyMsg); !ok || !strings.HasPrefix(msg.Text, "cgr.dev/acme/python:3.0.33@sha256:") {
		t.Errorf("Y gave %v", msg)
	}
}

// A change of theme (the terminal's background learned) redraws the pane
// with the new colours, without waiting for the cursor to move.
func TestThemeChangeRedrawsThePane(t *testing.T) {
	th := theme.New(theme.Options{Name: theme.Dark})
	common := views.Common{Theme: th, Keys: keymap.Default(), Now: func() time.Time { return now }}
	m := New(context.Background(), common, Fetch{Kind: testKind})
	m.SetSize(60, 10)
	m.Show(&api.Group{UID: "org", Name: "acme", Description: "Acme"})
	dark := m.View()
	*th = *theme.New(theme.Options{Name: theme.Light})
	m.SetSize(60, 10) // the shell lays out again: same size
	m.Update(views.ThemeMsg{})
	if m.View() == dark {
		t.Error("the pane kept the dark theme's colours")
	}
}

// TestRelatedRepoIsUppercasedBeforeItIsMadeSafe: the section title shows
// the repo in capitals; upper-casing a sanitized name would turn its
// markers into other text (\u202e into \U202E).
func TestRelatedRepoIsUppercasedBeforeItIsMadeSafe(t *testing.T) {
	src := (&fakeFetch{}).sources()
	src.tag.Related = func(_ context.Context, _ *api.Tag, reply func(Related, error) tea.Msg) tea.Cmd {
		return func() tea.Msg { return reply(Related{Repo: "evil\u202e\u200b\u009b31m"}, nil) }
	}
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default(), Now: func() time.Time { return now }}
	m := New(context.Background(), common, Fetch{Kind: kindsWith(src)})
	m.SetSize(100, 40)
	show(t, m, &api.Tag{UID: "org/aaaa/t", Name: "latest", Digest: "sha256:" + strings.Repeat("a", 64)})
	if s := screen(m); !strings.Contains(s, `ADVISORIES FOR EVIL\u202e\u200b\x9b31M (0)`) {
		t.Errorf("the repo's markers are not intact:\n%s", s)
	}
}

// A summary's hint wraps in a narrow pane instead of losing its end.
func TestSummaryHintWraps(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Dark})
	m.SetSize(30, 20)
	m.Show(&Summary{Title: "libraries", What: "artifacts", State: func() (int, bool, error) { return 37, false, nil },
		Hint: "enter opens it as a full-screen table; l expands it here"})
	s := screen(m)
	if !strings.Contains(s, "full-screen table; l expands") || !strings.Contains(s, "it here") {
		t.Errorf("the hint lost its end:\n%s", s)
	}
}

// A URL longer than its column breaks after the last slash that fits,
// never after its scheme alone.
func TestLongURLBreaksAtAPathSlash(t *testing.T) {
	m := newPane(t, &fakeFetch{}, theme.Options{Name: theme.Dark})
	m.SetSize(60, 20)
	show(t, m, &api.Subscription{UID: "org/sub1", Sink: "https://hooks.example.com/services/T0001/B0002/release-events"})
	s := screen(m)
	if !strings.Contains(s, "sink          https://hooks.example.com/services/T0001/\n") ||
		!strings.Contains(s, "              B0002/release-events") {
		t.Errorf("the sink's URL is not broken at its last slash that fits:\n%s", s)
	}
	// The title (the URL too) wraps rather than being cut.
	if !strings.HasPrefix(s, "https://hooks.example.com/services/T0001/B0002/release-\nevents\n") {
		t.Errorf("the title is not wrapped:\n%s", s)
	}
}
