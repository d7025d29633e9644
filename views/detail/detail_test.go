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
)

var now = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

type fakeFetch struct {
	readmes, images, bindings int
	fail                      bool
}

func (f *fakeFetch) fetch() Fetch {
	return Fetch{
		Readme: func(_ context.Context, uid string) (string, error) {
			f.readmes++
			if f.fail {
				return "", errors.New("GET readme: 503 unavailable")
			}
			return "# nginx\n\nA **minimal** web server.\n\n- small\n- signed\n\n[docs](https://example.com/docs)\n", nil
		},
		Image: func(_ context.Context, repo, digest string) ([]ArchSize, error) {
			f.images++
			return []ArchSize{{Arch: "amd64", Size: 44_040_192}, {Arch: "arm64", Size: 41_943_040}}, nil
		},
		Bindings: func(_ context.Context, id string) ([]api.RoleBinding, error) {
			f.bindings++
			return []api.RoleBinding{
				{UID: "b2", Role: &api.Ref{Name: "viewer"}, Group: &api.Ref{Name: "platform"}, CreateTime: api.TimeOf(now.Add(-72 * time.Hour))},
				{UID: "b1", Role: &api.Ref{Name: "editor"}, Group: &api.Ref{Name: "acme.example"}, CreateTime: api.TimeOf(now.Add(-time.Hour))},
			}, nil
		},
	}
}

func newPane(t *testing.T, f *fakeFetch, opts theme.Options) *Model {
	t.Helper()
	common := views.Common{Theme: theme.New(opts), Keys: keymap.Default(), Now: func() time.Time { return now }}
	m := New(context.Background(), common, f.fetch())
	m.SetSize(70, 30)
	return m
}

// settle runs cmd and what follows from it (fetches, renders).
func settle(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	for range 10 {
		if cmd == nil {
			return
		}
		cmd = m.Update(cmd())
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
	for _, want := range []string{"nginx", "NGINX web server.", "APPLICATION", "cgr.dev/acme/nginx", "latest, 1.27",
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
		Severities: []api.Severity{{Type: "CVSS_V3", Score: "7.5"}},
		Events: []api.AdvisoryEvent{
			{Type: api.EventFixed, CreateTime: api.TimeOf(now.Add(-24 * time.Hour))},
			{Type: api.EventDetection, CreateTime: api.TimeOf(now.Add(-10 * 24 * time.Hour))},
		}})
	s := screen(m)
	for _, want := range []string{"CGA-abcd-efgh-ijkl", "CVE-2024-1234, GHSA-xxxx-yyyy-zzzz", "CVSS_V3", "7.5", "EVENTS", "detected", "fixed"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "detected") > strings.Index(s, "fixed") {
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
	n := -1
	m.Show(&Summary{Title: "repos of platform", What: "repos", Count: func() int { return n }, Hint: "enter opens it"})
	if s := screen(m); !strings.Contains(s, "total         loading") {
		t.Errorf("unknown total:\n%s", s)
	}
	n = 1234
	m.SetSize(71, 30)
	if s := screen(m); !strings.Contains(s, "1,234 repos") {
		t.Errorf("total not updated:\n%s", s)
	}
}

func TestScrollAndPageBack(t *testing.T) {
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default(), Now: func() time.Time { return now }}
	caps := make([]string, 40)
	for i := range caps {
		caps[i] = "CAP_" + strings.Repeat("X", i%5) + string(rune('A'+i%26))
	}
	m := NewPage(context.Background(), common, Fetch{}, &api.Role{UID: "r", Name: "owner", Capabilities: caps})
	m.SetSize(40, 10)
	m.Init()
	first := screen(m)
	m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if screen(m) == first {
		t.Error("j did not scroll")
	}
	if cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); cmd == nil || cmd() != (views.BackMsg{From: m}) {
		t.Error("esc does not close a page")
	}
	if m.Title() != "owner" {
		t.Errorf("title %q", m.Title())
	}
}
