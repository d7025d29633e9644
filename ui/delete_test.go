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

// TestTreeDeleteKeepsThePlace: deleting a subscription while a repo
// above is expanded leaves every expansion as it was and puts the cursor
// on the deleted node's parent (it had no sibling), not on an unrelated
// node; deleting an identity moves the cursor to its next sibling.
func TestTreeDeleteKeepsThePlace(t *testing.T) {
	t.Parallel()
	// Tall enough for the repo's tags and the subscriptions below them,
	// whenever the tags come.
	h, _, _ := recordingShell(t, 140, 110)
	platform := h.groupUID(t, "platform")
	subs, err := h.m.opts.Client.ListSubscriptions(context.Background(), api.ListOptions{ChildrenOf: platform})
	if err != nil || len(subs.Items) != 1 {
		t.Fatalf("platform's subscriptions: %+v %v", subs, err)
	}
	sink := subs.Items[0].Sink
	h.toAlertmanager()
	h.keys("l")
	h.waitText("latest-dev")
	h.moveTo("subscriptions of platform")
	h.keys("l")
	h.moveTo(sink)
	h.keys("d")
	h.waitText("Delete subscription "+sink+"?", "uid ", "Events stop going to "+sink)
	h.keys("y")
	s := h.waitText("deleted subscription", "details: subscriptions of platform")
	// The repo's tags may still be loading on a busy machine (its page
	// named latest-dev first): they come, in place.
	s = h.waitFor("the expansions as they were", func(s string) bool {
		return strings.Contains(s, "latest-dev  sha256:") && strings.Contains(s, "v subscriptions")
	})
	if strings.Count(s, sink) != 1 { // the status line's "deleted subscription …"
		t.Errorf("the subscription is still shown:\n%s", s)
	}
	h.waitFor("the collection counts one less", func(s string) bool {
		return strings.Contains(line(s, "v subscriptions"), " 0")
	})
}

// TestTreeDeleteMovesToTheNextSibling: deleting an identity puts the
// cursor on the next one.
func TestTreeDeleteMovesToTheNextSibling(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 140, 40)
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.moveTo("carol")
	h.keys("d")
	s := h.waitText("Delete identity carol?", "role binding")
	// The footer says what the question says: y or enter, yes; esc, no.
	if foot := line(s, "enter yes"); !strings.Contains(foot, "y/Y yes  enter yes  esc no") {
		t.Errorf("the dialog's footer: %q", foot)
	}
	h.keys("y")
	// One delete done closes its dialog and says so.
	s = h.waitText("deleted identity carol", "details: catalog-syncer")
	if strings.Count(s, "carol") != 1 || !strings.Contains(line(s, "v identities"), "9") { // the status line's
		t.Errorf("after deleting carol:\n%s", s)
	}
}

// TestDeleteDialogsNameWhatIsLost: a tag row's dialog names the tag, its
// uid and what stops working; several identities are counted with a
// correct plural and what goes with them.
func TestDeleteDialogsNameWhatIsLost(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 150, 40)
	h.toAlertmanager()
	h.keys("t")
	h.waitText("tags of alertmanager", " loaded")
	h.keys("d")
	s := h.waitText("Delete tag alertmanager:")
	if !strings.Contains(s, "uid 8707a01d") || !strings.Contains(s, "stop working") || strings.Contains(s, "These tag ") {
		t.Errorf("the tag's dialog:\n%s", s)
	}
	h.keys("esc")
	h.waitFor("the table", func(s string) bool { return !strings.Contains(s, "Delete tag") })
	typeCommand(h, "identities")
	h.waitText("identities of acme.example", " loaded")
	h.keys("space", "space", "space", "d")
	s = h.waitText("Delete 3 identities?", "go with them")
	if strings.Contains(s, "identitys") || !strings.Contains(s, "identity alice  8707a01d") {
		t.Errorf("the identities' dialog:\n%s", s)
	}
}

// TestDeniedDeleteSaysWhoLacksWhat: acting as carol (a viewer), a delete
// is refused and the dialog says carol lacks which capability.
func TestDeniedDeleteSaysWhoLacksWhat(t *testing.T) {
	t.Parallel()
	srv, _ := newEmulator(t, emulator.Options{Seed: 1})
	tok := emulator.IdentityToken("https://accounts.google.com", "109283746501928374650", fixedNow.Add(10*365*24*time.Hour))
	client, err := api.New(api.Options{BaseURL: httpServer(t, srv), TokenSource: api.StaticToken(tok, "carol"), Retry: api.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Identity: "carol", Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }}, 150, 40)
	h.waitText("platform")
	typeCommand(h, "repos")
	h.waitText("repos of acme.example", " loaded")
	h.keys("d")
	h.waitText("Delete repo alertmanager?")
	h.keys("y")
	s := h.waitText("1 failed")
	if !strings.Contains(s, "denied: carol lacks the capability") {
		t.Errorf("the denial does not name carol and the capability:\n%s", s)
	}
}

// TestAFolderWhoseNameCannotBeTypedIsDeletedByItsUid: a folder named
// with an escape sequence shows its name made safe, which cannot be
// typed back: the dialog asks for the last part of its uid instead.
func TestAFolderWhoseNameCannotBeTypedIsDeletedByItsUid(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1, Hostile: true})
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }}, 150, 40)
	groups, err := client.ListGroups(context.Background(), api.ListOptions{DescendantsOf: srv.OrgUID(), PageSize: 200})
	if err != nil {
		t.Fatal(err)
	}
	var folder api.Group
	for _, g := range groups.Items {
		if strings.HasPrefix(g.Name, "title\x1b") {
			folder = g
		}
	}
	if folder.UID == "" {
		t.Fatal("no hostile folder named with an escape sequence")
	}
	last := folder.UID[strings.LastIndex(folder.UID, "/")+1:]
	h.waitText("hostile")
	h.moveTo("hostile")
	h.keys("l")
	h.waitFor("the folder", func(s string) bool { return strings.Contains(s, "title␛") })
	for range 40 {
		if strings.Contains(line(h.screen(), "details:"), "title␛") {
			break
		}
		h.keys("j")
	}
	h.keys("d")
	s := h.waitText("last part of its uid", "type "+last+" to confirm")
	if strings.Contains(s, "\x1b]") {
		t.Fatalf("the raw name reached the screen")
	}
	for _, r := range last {
		h.keys(string(r))
	}
	h.keys("enter")
	h.waitText("deleted folder")
	if _, err := client.GetGroup(context.Background(), folder.UID); !api.IsNotFound(err) {
		t.Errorf("the folder is still there: %v", err)
	}
}

// TestDeletedBindingIsNamedAsTheDialogNamedIt: the status line after one
// row is deleted names it as the dialog's title did (a binding by its
// role, identity and folder, not its identity alone).
func TestDeletedBindingIsNamedAsTheDialogNamedIt(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 160, 40)
	h.waitText("platform")
	typeCommand(h, "bindings")
	h.waitText("role bindings of acme.example", "loaded")
	h.keys("d")
	s := h.waitText("Delete role binding ")
	title := line(s, "Delete role binding ")
	i := strings.Index(title, "Delete role binding ")
	name := strings.TrimSuffix(strings.TrimSpace(title[i+len("Delete role binding "):]), "?")
	h.keys("y")
	h.waitText("deleted role binding " + name)
}
