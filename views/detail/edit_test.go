package detail

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/theme"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/viewstest"
)

// TestFieldCursorMovesAmongUpdatableFieldsAndScrolls: in a short pane,
// j moves the cursor from the main field down through the updatable ones
// (drawn selected), scrolling to keep it seen; e edits the one under it;
// without the keyboard no cursor shows.
func TestFieldCursorMovesAmongUpdatableFieldsAndScrolls(t *testing.T) {
	th := theme.New(theme.Options{Name: theme.Dark})
	common := views.Common{Theme: th, Keys: keymap.Default(), Now: func() time.Time { return now }}
	fetch := Fetch{Kind: testKind, Edits: func(item any) []form.Config {
		var out []form.Config
		for _, f := range []string{"description", "tier", "bundles", "aliases"} {
			out = append(out, form.Config{Title: safe.Text("edit " + f), Fields: []form.Field{{Key: f, Label: f}}, Ctx: context.Background(),
				Preview: func(map[string]string) string { return "PATCH /registry/v2/repos/org/g/r?update_mask=" + f }})
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
	if f := ansi.Strip(strings.Join(m.Footer(60), " ")); !strings.Contains(f, "update_mask=aliases") {
		t.Errorf("the footer does not preview the aliases edit: %q", f)
	}
}

// repoEdits edits a repo's description, tier and bundles in place; each
// submit answers with the repo as changed, which Done hands on.
func repoEdits(item any) []form.Config {
	r, _ := item.(*api.Repo)
	if r == nil {
		return nil
	}
	var out []form.Config
	for _, f := range []string{"description", "tier", "bundles"} {
		value := map[string]string{"description": r.Description, "tier": r.CatalogTier, "bundles": strings.Join(r.Bundles, ",")}[f]
		out = append(out, form.Config{Title: safe.Text("edit " + f), Fields: []form.Field{{Key: f, Label: f, Value: value}}, Ctx: context.Background(),
			Preview: func(map[string]string) string { return "PATCH /registry/v2/repos/org/g/r?update_mask=" + f },
			Submit: func(_ context.Context, v map[string]string) (any, error) {
				n := *r
				switch f {
				case "description":
					n.Description = v[f]
				case "tier":
					n.CatalogTier = v[f]
				case "bundles":
					n.Bundles = strings.Split(v[f], ",")
				}
				return &n, nil
			},
			Done: func(res any) tea.Cmd { return func() tea.Msg { return views.UpdatedMsg{Item: res} } }})
	}
	return out
}

func editModel(t *testing.T, h int, r *api.Repo) (*Model, *theme.Theme) {
	t.Helper()
	th := theme.New(theme.Options{Name: theme.Dark})
	common := views.Common{Theme: th, Keys: keymap.Default(), Now: func() time.Time { return now }}
	m := New(context.Background(), common, Fetch{Kind: testKind, Edits: repoEdits})
	m.SetSize(60, h)
	m.Show(r)
	m.SetFocused(true)
	return m, th
}

// TestEditingAWrappedValueReplacesAllOfIt: a long description wraps over
// several lines; while it is edited, none of them stays on screen, before
// or after typing, and the editor's keys come right before the next field.
func TestEditingAWrappedValueReplacesAllOfIt(t *testing.T) {
	var words []string
	for i := range 40 {
		words = append(words, fmt.Sprintf("w%02d", i))
	}
	m, _ := editModel(t, 12, &api.Repo{UID: "org/g/r", Name: "nginx", Description: strings.Join(words, " "), CatalogTier: "BASE"})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "w39") {
		t.Fatalf("the description does not wrap onto later lines:\n%s", v)
	}
	stale := regexp.MustCompile(`(?m)^ {14}w\d\d`)
	check := func(when string) {
		t.Helper()
		v := ansi.Strip(m.View())
		if stale.MatchString(v) {
			t.Errorf("%s, the old value's wrapped lines stay under the editor:\n%s", when, v)
		}
		lines := strings.Split(v, "\n")
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "enter sends") })
		if i < 0 || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "tier") {
			t.Errorf("%s, the next field does not follow the editor:\n%s", when, v)
		}
	}
	m.Update(viewstest.Key("e"))
	if !m.TakesText() {
		t.Fatal("e did not edit the description")
	}
	check("on e")
	m.Update(viewstest.Key("x"))
	check("after typing")
}

// TestFieldCursorStaysOnTheFieldJustEdited: after tier is edited and the
// pane shows the repo's new version (as the shell does on success), the
// cursor is still on tier, so j then e edits bundles.
func TestFieldCursorStaysOnTheFieldJustEdited(t *testing.T) {
	m, th := editModel(t, 12, &api.Repo{UID: "org/g/r", Name: "nginx", Description: "web", CatalogTier: "BASE", Bundles: []string{"base"}})
	m.Update(viewstest.Key("j"))
	m.Update(viewstest.Key("e"))
	m.Update(viewstest.Key("x"))
	var updated []views.UpdatedMsg
	viewstest.Drive(m.Update(viewstest.Key("enter")), func(msg tea.Msg) bool {
		if u, ok := msg.(views.UpdatedMsg); ok {
			updated = append(updated, u)
			return false
		}
		return true
	}, m.Update)
	if len(updated) != 1 || m.TakesText() {
		t.Fatalf("the edit did not go through (%d updates, editing %v)", len(updated), m.TakesText())
	}
	// What the shell does with the answer: every view hears of it, and
	// the tree shows the selected node's new version in the pane.
	m.Update(updated[0])
	m.Show(updated[0].Item)
	v := m.View()
	if !strings.Contains(ansi.Strip(v), "basex") {
		t.Fatalf("the pane does not show the new tier:\n%s", ansi.Strip(v))
	}
	selected := func(label string) string { return th.Selected.Render(text.Fit(label, 13, false, "")) }
	if !strings.Contains(v, selected("tier")) || strings.Contains(v, selected("description")) {
		t.Errorf("the cursor left tier after its edit:\n%s", ansi.Strip(v))
	}
	m.Update(viewstest.Key("j"))
	m.Update(viewstest.Key("e"))
	if f := ansi.Strip(strings.Join(m.Footer(60), " ")); !strings.Contains(f, "update_mask=bundles") {
		t.Errorf("j then e after the edit does not edit bundles: %q", f)
	}
}

// Every key the pane offers does something: with nothing shown, on a repo
// (editable, with the field cursor), on a tag, on an identity (b binds),
// while a field is edited, read-only, and as a page.
func TestEveryEnabledKeyRunsSomething(t *testing.T) {
	var bound, advisories []string
	fetch := Fetch{Kind: testKind, Edits: repoEdits,
		Bind: func(item any) tea.Cmd { bound = append(bound, item.(*api.Identity).UID); return nil },
		Advisories: func(label string, names []string) tea.Cmd {
			advisories = append(advisories, names...)
			return nil
		}}
	for _, readOnly := range []bool{false, true} {
		common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default(), Now: func() time.Time { return now }, ReadOnly: readOnly}
		m := New(context.Background(), common, fetch)
		m.SetSize(60, 12)
		check := func(when string) {
			t.Helper()
			if u := keymap.Unbound(m.Actions()); len(u) > 0 {
				t.Errorf("read-only %v, %s: enabled without a Run: %v", readOnly, when, u)
			}
		}
		check("nothing shown")
		m.Show(&api.Repo{UID: "org/g/r", Name: "nginx", Description: "web", CatalogTier: "BASE", Bundles: []string{"base"}})
		check("a repo")
		m.SetFocused(true)
		check("a repo, focused")
		st, _ := keymap.Find(m.Actions(), keymap.Edit)
		if st.Enabled == readOnly {
			t.Errorf("read-only %v: e enabled %v", readOnly, st.Enabled)
		}
		advisories = nil
		m.Update(viewstest.Key("a"))
		if len(advisories) != 1 || advisories[0] != "nginx" {
			t.Errorf("read-only %v: a on a repo asked for %v", readOnly, advisories)
		}
		m.Update(viewstest.Key("j"))
		check("on the next field")
		if !readOnly {
			m.Update(viewstest.Key("enter"))
			if !m.TakesText() {
				t.Fatal("enter on a field did not edit it")
			}
			check("editing")
			m.Update(viewstest.Key("esc"))
			viewstest.Drive(m.Update(form.ClosedMsg{Form: m.editor}), func(tea.Msg) bool { return true }, m.Update)
			if m.TakesText() {
				t.Fatal("esc did not end the edit")
			}
		}
		m.Show(&api.Tag{UID: "org/g/r/t", Name: "latest", Digest: "sha256:" + strings.Repeat("a", 64)})
		check("a tag")
		if msg, ok := msgOf(m.Update(viewstest.Key("y"))).(views.CopyMsg); !ok || msg.What != "digest" {
			t.Errorf("read-only %v: y on a tag told %v", readOnly, msg)
		}
		m.Show(&api.Identity{UID: "org/ci", Name: "ci"})
		check("an identity")
		bound = nil
		m.Update(viewstest.Key("b"))
		if readOnly == (len(bound) == 1) {
			t.Errorf("read-only %v: b bound %v", readOnly, bound)
		}

		page := NewPage(context.Background(), common, fetch, &api.Role{UID: "r", Name: "owner"})
		page.SetSize(40, 10)
		page.Init()
		if u := keymap.Unbound(page.Actions()); len(u) > 0 {
			t.Errorf("read-only %v, a page: enabled without a Run: %v", readOnly, u)
		}
		if page.Update(viewstest.Key("h")); !page.Closed() {
			t.Errorf("read-only %v: h does not close a page", readOnly)
		}
	}
}

func msgOf(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

// TestEscEndsTheEditorAtOnce: keys typed in one burst right after esc
// (`:roles⏎`) are the page's and the shell's, not an editor's still
// waiting for its ClosedMsg: none reopens it or is typed into it.
func TestEscEndsTheEditorAtOnce(t *testing.T) {
	m, _ := editModel(t, 20, &api.Repo{UID: "org/g/r", Name: "nginx", Description: "web server", CatalogTier: "BASE"})
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if !m.TakesText() {
		t.Fatal("enter on a field does not edit it")
	}
	if m.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); m.TakesText() {
		t.Fatal("the editor still takes keys after esc, until its ClosedMsg comes")
	}
}
