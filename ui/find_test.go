package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
	"canopy/views/explorer"
)

// The tree's filter sees the nodes loaded; ctrl+s asks the server for
// what it names and reveals it: its folders opened, the cursor on it, the
// detail pane on it.
func TestTreeFindsOnTheServerWhatIsNotLoaded(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 60, true) // the whole path fits: the view does not scroll
	h.waitText("platform")
	h.keys("/")
	h.typeText("wolfi-base")
	h.waitText("no loaded node matches · ctrl+s asks the server")
	h.keys("ctrl+s")
	s := h.waitText("found repo wolfi-base in platform/base-images", "details: wolfi-base")
	for _, want := range []string{"v platform", "v base-images", "v repos"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q is not opened on the way:\n%s", want, s)
		}
	}
	if !strings.Contains(line(s, "wolfi-base"), "wolfi-base") || h.m.treeSelected() != "wolfi-base" {
		t.Errorf("the cursor is on %q, want wolfi-base:\n%s", h.m.treeSelected(), s)
	}
}

// Several found: a picker says what each is and where it lives; the one
// chosen is revealed.
func TestTreeFindOffersAPickerForSeveral(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	if _, err := client.CreateGroup(context.Background(), srv.OrgUID(), api.Group{Name: "python"}); err != nil {
		t.Fatal(err)
	}
	h := startWith(t, srv, testOptions(srv, client), 140, 40)
	h.waitText("platform")
	h.keys("/")
	h.typeText("python")
	h.keys("ctrl+s")
	s := h.waitText(`Found on the server for "python"`, "folder  python", "repo  python")
	if !strings.Contains(line(s, "repo  python"), "in platform/base-images") {
		t.Errorf("the repo found does not say where it lives:\n%s", s)
	}
	h.typeText("base-im") // where it lives narrows the picker
	h.keys("enter")
	h.waitText("details: python", "found repo python in platform/base-images")
	if got := h.m.treeSelected(); got != "python" || !strings.Contains(h.screen(), "v base-images") {
		t.Errorf("on %q after choosing the repo:\n%s", got, h.screen())
	}
}

// Nothing found says what was asked; a pattern the server cannot look up
// says why ctrl+s does not apply.
func TestTreeFindSaysWhatItAsked(t *testing.T) {
	t.Parallel()
	h := start(t, 160, 40, true)
	h.waitText("platform")
	h.keys("/")
	h.typeText("no-such-thing")
	h.keys("ctrl+s")
	h.waitText(`nothing on the server is named "no-such-thing" exactly (repos, folders, identities by name, advisories by id or CVE)`)
	h.keys("esc", "/")
	h.typeText("!python")
	h.keys("ctrl+s")
	h.waitText("not inverted or as expressions")
}

// testOptions are start's options for an emulator made by the test.
func testOptions(srv *emulator.Server, client *api.Client) Options {
	return Options{Client: client, Host: "test", Identity: "admin (test)", Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }, Org: srv.OrgUID()}
}

// treeSelected is the label of the tree's node under the cursor.
func (m *Model) treeSelected() string {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if ex, ok := m.stack[i].screen.(*explorer.Model); ok {
			if n := ex.Tree().Selected(); n != nil {
				return string(n.Label)
			}
		}
	}
	return ""
}

// An advisory far down the feed (not among the nodes loaded) is found by
// id and revealed: the feed is walked to it, page by page.
func TestTreeFindRevealsAnAdvisoryDownTheFeed(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	var last api.Advisory
	for a, err := range api.NewCursor(client.ListAdvisories, api.ListOptions{PageSize: api.MaxPageSize}, api.AdvisoryKey).All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		last = a
	}
	h := startWith(t, srv, testOptions(srv, client), 140, 40)
	h.waitText("advisories")
	h.keys("/")
	h.typeText(strings.ToLower(last.AdvisoryID)) // as typed in a hurry
	h.keys("ctrl+s")
	h.waitText("found advisory "+last.AdvisoryID+" in the advisories feed", "details: "+last.AdvisoryID)
	if got := h.m.treeSelected(); got != last.AdvisoryID {
		t.Errorf("on %q, want %s:\n%s", got, last.AdvisoryID, h.screen())
	}
}

// A CVE is found through the advisories that name it.
func TestTreeFindsAdvisoriesByCVE(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	var cve string
	for a, err := range api.NewCursor(client.ListAdvisories, api.ListOptions{PageSize: api.MaxPageSize}, api.AdvisoryKey).All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		for _, alias := range a.Aliases {
			if strings.HasPrefix(alias, "CVE-") && cve == "" {
				cve = alias
			}
		}
	}
	if cve == "" {
		t.Skip("no advisory of the demo names a CVE")
	}
	h := startWith(t, srv, testOptions(srv, client), 140, 40)
	h.waitText("advisories")
	h.keys("/")
	h.typeText(cve)
	h.keys("ctrl+s")
	s := h.waitFor("an advisory found", func(s string) bool {
		return strings.Contains(s, "found advisory CGA-") || strings.Contains(s, `Found on the server for "`+cve+`"`)
	})
	if strings.Contains(s, "nothing on the server") {
		t.Errorf("the CVE found nothing:\n%s", s)
	}
}

// In every tag of the organization, the server filter names tags: a repo's
// name finds none, and the empty table says how to list that repo's tags.
func TestTagServerFilterSaysItNamesTags(t *testing.T) {
	t.Parallel()
	h := start(t, 160, 30, true)
	h.waitText("platform")
	h.typeText(":tags")
	h.keys("enter")
	h.waitText("tags of acme.example", "sha256:")
	h.keys("/")
	h.typeText("python")
	h.keys("enter")
	h.keys("ctrl+s")
	h.waitText(`[name = "python"]`, "(none) no tag is named python (the server filter names tags; :tags python lists the tags of a repo named so)")
}

// A long library name (Maven's group:artifact) is whole on a wide screen.
func TestLibraryNamesAreWholeOnAWideScreen(t *testing.T) {
	t.Parallel()
	h := start(t, 200, 30, true)
	h.waitText("platform")
	h.typeText(":libraries")
	h.keys("enter")
	h.waitText("ECOSYSTEM", "com.fasterxml.jackson.core:jackson-databind ")
}
