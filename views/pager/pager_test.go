package pager

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/viewstest"
)

func newPage(cfg Config) *Model {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, cfg)
	m.SetSize(60, 4)
	return m
}

// Every key the page offers does something: scrolling, copying (when the
// owner says what), going back.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	long := strings.Repeat("word ", 200)
	for _, cfg := range []Config{
		{Title: "plain", Sections: []Section{{Label: "text", Text: long}}},
		{Title: "copies", Sections: []Section{{Label: "curl", Text: long}}, Copy: func() (string, string) { return "curl -X GET", "command" }},
	} {
		m := newPage(cfg)
		check := func(when string) {
			t.Helper()
			if u := keymap.Unbound(m.Actions()); len(u) > 0 {
				t.Errorf("%s, %s: enabled without a Run: %v", cfg.Title, when, u)
			}
		}
		check("at the top")
		m.Update(viewstest.Key("G"))
		if m.offset == 0 {
			t.Errorf("%s: G did not scroll", cfg.Title)
		}
		check("at the end")
		m.Update(viewstest.Key("g"))
		if m.offset != 0 {
			t.Errorf("%s: g did not go back to the top", cfg.Title)
		}
		cmd := m.Update(viewstest.Key("y"))
		if _, copied := keymap.Find(m.Actions(), keymap.Copy); copied {
			if cmd == nil || cmd() != (views.CopyMsg{Text: "curl -X GET", What: "command"}) {
				t.Errorf("%s: y did not copy", cfg.Title)
			}
		} else if cmd != nil {
			t.Errorf("%s: y without a copy did something: %v", cfg.Title, cmd())
		}
		m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
		if !m.Closed() {
			t.Errorf("%s: esc did not close", cfg.Title)
		}
	}
}
