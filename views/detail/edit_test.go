package detail

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/text"
	"canopy/views/viewstest"
)

// TestFieldCursorMovesAmongUpdatableFieldsAndScrolls: in a short pane,
// j moves the cursor from the main field down through the updatable ones
// (drawn selected), scrolling to keep it seen; e edits the one under it;
// without the keyboard no cursor shows.
func TestFieldCursorMovesAmongUpdatableFieldsAndScrolls(t *testing.T) {
	th := theme.New(theme.Options{Name: theme.Dark})
	common := views.Common{Theme: th, Keys: keymap.Default(), Now: func() time.Time { return now }}
	fetch := Fetch{Edits: func(item any) []form.Config {
		var out []form.Config
		for _, f := range []string{"description", "tier", "bundles", "aliases"} {
			out = append(out, form.Config{Title: "edit " + f, Fields: []form.Field{{Key: f, Label: f}}, Ctx: context.Background(),
				Preview: func(map[string]string) string { return "PATCH /registry/v2/repos/org/g/r?updateMask=" + f }})
		}
		return out
	}}
	m := New(context.Background(), common, fetch)
	m.SetSize(60, 4)
	m.Show(&api.Repo{UID: "org/g/r", Name: "nginx", Description: "web", CatalogTier: "CATALOG_TIER_BASE",
		Bundles: []string{"base"}, Aliases: []string{"cgr.dev/acme/nginx"}})
	selected := func(label string) string { return th.Selected.Render(text.Fit(label, 13, false, "")) }
	if strings.Contains(m.View(), selected("description")) {
		t.Fatal("a cursor shows without the keyboard")
	}
	m.SetFocused(true)
	if !strings.Contains(m.View(), selected("description")) {
		t.Fatalf("no cursor on the main field:\n%s", ansi.Strip(m.View()))
	}
	for range 3 {
		m.Update(viewstest.Key("j"))
	}
	v := m.View()
	if !strings.Contains(v, selected("aliases")) || strings.Contains(v, selected("description")) {
		t.Errorf("j did not move the cursor to aliases, in view:\n%s", ansi.Strip(v))
	}
	m.Update(viewstest.Key("e"))
	if !m.TakesText() || !strings.Contains(ansi.Strip(m.View()), "aliases") {
		t.Fatalf("e did not edit aliases:\n%s", ansi.Strip(m.View()))
	}
	if f := ansi.Strip(strings.Join(m.Footer(60), " ")); !strings.Contains(f, "updateMask=aliases") {
		t.Errorf("the footer does not preview the aliases edit: %q", f)
	}
}
