package ui

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/plugin/plugintest"
	"canopy/theme"
)

// readmeShell runs the shell through a dropper (no answer lost until the
// test says) with editor as the user's editor and a terminal to lend; it
// gives a client straight to the emulator, to read what the server has.
func readmeShell(t *testing.T, editor string) (*harness, *api.Client, *dropper) {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token"})
	d := &dropper{srv: srv}
	hs := httptest.NewServer(d)
	t.Cleanup(hs.Close)
	changes := &ChangeLog{}
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"),
		Retry: api.RetryPolicy{MaxAttempts: 1}, Observe: changes.Record})
	if err != nil {
		t.Fatal(err)
	}
	direct := httptest.NewServer(srv)
	t.Cleanup(direct.Close)
	truth, err := api.New(api.Options{BaseURL: direct.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test")})
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(filepath.Join(t.TempDir(), "terminal"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark}, Changes: changes,
		Now: func() time.Time { return fixedNow }, Terminal: fakeTerminal{out: out}, Editor: editor}, 160, 40)
	return h, truth, d
}

// readmeOf is alertmanager's uid and readme as the server has them.
func readmeOf(t *testing.T, h *harness, truth *api.Client) (string, string) {
	t.Helper()
	uid, _ := descriptionOf(t, h, truth)
	r, err := truth.GetRepoReadme(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	return uid, r.Content
}

// alertmanagerPage opens alertmanager's page from :repos and waits for
// its readme.
func alertmanagerPage(h *harness) {
	h.waitText("platform")
	typeCommand(h, "repos")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("p")
	h.waitText("alertmanager", "README", "Minimal and hardened")
}

// pinning is the fake editor's command line that adds a sentence to the
// readme, recording the file it edited in rec.
func pinning(bin, rec string) string {
	return fmt.Sprintf("%s -replace 'Minimal and hardened' -with 'Pinned for the platform team. Minimal and hardened' -record %s", bin, rec)
}

// TestReadmeEditedSentAndUndone: E on a repo's page opens the readme in
// the editor, in a private file that is gone afterwards; the change shows
// as lines and as the request before anything is sent; y sends it once;
// the page shows the new readme; u puts the old one back.
func TestReadmeEditedSentAndUndone(t *testing.T) {
	t.Parallel()
	bin, rec := plugintest.Editor(t), filepath.Join(t.TempDir(), "edited")
	h, truth, d := readmeShell(t, pinning(bin, rec))
	uid, before := readmeOf(t, h, truth)
	alertmanagerPage(h)
	h.keys("E")
	s := h.waitText("Change the readme of alertmanager?", "PATCH /registry/v2/repos/…/"+uid[strings.LastIndexByte(uid, '/')+1:]+
		"/readme?update_mask=content", "−1 +1 lines", "@@ line 2", "+ Prometheus Alertmanager. Pinned for the platform team.")
	if !strings.Contains(s, "- Prometheus Alertmanager. Minimal and hardened") {
		t.Errorf("the preview does not show the line removed:\n%s", s)
	}
	if n := patches(d); n != 0 {
		t.Fatalf("sent before yes: %v", d.received())
	}
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.TrimSpace(string(b))
	if _, err := os.Stat(filepath.Dir(edited)); !os.IsNotExist(err) {
		t.Errorf("the editor's file is left behind in %s: %v", filepath.Dir(edited), err)
	}

	h.keys("y")
	h.waitText("readme of alertmanager changed: −1 +1 lines (u undoes)")
	h.waitText("Pinned for the platform team")
	if _, now := readmeOf(t, h, truth); now != strings.Replace(before, "Minimal and hardened", "Pinned for the platform team. Minimal and hardened", 1) {
		t.Errorf("the server has:\n%s", now)
	}
	if n := patches(d); n != 1 {
		t.Errorf("%d PATCHes, want 1: %v", n, d.received())
	}

	h.keys("u")
	h.waitText("undid readme of alertmanager")
	h.waitFor("the old readme on the page", func(s string) bool {
		return strings.Contains(s, "Minimal and hardened") && !strings.Contains(s, "Pinned for the platform team")
	})
	if _, now := readmeOf(t, h, truth); now != before {
		t.Errorf("after u the server has:\n%s", now)
	}
}

// TestReadmeNotSent: an editor that changes nothing, one that fails, and
// none at all: each says so, and nothing is sent.
func TestReadmeNotSent(t *testing.T) {
	t.Parallel()
	bin := plugintest.Editor(t)
	for _, c := range []struct{ name, editor, says string }{
		{"unchanged", bin, "readme of alertmanager unchanged: nothing sent"},
		{"failed", bin + " -exit 1 -append x", "nothing sent: the editor failed (fakeeditor: exit status 1)"},
		{"none", "", "no editor to edit the readme of alertmanager in: set $VISUAL or $EDITOR"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, _, d := readmeShell(t, c.editor)
			alertmanagerPage(h)
			h.keys("E")
			h.waitText(c.says)
			if n := patches(d); n != 0 {
				t.Errorf("sent: %v", d.received())
			}
		})
	}
}

// TestReadmeLostAnswerMade: the server makes the change and the answer is
// lost: the readme is read back, found new, said so, and u undoes it.
func TestReadmeLostAnswerMade(t *testing.T) {
	t.Parallel()
	bin := plugintest.Editor(t)
	h, truth, d := readmeShell(t, pinning(bin, filepath.Join(t.TempDir(), "rec")))
	_, before := readmeOf(t, h, truth)
	d.setDrop(func(r *http.Request) bool { return r.Method == http.MethodPatch })
	alertmanagerPage(h)
	h.keys("E")
	h.waitText("Change the readme of alertmanager?")
	h.keys("y")
	h.waitText("no answer", "but the server has the new readme")
	h.keys("enter")
	h.waitText("readme of alertmanager changed: −1 +1 lines (u undoes)")
	if n := patches(d); n != 1 {
		t.Errorf("%d PATCHes, want 1: %v", n, d.received())
	}
	d.setDrop(nil)
	h.keys("u")
	h.waitText("undid readme of alertmanager")
	if _, now := readmeOf(t, h, truth); now != before {
		t.Errorf("after u the server has:\n%s", now)
	}
}

// TestReadmeLostAnswerNotMade: the answer is lost before the server saw
// the change: the readme read back is the old one, the dialog says it was
// not changed, and only then is the same change offered again.
func TestReadmeLostAnswerNotMade(t *testing.T) {
	t.Parallel()
	bin := plugintest.Editor(t)
	h, truth, d := readmeShell(t, pinning(bin, filepath.Join(t.TempDir(), "rec")))
	d.setDrop(func(r *http.Request) bool { return r.Method == http.MethodPatch })
	d.setUnapplied(true)
	alertmanagerPage(h)
	h.keys("E")
	h.waitText("Change the readme of alertmanager?")
	h.keys("y")
	h.waitText("the server still has the old readme: not changed", "enter shows the same change again, to send")
	if n := patches(d); n != 1 {
		t.Errorf("%d PATCHes, want 1: %v", n, d.received())
	}
	d.setDrop(nil)
	h.keys("enter")
	h.waitText("Change the readme of alertmanager?", "−1 +1 lines")
	h.keys("y")
	h.waitText("readme of alertmanager changed")
	if _, now := readmeOf(t, h, truth); !strings.Contains(now, "Pinned for the platform team") {
		t.Errorf("the server has:\n%s", now)
	}
}

// The diff of a readme shows what changed, in hunks, at most as many lines
// as asked, and counts what it leaves out.
func TestReadmeDiff(t *testing.T) {
	t.Parallel()
	ops := diffLines("a\nb\nc\nd\ne\n", "a\nB\nc\nd\ne\nf\n")
	if r, a := diffCounts(ops); r != 1 || a != 2 {
		t.Errorf("−%d +%d, want −1 +2", r, a)
	}
	got := fmt.Sprint(diffText(ops, 20))
	for _, want := range []string{"@@ line 1", "- b", "+ B", "+ f"} {
		if !strings.Contains(got, want) {
			t.Errorf("the diff lacks %q: %s", want, got)
		}
	}
	many := diffText(diffLines(strings.Repeat("x\n", 100), strings.Repeat("y\n", 100)), 10)
	if len(many) != 11 || !strings.Contains(string(many[10]), "more changed lines") {
		t.Errorf("a long diff: %q", many)
	}
	if !onlyFinalNewline("a", "a\n") || onlyFinalNewline("a", "b\n") {
		t.Error("a final newline added is not told from a change")
	}
}

// A repo synced from another takes its readme from there: E says so and
// opens nothing.
func TestReadmeOfASyncedRepo(t *testing.T) {
	t.Parallel()
	h, _, d := readmeShell(t, plugintest.Editor(t))
	h.waitText("platform")
	typeCommand(h, "org")
	h.waitText("Which organization?", "globex")
	h.typeText("globex")
	h.keys("enter")
	h.waitText("organization globex.example")
	typeCommand(h, "repos static-synced")
	h.waitFor("static-synced alone, every repo loaded", func(s string) bool {
		return strings.Contains(s, "static-synced") && !strings.Contains(s, "nginx") && strings.Contains(s, "1/6")
	})
	h.keys("p")
	h.waitText("static-synced", "README")
	h.keys("E")
	h.waitText("this repo syncs from another, whose readme it takes")
	if n := patches(d); n != 0 {
		t.Errorf("sent: %v", d.received())
	}
}
