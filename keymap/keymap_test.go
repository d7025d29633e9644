package keymap

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestDefaultsHaveNoConflicts(t *testing.T) {
	if c := Default().Conflicts(); len(c) != 0 {
		t.Errorf("default keys conflict: %+v", c)
	}
}

func TestLookupOnlyAmongCandidates(t *testing.T) {
	k := Default()
	tab := tea.KeyPressMsg{Code: tea.KeyTab}
	if st, ok := k.Lookup(tab, []State{On(Focus)}); !ok || st.Action != Focus {
		t.Errorf("tab in a pane: %+v %v", st, ok)
	}
	if st, ok := k.Lookup(tab, []State{On(Complete)}); !ok || st.Action != Complete {
		t.Errorf("tab in an input: %+v %v", st, ok)
	}
	if _, ok := k.Lookup(tea.KeyPressMsg{Code: 'x', Text: "x"}, []State{On(Up)}); ok {
		t.Error("x matched up")
	}
	off := Off(Sort, "one order only")
	if st, ok := k.Lookup(tea.KeyPressMsg{Code: 's', Text: "s"}, []State{off}); !ok || st.Enabled || st.Reason != "one order only" {
		t.Errorf("a disabled action is still found, with its reason: %+v", st)
	}
}

func TestOverride(t *testing.T) {
	k := Default()
	if err := k.Override(Refresh, []string{"ctrl+r"}); err != nil {
		t.Fatal(err)
	}
	if !k.Is(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}, Refresh) || k.Is(tea.KeyPressMsg{Code: 'r', Text: "r"}, Refresh) {
		t.Error("override not applied")
	}
	if err := k.Override("nope", []string{"x"}); err == nil {
		t.Error("unknown action accepted")
	}
	if err := k.Override(Up, []string{"j"}); err != nil {
		t.Fatal(err)
	}
	if c := k.Conflicts(); len(c) != 1 || c[0].Key != "j" {
		t.Errorf("conflict not reported: %+v", c)
	}
	if d, _ := k.Def(Up); d.KeyLabel() != "j" {
		t.Errorf("label %q", d.KeyLabel())
	}
}

func TestLabelsFollowTheGlyphs(t *testing.T) {
	k := Default()
	if d, _ := k.Def(Up); d.KeyLabel() != "k/↑" {
		t.Errorf("unicode label %q", d.KeyLabel())
	}
	k.SetLabels(Labels{Left: "<", Right: ">", Up: "^", Down: "v", Half: "1/2"})
	if d, _ := k.Def(Up); d.KeyLabel() != "k/^" {
		t.Errorf("ascii label %q", d.KeyLabel())
	}
	if d, _ := k.Def(HalfDown); d.Short != "1/2 down" {
		t.Errorf("ascii short %q", d.Short)
	}
	for _, d := range k.Defs() {
		for _, r := range d.KeyLabel() + d.Short {
			if r > 0x7f {
				t.Errorf("%s: %q %q is not ASCII", d.Action, d.KeyLabel(), d.Short)
			}
		}
	}
}

func TestNormalizeKey(t *testing.T) {
	for in, want := range map[string]string{"F1": "f1", "Ctrl+D": "ctrl+d", "ctrl+D": "ctrl+d", "shift+g": "G", "G": "G",
		"alt+ctrl+x": "ctrl+alt+x", "Escape": "esc", "PageDown": "pgdown", "shift+tab": "shift+tab", "ctrl++": "ctrl++",
		"?": "?", "space": "space", "Enter": "enter", "ctrl+shift+up": "ctrl+shift+up", "f12": "f12"} {
		if got, err := NormalizeKey(in); err != nil || got != want {
			t.Errorf("NormalizeKey(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"ctrl+shift+banana", "hyperctrl+x", "ctrl+ctrl+x", "", "ctrl+", "f99", "\x1b", "\t"} {
		if got, err := NormalizeKey(in); err == nil {
			t.Errorf("NormalizeKey(%q) = %q, want an error", in, got)
		}
	}
	// What Bubble Tea reports is what a normalized key matches.
	k := Default()
	if err := k.Override(Help, []string{"F1"}); err != nil {
		t.Fatal(err)
	}
	if !k.Is(tea.KeyPressMsg{Code: tea.KeyF1}, Help) {
		t.Error("F1 does not match the f1 key")
	}
	if err := k.Override(Refresh, []string{"Ctrl+R"}); err != nil || !k.Is(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}, Refresh) {
		t.Errorf("Ctrl+R does not match ctrl+r: %v", err)
	}
}

// TestApplyMovesDefaultsAndRefusesClaims: a user's key is taken from
// another action's defaults (and said so); two user actions claiming one
// key, or a printable key for an action live while typing, are refused.
func TestApplyMovesDefaultsAndRefusesClaims(t *testing.T) {
	k := Default()
	moves, err := k.Apply(map[Action][]string{Delete: {"ctrl+d"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 || moves[0] != (Move{Key: "ctrl+d", From: HalfDown, To: Delete}) {
		t.Errorf("moves %+v", moves)
	}
	if d, _ := k.Def(HalfDown); len(d.Keys) != 0 {
		t.Errorf("half-down keeps %v", d.Keys)
	}
	if c := k.Conflicts(); len(c) != 0 {
		t.Errorf("conflicts after a move: %+v", c)
	}
	// An input action may share a key with a non-input one: nothing moves.
	k = Default()
	if moves, err := k.Apply(map[Action][]string{Next: {"ctrl+j"}, Delete: {"enter"}}); err != nil || len(moves) != 1 || moves[0].From != Open {
		t.Errorf("moves %+v, %v", moves, err)
	}

	_, err = Default().Apply(map[Action][]string{Delete: {"x"}, Edit: {"x"}})
	var claim *ClaimError
	if !errors.As(err, &claim) || claim.Key != "x" || claim.Actions != [2]Action{Delete, Edit} {
		t.Errorf("two claims: %v", err)
	}
	_, err = Default().Apply(map[Action][]string{Next: {"j"}})
	var bad *KeyError
	if !errors.As(err, &bad) || bad.Action != Next || !strings.Contains(err.Error(), "could no longer be typed") {
		t.Errorf("a printable key for next: %v", err)
	}
	if _, err := Default().Apply(map[Action][]string{Help: {"ctrl+shift+banana"}}); !errors.As(err, &bad) {
		t.Errorf("a bad key name: %v", err)
	}
}

// TestKeyNamesTheBoundKey: a hint's key is the action's first key, or the
// one it prefers while the action still has it; a user's binding renames
// it, and a dialog's yes and a table's copy may share y.
func TestKeyNamesTheBoundKey(t *testing.T) {
	k := Default()
	if k.Key(Undo) != "u" || k.Key(Prev, "shift+tab") != "shift+tab" || k.Key(Prev) != "↑" || k.Key(Yes) != "y" {
		t.Errorf("default keys: undo %q, prev %q / %q, yes %q", k.Key(Undo), k.Key(Prev, "shift+tab"), k.Key(Prev), k.Key(Yes))
	}
	moves, err := k.Apply(map[Action][]string{Undo: {"ctrl+z"}, Prev: {"ctrl+k"}, Yes: {"Y"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		t.Errorf("a key moved: %+v", m) // Y is copy-ref's in tables, not in dialogs
	}
	if k.Key(Undo) != "ctrl+z" || k.Key(Prev, "shift+tab") != "ctrl+k" || k.Key(Yes) != "Y" || k.Key(CopyRef) != "Y" {
		t.Errorf("after binding: undo %q, prev %q, yes %q, copy-ref %q", k.Key(Undo), k.Key(Prev, "shift+tab"), k.Key(Yes), k.Key(CopyRef))
	}
	if k.Key("nope") != "" {
		t.Error("an unknown action has a key")
	}
}
