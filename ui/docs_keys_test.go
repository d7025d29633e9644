package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"canopy/keymap"
	"canopy/views/help"
)

// keysPage is docs/keys.md: every key in the help's groups with the help's
// own line for it, each manual row's fuller account after its group, then
// every `:` command as the help lists it, then the mouse. One source for
// the help (?) and the page, so they cannot say different things.
func keysPage() string {
	keys := keymap.Default()
	defs := keys.Defs()
	var b strings.Builder
	b.WriteString("# Keys and commands\n\n")
	b.WriteString("<!-- Made from the keymap (keymap/keymap.go, keymap/manual.go) and the shell's `:` commands " +
		"(ui/commands.go, ui/kind_*.go), the same source as the help (`?`): edit those, then run " +
		"`CANOPY_UPDATE_DOCS=1 go test ./ui -run TestDocsKeys` to write this page again. -->\n\n")
	b.WriteString("These are the default keys. Inside canopy, `?` lists the same keys, with the ones that work " +
		"where you are in bold and, for one that does not, why (a key that does something else where you are " +
		"is listed only for that); the footer names the few that matter on " +
		"the screen you are on. `keys:` in the config moves any of them ([settings](settings.md#keys)).\n")
	manual := keymap.Manual()
	groupOf := func(a keymap.Action) keymap.Group {
		d, _ := keys.Def(a)
		return d.Group
	}
	for _, g := range keymap.Groups() {
		in := slices.DeleteFunc(slices.Clone(defs), func(d keymap.Def) bool { return d.Group != g })
		if len(in) == 0 {
			continue
		}
		b.WriteString("\n## " + string(g) + "\n\n| key | does |\n|---|---|\n")
		for _, d := range in {
			b.WriteString("| " + quotedKeys(d.Keys) + " | " + cell(d.Desc) + " |\n")
		}
		var more []string
		for _, r := range manual {
			if len(r.Actions) == 0 || groupOf(r.Actions[0]) != g {
				continue
			}
			var ks []string
			for _, a := range r.Actions {
				if d, ok := keys.Def(a); ok {
					ks = append(ks, quotedKeys(d.Keys))
				}
			}
			more = append(more, "- "+strings.Join(ks, ", ")+": "+r.Says+"\n")
		}
		if len(more) > 0 {
			b.WriteString("\nIn more detail:\n\n" + strings.Join(more, ""))
		}
	}
	b.WriteString("\n## Commands\n\n`:` then the name, or the start of it (`:adv`); `tab` completes. " +
		"Your plugins and saved views are commands too ([plugins and saved views](plugins.md)).\n\n| command | does |\n|---|---|\n")
	for _, c := range commands(keys, kinds(nil), nil, nil) {
		name := "`:" + c.Name
		if c.Args != "" {
			name += " " + c.Args
		}
		name += "`"
		desc := c.Desc
		if len(c.Aliases) > 0 {
			desc += " (also `:" + strings.Join(c.Aliases, "`, `:") + "`)"
		}
		b.WriteString("| " + name + " | " + cell(desc) + " |\n")
	}
	b.WriteString("\n## Mouse\n\nUnless `mouse: false` leaves the mouse to the terminal:\n\n| gesture | does |\n|---|---|\n")
	for _, m := range help.Mouse() {
		b.WriteString("| " + m[0] + " | " + cell(m[1]) + " |\n")
	}
	return b.String()
}

// quotedKeys are keys as the help labels them, each in code: `k` `↑`.
func quotedKeys(ks []string) string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = "`" + keymap.Def{Keys: []string{k}}.KeyLabel() + "`"
	}
	return strings.Join(out, " ")
}

// cell makes a help line Markdown for a table cell: outside code spans,
// `|` would end the cell, `<N>` would be taken for HTML and `*` for
// emphasis, so they are escaped.
func cell(s string) string {
	var b strings.Builder
	code := false
	for _, r := range s {
		switch {
		case r == '`':
			code = !code
		case r == '|':
			b.WriteByte('\\')
		case !code && (r == '<' || r == '*' || r == '>'):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// firstKeys are the README's keys: those a first visit needs.
var firstKeys = []keymap.Action{keymap.Down, keymap.Up, keymap.Open, keymap.Back, keymap.Focus, keymap.Filter,
	keymap.Command, keymap.Table, keymap.OnlyFlagged, keymap.Edit, keymap.Bind, keymap.Undo, keymap.Help, keymap.Quit}

// firstKeysTable is the README's table of firstKeys, each with the help's
// line for it.
func firstKeysTable() string {
	keys := keymap.Default()
	var b strings.Builder
	b.WriteString("| key | does |\n|---|---|\n")
	for _, a := range firstKeys {
		d, _ := keys.Def(a)
		b.WriteString("| " + quotedKeys(d.Keys) + " | " + cell(d.Desc) + " |\n")
	}
	return b.String()
}

// Where the README's table of first keys goes.
const (
	firstKeysBegin = "<!-- first keys: made from the keymap by CANOPY_UPDATE_DOCS=1 go test ./ui -run TestDocsKeys -->\n"
	firstKeysEnd   = "<!-- end of first keys -->\n"
)

// TestDocsKeysAreTheHelp: docs/keys.md is the page keysPage makes from
// what the help shows, and the README's first keys the table firstKeysTable
// makes; with CANOPY_UPDATE_DOCS=1 the test writes them.
func TestDocsKeysAreTheHelp(t *testing.T) {
	update := os.Getenv("CANOPY_UPDATE_DOCS") == "1"
	path := filepath.Join("..", "docs", "keys.md")
	sameText(t, "docs/keys.md", path, keysPage(), update)
	readmePath := filepath.Join("..", "README.md")
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, firstKeysBegin), strings.Index(readme, firstKeysEnd)
	if i < 0 || j < i {
		t.Fatalf("the README has no place for its first keys between %q and %q", firstKeysBegin, firstKeysEnd)
	}
	want := readme[:i+len(firstKeysBegin)] + firstKeysTable() + readme[j:]
	sameText(t, "the README's first keys", readmePath, want, update)
}

// sameText fails unless the file at path holds want, naming the first line
// that differs; with update it writes want there instead.
func sameText(t *testing.T, what, path, want string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (CANOPY_UPDATE_DOCS=1 go test ./ui -run TestDocsKeys writes it)", what, err)
	}
	if line, h, w := firstDifference(string(have), want); line > 0 {
		t.Fatalf("%s is stale from line %d:\n have %q\n want %q\n(CANOPY_UPDATE_DOCS=1 go test ./ui -run TestDocsKeys writes it)", what, line, h, w)
	}
}
