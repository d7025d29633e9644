package ui

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/text"
	"canopy/theme"
)

// footerLines are the screen's lines below the main area that span the
// whole width (no pane separator): the edit footer, hints and status.
func footerText(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	for i := len(lines) - 1; i >= 0 && !strings.Contains(lines[i], "│"); i-- {
		out = append([]string{strings.TrimSpace(lines[i])}, out...)
	}
	return strings.Join(out, " ")
}

// toAlertmanager puts the tree's cursor on alertmanager, a repo of
// platform.
func (h *harness) toAlertmanager() {
	h.t.Helper()
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("l")
	h.moveTo("alertmanager")
}

// editAlertmanagerInTheTree opens platform's repos in the tree, edits
// alertmanager's description in place, types more and waits for the
// request's preview.
func (h *harness) editAlertmanagerInTheTree(more string) string {
	h.t.Helper()
	h.toAlertmanager()
	h.keys("e")
	for _, r := range more {
		h.keys(string(r))
	}
	return h.waitText("sends PATCH")
}

// TestTreeEditPreviewsTheRequestInTheFooter: an edit in the tree, whose
// pane is narrow, shows the whole request (short uid path, mask, old →
// new) in the footer across the width, wrapped, not cut under the field.
func TestTreeEditPreviewsTheRequestInTheFooter(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 100, 30)
	s := h.editAlertmanagerInTheTree(" pinned")
	foot := footerText(s)
	want := `?update_mask=description "Prometheus Alertmanager." → "Prometheus Alertmanager. pinned"`
	if !strings.Contains(noSpace(foot), noSpace(want)) || !strings.Contains(foot, "sends PATCH /registry/v2/repos/…/") {
		t.Errorf("the footer does not preview the request:\n%s\nfooter: %s", s, foot)
	}
	h.keys("enter")
	h.waitText("description of alertmanager changed (u undoes)")
	if got := last(reqs, mu); len(got) != 1 || !strings.HasSuffix(got[0].Path, "?update_mask=description") {
		t.Errorf("requests %+v", got)
	}
}

// TestDetailFieldCursorEditsTheFieldUnderIt: with the pane focused, j
// moves a cursor among the updatable fields (drawn selected), e edits the
// field under it in place, and the footer previews the tier change whole.
func TestDetailFieldCursorEditsTheFieldUnderIt(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 110, 30)
	h.toAlertmanager()
	th := theme.New(theme.Options{Name: theme.Dark})
	selected := func(label string) string { return th.Selected.Render(text.Fit(label, 13, false, "")) }
	if raw := h.m.View().Content; strings.Contains(raw, selected("description")) {
		t.Fatal("the field cursor shows while the tree has the keyboard")
	}
	h.keys("tab")
	h.waitFor("the cursor on description", func(string) bool { return strings.Contains(h.m.View().Content, selected("description")) })
	// The footer says which field e edits, and how to pick another.
	h.waitFor("the footer to name description", func(s string) bool { return strings.Contains(footerText(s), "e edit description (↑/↓ picks)") })
	h.keys("j")
	h.waitFor("the cursor on tier", func(string) bool {
		raw := h.m.View().Content
		return strings.Contains(raw, selected("tier")) && !strings.Contains(raw, selected("description"))
	})
	h.waitFor("the footer to name tier", func(s string) bool { return strings.Contains(footerText(s), "e edit tier (↑/↓ picks)") })
	h.keys("e")
	h.waitText("?update_mask=catalog_tier")
	h.keys("right")
	s := h.waitText(`"CATALOG_TIER_APPLICATION" →`, `"CATALOG_TIER_BASE"`)
	if !strings.Contains(noSpace(footerText(s)), noSpace(`?update_mask=catalog_tier "CATALOG_TIER_APPLICATION" → "CATALOG_TIER_BASE"`)) {
		t.Errorf("the tier change is not in the footer:\n%s", s)
	}
	h.keys("enter")
	h.waitText("tier of alertmanager changed", "tier          base")
	got := last(reqs, mu)
	if len(got) != 1 || !strings.HasSuffix(got[0].Path, "?update_mask=catalog_tier") ||
		!reflect.DeepEqual(got[0].Body, map[string]any{"catalogTier": "CATALOG_TIER_BASE"}) {
		t.Errorf("request %+v", got)
	}
}

// TestDeniedEditSaysWhoLacksWhatInFull: acting as carol (a viewer), an
// edit is refused: the reason names carol and the missing capability, in
// full (wrapped), not cut at the pane's width; nothing typed is lost.
func TestDeniedEditSaysWhoLacksWhatInFull(t *testing.T) {
	t.Parallel()
	srv, _ := newEmulator(t, emulator.Options{Seed: 1})
	hs := httpServer(t, srv)
	tok := emulator.IdentityToken("https://accounts.google.com", "109283746501928374650", fixedNow.Add(24*time.Hour*365*10))
	client, err := api.New(api.Options{BaseURL: hs, TokenSource: api.StaticToken(tok, "carol"), Retry: api.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Identity: "carol", Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }}, 100, 30)
	h.toAlertmanager()
	h.keys("tab", "e", "!")
	h.waitText("sends PATCH")
	h.keys("enter")
	s := h.waitText("not changed")
	foot := strings.Join(strings.Fields(footerText(s)), " ")
	if !strings.Contains(foot, "denied: carol lacks the capability") || !strings.Contains(foot, "on ") {
		t.Errorf("the denial does not say who lacks what:\n%s", s)
	}
	if !strings.Contains(s, "Prometheus Alertmanager.!") {
		t.Errorf("what was typed is lost:\n%s", s)
	}
}

// TestUndoWalksBackThroughTheSessionsEdits: u undoes the newest edit,
// then the one before, each recorded in :changes, then says nothing is
// left; an undo whose answer is lost is looked up, found done, and not
// sent again.
func TestUndoWalksBackThroughTheSessionsEdits(t *testing.T) {
	t.Parallel()
	var patches atomic.Int32
	h, _ := droppingShell(t, 140, 30, func(r *http.Request) bool {
		return r.Method == http.MethodPatch && patches.Add(1) == 4 // the second undo's answer is lost
	})
	h.waitText("platform")
	typeCommand(h, "repos")
	h.waitText("repos of acme.example", "63/63 loaded")
	for _, now := range []string{"Prometheus Alertmanager.1 ", "Prometheus Alertmanager.12 "} {
		h.keys("e", now[len(now)-2:len(now)-1], "enter")
		h.waitFor("the edit through", func(s string) bool {
			return strings.Contains(s, "(u undoes)") && strings.Contains(s, now) && !strings.Contains(s, "PATCH /registry")
		})
	}
	h.keys("u")
	h.waitText(`undid description of alertmanager: back to "Prometheus Alertmanager.1" · 1 more to undo`)
	h.keys("u")
	h.waitText(`no answer, but the server has it: undid description of alertmanager: back to "Prometheus Alertmanager." · nothing left to undo`)
	h.keys("u")
	h.waitText("nothing left to undo")
	typeCommand(h, "changes")
	s := h.waitText("changes made in this session", "REQUEST", "WHAT", "ok (", "unknown, then found the new value")
	if n := strings.Count(s, "undo of repo"); n != 2 {
		t.Errorf(":changes shows %d undos, want 2:\n%s", n, s)
	}
}

// httpServer serves the emulator on loopback and gives its URL.
func httpServer(t *testing.T, srv *emulator.Server) string {
	t.Helper()
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return hs.URL
}

func noSpace(s string) string { return strings.Join(strings.Fields(s), "") }

// TestTreeEditorUsesTheRowsWidth: the input of an edit in place is as wide
// as the row leaves it, so text that fits is shown whole, not scrolled.
func TestTreeEditorUsesTheRowsWidth(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 160, 30)
	s := h.editAlertmanagerInTheTree(" pinned")
	for _, l := range strings.Split(s, "\n") {
		tree, _, _ := strings.Cut(l, "│")
		if strings.Contains(tree, "description ") && !strings.Contains(tree, "update_mask") {
			if !strings.Contains(tree, "Prometheus Alertmanager. pinned") {
				t.Errorf("the editor scrolled text that fits:\n%s", s)
			}
			return
		}
	}
	t.Errorf("no editor line:\n%s", s)
}
