package keymap

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// modifiers in the order Bubble Tea writes them ("ctrl+alt+shift+x").
var modifierOrder = []string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

// keyAliases are other names people write for Bubble Tea's key names.
var keyAliases = map[string]string{"escape": "esc", "return": "enter", "pageup": "pgup", "pagedown": "pgdown",
	"del": "delete", "ins": "insert", "spacebar": "space", " ": "space"}

// namedKeys are Bubble Tea's names of the keys that are not a character:
// enter, esc, tab, space, backspace, up, pgdown, home, f1 ... f63, and the
// rest, read from Bubble Tea itself so they cannot drift from what
// KeyPressMsg.String() says.
var namedKeys = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	add := func(code rune) {
		if n := (tea.Key{Code: code}).Keystroke(); utf8.RuneCountInString(n) > 1 {
			names[n] = true
		}
	}
	for _, code := range []rune{tea.KeyEnter, tea.KeyTab, tea.KeyBackspace, tea.KeyEscape, tea.KeySpace} {
		add(code)
	}
	for code := tea.KeyExtended + 1; code <= tea.KeyIsoLevel5Shift; code++ {
		add(code)
	}
	return names
})

// NormalizeKey spells key as Bubble Tea's KeyPressMsg.String() does, so a
// binding matches: modifier and key names in lower case, modifiers in
// Bubble Tea's order ("Ctrl+D" is "ctrl+d", "F1" is "f1", "shift+g" is
// "G"). A key is a single character or a key name (enter, esc, tab, space,
// up, pgdown, home, f1 ...), after any of ctrl+, alt+, shift+, meta+,
// hyper+, super+. Anything else is an error that says what is known.
func NormalizeKey(key string) (string, error) {
	if key == "" {
		return "", fmt.Errorf("an empty key")
	}
	parts := strings.Split(key, "+")
	base := parts[len(parts)-1]
	mods := parts[:len(parts)-1]
	if base == "" && len(parts) >= 2 && parts[len(parts)-2] == "" { // "+" itself, as in ctrl++
		base, mods = "+", parts[:len(parts)-2]
	}
	has := map[string]bool{}
	for _, m := range mods {
		m = strings.ToLower(m)
		if !slices.Contains(modifierOrder, m) {
			return "", fmt.Errorf("key %q: unknown modifier %q (known: %s)", key, m, strings.Join(modifierOrder, ", "))
		}
		if has[m] {
			return "", fmt.Errorf("key %q: %s twice", key, m)
		}
		has[m] = true
	}
	if utf8.RuneCountInString(base) == 1 {
		r, _ := utf8.DecodeRuneInString(base)
		switch {
		case !unicode.IsPrint(r) || unicode.IsSpace(r):
			return "", fmt.Errorf("key %q: not a key name (write space, tab, enter...)", key)
		case has["ctrl"]:
			base = string(unicode.ToLower(r)) // terminals send ctrl+D as ctrl+d
		case has["shift"] && !has["alt"] && unicode.IsLetter(r):
			// Bubble Tea reports shift+g as the text it types: "G".
			base, has["shift"] = string(unicode.ToUpper(r)), false
		}
	} else {
		base = strings.ToLower(base)
		if a, ok := keyAliases[base]; ok {
			base = a
		}
		if !namedKeys()[base] {
			return "", fmt.Errorf("key %q: unknown key %q (a key is one character or a name such as enter, esc, tab, space, backspace, up, down, left, right, home, end, pgup, pgdown, delete, f1; after ctrl+, alt+ or shift+)", key, base)
		}
	}
	var b strings.Builder
	for _, m := range modifierOrder {
		if has[m] {
			b.WriteString(m + "+")
		}
	}
	b.WriteString(base)
	return b.String(), nil
}

// Printable reports whether a (normalized) key types a character in a
// text input: one character without a modifier, or space. Such a key
// cannot also be an action that is live while someone types.
func Printable(key string) bool {
	return key == "space" || utf8.RuneCountInString(key) == 1
}
