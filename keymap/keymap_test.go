package keymap

import (
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
