package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// flood types n characters a key at a time, with no answer taken between
// keys (as keys queued behind one another reach Update). What a key costs
// is BenchmarkTypedFlood's (views/table); a test only says what was taken.
func (h *harness) flood(n int) {
	for range n {
		h.send(keyMsg("x"))
	}
}

// A flood typed into a table's filter is taken up to 1,000 characters and
// the rest refused at once, saying so; the filter then answers the last
// query. (The cost per key is BenchmarkTypedFlood's, in views/table.)
func TestAFloodIntoTheFilterIsCut(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("platform")
	h.typeText(":tags")
	h.keys("enter")
	h.waitText("tags of acme.example", "loaded")
	h.keys("/")
	h.flood(5_000)
	h.waitText("the filter takes at most 1,000 characters: the rest was not typed", "no loaded row matches")
	if q := h.m.View().Content; strings.Count(q, "x") > 1000 {
		t.Errorf("the screen holds %d x's", strings.Count(q, "x"))
	}
}

// A flood typed into a form field refuses, at once, every key past the
// field's limit, and says so: the field holds 512 characters.
func TestAFloodIntoAFieldIsCut(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.toAlertmanager()
	h.keys("e")
	h.waitText("sends PATCH")
	h.flood(5_000)
	s := h.waitText("at most 512 characters")
	if strings.Contains(s, strings.Repeat("x", 513)) {
		t.Errorf("the field holds more than 512 characters:\n%s", s)
	}
}

// Pasted text (a terminal's bracketed paste) types into the one place keys
// go: the filter line filters by it, the command line runs it, and a long
// paste is cut to the line's limit with the same message as typed keys.
func TestAPasteTypesWhereKeysGo(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 30, true)
	h.waitText("platform")
	h.keys(":")
	h.send(tea.PasteMsg{Content: "repos"})
	h.keys("enter")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("/")
	h.send(tea.PasteMsg{Content: "alertmanag"})
	h.waitText("/alertmanag", "2/63") // filtered: 2 of the 63 match
	h.keys("esc", "/")
	h.send(tea.PasteMsg{Content: strings.Repeat("y", 5_000)})
	h.waitText("the filter takes at most 1,000 characters: the rest was not typed")
}
