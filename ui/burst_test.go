package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
)

// TestKeysRightAfterEscLeaveTheEditor: esc out of a page's field editor,
// then `:roles⏎` typed in the same burst (the terminal gives the escape
// and the colon as one alt+:), opens the roles: no key is dropped, none
// reopens the editor, and nothing is sent (the description stays).
func TestKeysRightAfterEscLeaveTheEditor(t *testing.T) {
	h, client := startAt(t, Start{Command: ":identities"})
	h.waitText("alice")
	h.keys("/")
	h.typeText("alice")
	h.keys("enter", "enter")
	h.waitFor("alice's page", func(s string) bool { return strings.Contains(s, "Alice Nakamura, platform lead") && h.m.top() != nil })
	h.keys("e")
	h.waitFor("the description in an editor", func(string) bool {
		in, ok := h.m.top().(textInput)
		return ok && in.TakesText()
	})
	// The escape and the key right after it come in one read, as alt+:.
	h.send(tea.KeyPressMsg{Code: ':', Mod: tea.ModAlt})
	h.keys("r", "o", "l", "e", "s", "enter")
	h.waitFor("the roles table", func(s string) bool {
		return strings.HasPrefix(s, "roles") || strings.Contains(strings.SplitN(s, "\n", 2)[0], "roles")
	})
	ids, err := client.ListIdentities(t.Context(), api.ListOptions{Name: "alice", DescendantsOf: h.m.env.org.UID})
	if err != nil || len(ids.Items) != 1 || ids.Items[0].Description != "Alice Nakamura, platform lead" {
		t.Fatalf("alice's description changed behind the burst: %+v %v", ids, err)
	}
}
