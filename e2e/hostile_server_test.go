package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"canopy/api/emulator"
)

// charRefReadme hides escape sequences, bidi and zero-width characters in
// HTML character references, which Markdown decodes: a window title in a
// heading, a clipboard write in a paragraph, a screen clear in inline HTML,
// a bidi override in an image's alt text, a zero-width space in code.
const charRefReadme = "# Title &#x1b;]0;pwned&#x7;\n\n" +
	"clip &#x1b;]52;c;cHduZWQ=&#7; and <span>&#x1b;[2J</span> here\n\n" +
	"![alt &#x202e;txt.exe](x.png) `co&#x200b;de` &ZeroWidthSpace; adm&#x34f;in\n"

// pasteJack is a tag name that would end a bracketed paste and run a
// command when pasted into a shell.
const pasteJack = "x\x1b[201~\n;echo PWNED;\n"

// hostileAPI serves the hostile demo organization with two changes only a
// compromised server would make: every readme is charRefReadme, and the
// first tag of every tag list is named pasteJack.
func hostileAPI(t *testing.T, token string) string {
	t.Helper()
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: token, Hostile: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/readme") && r.Method == http.MethodGet:
			uid := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/registry/v2/repos/"), "/readme")
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]string{"uid": uid, "content": charRefReadme})
		case r.URL.Path == "/registry/v2/tags" && r.Method == http.MethodGet:
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, r)
			var page map[string]any
			if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &page) != nil {
				w.WriteHeader(rec.Code)
				w.Write(rec.Body.Bytes())
				return
			}
			if tags, _ := page["tags"].([]any); len(tags) > 0 {
				tags[0].(map[string]any)["name"] = pasteJack
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(page)
		default:
			srv.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestExploreHostileServer browses a compromised API: readmes whose
// character references decode to escape sequences, and a tag named to
// hijack a paste. The screen holds only markers, the window keeps its
// title, Y refuses to copy the tag's pull reference and says why, and the
// clipboard gets only what y copies from a clean resource.
func TestExploreHostileServer(t *testing.T) {
	t.Parallel()
	const token = "hostile-e2e-token"
	url := hostileAPI(t, token)
	tt := startCanopy(t, termOptions{width: 120, height: 50, args: []string{"--org", "acme.example"}, // tall enough for the readme under a repo's sections
		env: []string{"CANOPY_API_URL=" + url, "CANOPY_TOKEN=" + token}})
	tt.waitFor(func(s string) bool { return detailsTitle(s) == "acme.example" }, "the tree")
	titles := tt.paneFlags("pane_title", "window_name")
	intact := func(where string) {
		t.Helper()
		now := tt.paneFlags("pane_dead", "pane_title", "window_name")
		if now["pane_dead"] != "0" {
			t.Fatalf("%s: canopy died:\n%s", where, frame(tt.screen()))
		}
		if now["pane_title"] != titles["pane_title"] || now["window_name"] != titles["window_name"] {
			t.Errorf("%s: the titles changed from %v to %v", where, titles, now)
		}
		tt.assertInertScreen(where)
	}

	tt.selectInTree("j", "hostile", 20)
	tt.press(func(s string) bool { return treeHas(s, regexp.MustCompile(`^\s+v hostile$`)) }, "hostile expanded", "l")
	tt.selectInTree("j", "repos of hostile", 10)
	tt.press(func(s string) bool { return treeHas(s, regexp.MustCompile(`^\s+> escapes$`)) }, "the hostile repos", "l")
	tt.selectInTree("j", "escapes", 10)
	s := tt.waitFor(func(s string) bool { return strings.Contains(strings.Join(detailRows(s), "\n"), `adm\u034fin`) },
		"the readme with its character references shown as markers")
	for _, want := range []string{"␛]0;pwned␇", "␛[2J", `\u202etxt.exe`, `co\u200bde`, `adm\u034fin`} {
		if !strings.Contains(s, want) {
			t.Errorf("the readme does not show %q:\n%s", want, frame(s))
		}
	}
	intact("char-ref readme")
	if b := tt.buffers(); len(b) != 0 {
		t.Errorf("browsing put %q on the clipboard", b)
	}

	// The repo's first tag is named to hijack a paste: Y refuses it.
	tt.press(func(s string) bool { return treeHas(s, regexp.MustCompile(`^\s+v escapes`)) }, "escapes expanded", "l")
	tt.selectInTree("j", `x␛[201~␊;echo PWNED;␊`, 5)
	s = tt.press(func(s string) bool { return strings.Contains(s, "not copied") }, "the refusal", "Y")
	if !strings.Contains(s, "not copied: the tag name holds control characters") {
		t.Errorf("the refusal does not say why:\n%s", frame(s))
	}
	intact("Y on a hijacking tag")
	if b := tt.buffers(); len(b) != 0 {
		t.Errorf("Y put %q on the clipboard", b)
	}

	// y on the tag copies its digest, which the server cannot bend.
	tt.press(func(s string) bool { return strings.Contains(s, "copied digest") }, "the digest copied", "y")
	b := tt.buffers()
	if len(b) != 1 || !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(b[0]) {
		t.Errorf("y copied %q, want the digest", b)
	}
	intact("y on the tag")

	tt.send("q")
	if code := tt.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
	tt.assertRestored()
}
