package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// inviteShell runs the shell a few seconds after the emulator's clock
// (an invite made now was made a moment ago), on the organization, at
// start s.
func inviteShell(t *testing.T, s Start) (*harness, *api.Client) {
	t.Helper()
	srv, client := newEmulator(t, emulator.Options{Seed: 1, Now: func() time.Time { return fixedNow }})
	return startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow.Add(3 * time.Second) }, Start: s}, 150, 40), client
}

// n in :invites (the organization's, spanning folders) asks which folder
// first; the form, the new invite's page and its row then name that
// folder, and the page says it expires in as many days as it lasts (not
// one less, a few seconds after it was made).
func TestInviteAsksWhichFolderAndSaysIt(t *testing.T) {
	t.Parallel()
	h, client := inviteShell(t, Start{})
	security := h.groupUID(t, "security")
	h.waitText("platform")
	h.typeText(":invites")
	h.keys("enter")
	h.waitText("invites of acme.example", "FOLDER", "1 of 3")
	h.keys("n")
	h.waitText("New invite: to which folder?", "acme.example (organization)", "apps/payments", "data/ml", "security")
	h.typeText("security")
	h.keys("enter")
	h.waitText("New invite in security", "POST /iam/v2/groupInvites/")
	h.keys("tab", "tab", "backspace", "backspace")
	h.typeText("2d")
	h.keys("enter")
	s := h.waitText(`created invite "viewer for anyone" in security`, "CODE: SHOWN ONCE, COPY IT NOW")
	s = h.waitFor("the folder's path", func(s string) bool { return strings.HasSuffix(strings.TrimSpace(line(s, "folder ")), "security") })
	if got := line(s, "expires"); !strings.Contains(got, "in 2 days (2026-11-25 12:00:00 UTC)") {
		t.Errorf("expires: %q, want in 2 days", strings.TrimSpace(got))
	}
	p, err := client.ListGroupInvites(context.Background(), api.ListOptions{ChildrenOf: security})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("the invites of security: %+v %v", p, err)
	}
	// Its row: FOLDER security.
	h.keys("esc")
	s = h.waitFor("its row naming its folder", func(s string) bool {
		return strings.Contains(line(s, "in 2 days"), "security") && strings.Contains(s, "of 4")
	})
	if !strings.Contains(line(s, "in 2 days"), "anyone") {
		t.Errorf("the new row:\n%s", s)
	}

	// In the organization itself, 7 days read 7 days.
	h.keys("n")
	h.waitText("New invite: to which folder?", "acme.example (organization)")
	h.keys("enter") // the organization comes first
	h.waitText("New invite in acme.example")
	h.keys("enter")
	s = h.waitText(`created invite "viewer for anyone" in acme.example`, "CODE: SHOWN ONCE")
	s = h.waitFor("the folder's name", func(s string) bool { return strings.HasSuffix(strings.TrimSpace(line(s, "folder ")), "acme.example") })
	if got := line(s, "expires"); !strings.Contains(got, "in 7 days (2026-11-30 12:00:00 UTC)") {
		t.Errorf("expires: %q, want in 7 days", strings.TrimSpace(got))
	}
	h.keys("esc")
	h.waitFor("its row", func(s string) bool {
		return strings.Contains(line(s, "in 7 days"), "acme.example") && strings.Contains(s, "of 5")
	})

	// esc in the picker goes back to the table, nothing made.
	h.keys("n")
	h.waitText("New invite: to which folder?")
	h.keys("esc")
	h.waitText("invites of acme.example", "of 5")
}

// canopy open <invite uid> opens its page, which names its folder by its
// path.
func TestOpenAnInviteNamesItsFolder(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1, Now: func() time.Time { return fixedNow }})
	ctx := context.Background()
	groups, err := client.ListGroups(ctx, api.ListOptions{DescendantsOf: srv.OrgUID(), Name: "ml"})
	if err != nil || len(groups.Items) != 1 {
		t.Fatalf("data/ml: %+v %v", groups, err)
	}
	made, err := client.CreateGroupInvite(ctx, groups.Items[0].UID, api.NewGroupInvite{RoleUID: builtinRole(t, client, srv.OrgUID(), "viewer"),
		Email: "ana@example.com", TTL: api.Duration(12 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow.Add(time.Minute) }, Start: Start{Open: made.UID}}, 150, 40)
	s := h.waitText("opened the invite viewer for ana@example.com", "invite: viewer for ana@example.com", "key id")
	s = h.waitFor("the folder's path", func(s string) bool { return strings.HasSuffix(strings.TrimSpace(line(s, "folder ")), "data/ml") })
	if got := line(s, "expires"); !strings.Contains(got, "in 12 hours (2026-11-24 00:00:00 UTC)") {
		t.Errorf("expires: %q", strings.TrimSpace(got))
	}
	if strings.Contains(s, "CODE") {
		t.Errorf("a read invite shows a code:\n%s", s)
	}
}
