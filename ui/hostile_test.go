package ui

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// inert fails when a frame could do anything but paint text: an escape
// sequence other than SGR styling, a C0 (but \n) or C1 control, DEL, a
// format character (bidi, zero-width, BOM) or a line wider than the screen.
func (h *harness) inert(where string, width int) {
	h.t.Helper()
	v := h.m.View().Content
	for i := 0; i < len(v); {
		c := v[i]
		if c == 0x1b {
			j := i + 1
			if j < len(v) && v[j] == '[' {
				j++
				for j < len(v) && (v[j] >= '0' && v[j] <= '9' || v[j] == ';' || v[j] == ':') {
					j++
				}
				if j < len(v) && v[j] == 'm' {
					i = j + 1
					continue
				}
			}
			h.t.Fatalf("%s: escape sequence %q in the frame:\n%s", where, v[i:min(len(v), i+12)], ansi.Strip(v))
		}
		if c < 0x20 && c != '\n' || c == 0x7f {
			h.t.Fatalf("%s: control %q in the frame:\n%s", where, c, ansi.Strip(v))
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		if r >= 0x80 && r <= 0x9f || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) && r != '\u200d' {
			h.t.Fatalf("%s: %U in the frame:\n%s", where, r, ansi.Strip(v))
		}
		i += size
	}
	for n, l := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(l); w > width {
			h.t.Fatalf("%s: line %d is %d wide on a %d-wide screen:\n%s", where, n, w, width, ansi.Strip(v))
		}
	}
}

// TestHostileDataIsShownNeverRun walks every kind of screen over the
// emulator's hostile data and checks each frame is inert text that fits.
func TestHostileDataIsShownNeverRun(t *testing.T) {
	t.Parallel()
	const w, ht = 140, 40
	srv := fresh(t, emulator.Options{Seed: 1, Hostile: true, AdminToken: "test-admin-token"})
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	changes := &ChangeLog{}
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"), Observe: changes.Record})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }, Changes: changes}, w, ht)
	step := func(where string, texts ...string) {
		t.Helper()
		h.waitText(texts...)
		h.inert(where, w)
	}
	step("organization", "details: acme.example", "␛]0;pwned␇")
	h.moveTo("hostile")
	step("hostile folder", "details: hostile")
	h.keys("l")
	step("hostile subfolders", "漢字-🐍-wide")
	h.moveTo("repos of hostile")
	h.keys("l")
	step("hostile repos", "escapes", "bidi-zero-width")
	h.moveTo("escapes")
	step("readme", "README", "␛[2J")
	// 102 bytes that took a Markdown render exponential time and memory.
	h.moveTo("nested-readme")
	step("nested readme", "shown as plain text: nested 2,000 deep", ">>>>>>>>>>", "- - - -")
	h.moveTo("identities of hostile")
	h.keys("l")
	step("hostile identities", "wide-identity")
	h.moveTo("pwned␛]0;pwned␇␛[2J␛[H")
	step("identity detail", "x␛]52;c;cHduZWQ=␇@evil.example")
	for _, c := range []string{"repos", "identities", "bindings", "subscriptions", "roles", "advisories", "libraries"} {
		h.keys(":")
		h.keys(strings.Split(c, "")...)
		h.keys("enter")
		step(":"+c, "› "+strings.Replace(c, "bindings", "role bindings", 1), "loaded")
		h.back()
	}
	// Dialogs, forms, pickers, flashes and the change log quote server text.
	h.moveTo("title␛]0;pwned␇-name")
	h.keys("d")
	step("delete dialog", "Delete folder title␛]0;pwned␇-name?")
	h.keys("esc")
	h.waitFor("the dialog to close", func(s string) bool { return !strings.Contains(s, "Delete folder") })
	h.keys("e")
	h.keys("x", "enter")
	step("edit refused", "name: must contain printable characters only")
	h.keys("esc")
	h.waitFor("the form to close", func(s string) bool { return !strings.Contains(s, "esc cancel") })
	h.moveTo("漢字-🐍-wide")
	h.keys("e", "x", "enter")
	step("edit flash", "description of 漢字-🐍-wide changed")
	h.moveTo("identities of hostile")
	h.moveTo("pwned␛]0;pwned␇␛[2J␛[H")
	h.keys("b")
	h.waitFor("the bind picker's choices", func(s string) bool {
		return strings.Contains(s, "bind a role") && !strings.Contains(s, "loading choices")
	})
	h.inert("bind picker", w)
	h.back()
	h.keys(":", "c", "h", "a", "n", "g", "e", "s", "enter")
	step(":changes", "› changes", "PATCH")
	h.back()
	// Filtered to the hostile rows (matched letters are marked inside
	// sanitized text), a resource of each kind opens as a page.
	for _, c := range []string{"advisories", "libraries", "roles"} {
		h.keys(":")
		h.keys(strings.Split(c, "")...)
		h.keys("enter")
		step(":"+c, "› "+c, "loaded")
		h.keys("/")
		h.keys(strings.Split("pwned", "")...)
		// The filter has answered when its line counts the matches.
		h.waitFor("filtered "+c, func(s string) bool {
			return regexp.MustCompile(`/pwned +[\d,]+/[\d,]+`).MatchString(s) && !strings.Contains(s, "viewer") && !strings.Contains(s, "snakeyaml")
		})
		h.inert(c+" filtered", w)
		h.keys("enter", "enter")
		before := h.screen()
		h.waitFor(c+" page", func(s string) bool { return s != before })
		h.settle()
		h.inert(c+" page", w)
		h.back()
	}
}

// back closes every table (esc answers asynchronously, so each is awaited)
// until the tree shows.
func (h *harness) back() {
	h.t.Helper()
	for range 5 {
		if strings.Contains(h.screen(), " tree ") {
			return
		}
		before := h.screen()
		h.keys("esc")
		h.waitFor("esc to close something", func(s string) bool { return s != before })
	}
	h.t.Fatalf("esc never came back to the tree:\n%s", h.screen())
}
