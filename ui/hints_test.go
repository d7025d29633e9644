package ui

import (
	"strings"
	"testing"
	"time"

	"canopy/api/emulator"
	"canopy/keymap"
	"canopy/theme"
)

// TestHintsNameReboundKeys: with undo bound to U and cancel to ctrl+d (as
// a config file's keys would), the edit's status line, its flash and the
// undo itself say and take the new keys, never the defaults.
func TestHintsNameReboundKeys(t *testing.T) {
	t.Parallel()
	keys := keymap.Default()
	if _, err := keys.Apply(map[keymap.Action][]string{keymap.Undo: {"U"}, keymap.Cancel: {"ctrl+d"}}); err != nil {
		t.Fatal(err)
	}
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)", Keys: keys,
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }}, 140, 30)
	h.toAlertmanager()
	h.keys("e", "!")
	s := h.waitText("sends PATCH", "enter sends · ctrl+d cancels")
	if strings.Contains(s, "esc cancels") {
		t.Errorf("the form names esc, which no longer cancels:\n%s", s)
	}
	h.keys("enter")
	s = h.waitText("description of alertmanager changed (U undoes)")
	if strings.Contains(s, "(u undoes)") {
		t.Errorf("the flash names u:\n%s", s)
	}
	h.keys("U")
	h.waitText(`undid description of alertmanager: back to "Prometheus Alertmanager."`)
}

// On a narrow screen the footer keeps what esc does over the hints before
// it (the global : ? q stay too): a table at 50 columns says esc goes back.
func TestNarrowFooterKeepsEsc(t *testing.T) {
	t.Parallel()
	h := start(t, 50, 20, true)
	h.waitText("platform")
	h.keys(":", "r", "e", "p", "o", "s", "enter")
	s := h.waitText("loaded")
	hints := line(s, "? help")
	if !strings.Contains(hints, "esc") || !strings.Contains(hints, "q/ctrl+c quit") {
		t.Errorf("the footer at 50 columns does not say what esc does: %q", hints)
	}
}
