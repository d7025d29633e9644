package ui

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Keys that arrive with the key opening a screen, before the screen is
// there (one read of the terminal: typed fast or sent by a script), go to
// that screen.
func TestKeysTypedWithAnOpeningKeyGoToTheNewScreen(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.waitText("carol")
	h.moveTo("carol")
	h.keys("b", "1") // the picker is not open when 1 arrives
	h.waitText("Bind viewer to carol on which folder?")

	// And the command line: `:repos⏎` then a filter typed at once.
	h.keys("esc")
	h.waitFor("the tree again", func(s string) bool { return len(h.m.stack) == 1 })
	h.keys(":", "r", "e", "p", "o", "s", "enter", "/", "n", "g", "x")
	h.waitText("/ngx", "nginx")
}

// A screen is on the stack once the key that opens it is handled, with no
// message in between.
func TestOpeningPushesTheScreenInTheSameUpdate(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 36, true)
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("enter")
	if n := len(h.m.stack); n != 2 {
		t.Fatalf("after enter, %d screens, want the tree and the table", n)
	}
	if s := h.screen(); !strings.Contains(s, "canopy  acme.example › identities of acme.example") {
		t.Errorf("the table is not on top:\n%s", s)
	}
}

// `:group base` opens the folder picker narrowed to base; enter goes there.
func TestGroupCommandTakesAFilter(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 36, true)
	h.waitText("platform")
	h.typeText(":group base")
	h.keys("enter")
	h.waitText("Jump to which folder?", "filter: base", "platform/base-images")
	h.keys("enter")
	h.waitText("details: base-images")
}

// :deprecated covers the folder of what the top screen is on: from the
// repos table, the folder of the repo under the cursor, wherever the tree's
// cursor is.
func TestDeprecatedCoversTheFolderOfTheScreenOnTop(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("security")
	h.moveTo("security") // the tree's cursor stays here
	h.typeText(":repos")
	h.keys("enter")
	s := h.waitFor("the first repo and its folder", func(s string) bool {
		return regexp.MustCompile(`(?m)^ alertmanager +[a-z]`).MatchString(s)
	})
	folder := regexp.MustCompile(`(?m)^ alertmanager +(\S+)`).FindStringSubmatch(s)[1]
	if folder == "security" {
		t.Fatal("the test needs a repo outside security")
	}
	h.typeText(":deprecated")
	h.keys("enter")
	h.waitText("deprecated tags under " + folder)
}

// A folder no screen has named yet is asked for, so that :deprecated's
// title names its path, not a piece of its uid.
func TestDeprecatedNamesAFolderNotLoaded(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("platform")
	h.typeText(":tags go")
	h.keys("enter")
	h.waitText("tags of go", "loaded")
	h.keys("enter")
	h.waitText("IMAGE")
	h.typeText(":deprecated")
	h.keys("enter")
	h.waitText("deprecated tags under platform/base-images")
}

// Creating a repo from :repos reloads the organization's lists; back in the
// tree, what was open stays open and the cursor stays on its node.
func TestCreatingARepoKeepsTheTreeAsItWas(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 40, true)
	h.waitText("apps")
	h.moveTo("apps")
	h.keys("l")
	h.moveTo("web")
	h.keys("l")
	h.moveTo("repos of web")
	h.keys("l")
	h.moveTo("caddy")
	h.typeText(":repos")
	h.keys("enter")
	h.waitText("repos of acme.example", "NAME")
	h.keys("n")
	h.waitText("New repo in acme.example")
	h.typeText("zz-acc")
	h.keys("enter")
	h.waitText(`created repo "zz-acc"`)
	// The table reloaded with its cursor on the new repo, last by name.
	h.waitText("64 of 64")
	h.keys("esc")
	h.waitFor("the tree with caddy selected", func(s string) bool {
		return strings.Contains(s, "details: caddy") && strings.Contains(s, "v web")
	})
}

// Keys typed right after the key that closes the help are for the screen
// under it, as commands, not lost in the help (nor, a letter at a time,
// taken as a table's keys: the d of :identities deleted a repo).
func TestKeysAfterClosingHelpGoToTheScreen(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 36, true)
	h.waitText("platform")
	h.typeText(":repos")
	h.keys("enter")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.keys("?")
	h.waitText("Keys in")
	h.keys("?", ":", "i", "d", "e", "n", "t", "i", "t", "i", "e", "s", "enter")
	s := h.waitText("identities of acme.example")
	if strings.Contains(s, "Delete") {
		t.Errorf("a key meant for the command line acted on the table:\n%s", s)
	}
}

// `:` over the help opens the command line in its place, and the keys typed
// with it reach the command line: `?` then `:tags⏎` opens the tags.
func TestColonOverTheHelpOpensTheCommandLine(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 36, true)
	h.waitText("platform")
	h.keys("?")
	h.waitText("Keys in")
	h.keys(":", "t", "a", "g", "s", "enter")
	s := h.waitText("tags of acme.example")
	if strings.Contains(s, "Keys in") {
		t.Errorf("the help is still open:\n%s", s)
	}
}

// `:group plat⏎⏎` in one burst: the second enter is for the picker.
func TestGroupPickerTakesKeysTypedAhead(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 36, true)
	h.waitText("platform")
	h.typeText(":group plat")
	h.keys("enter", "enter")
	h.waitText("details: platform")
}

// Keys typed with `:repos⏎`, before its first page came, move over the
// repos once they are there: `:repos⏎jjj⏎` opens the fourth repo.
func TestKeysTypedAheadOfAFirstPageWaitForIt(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 36, true)
	h.openBashInOneBurst()

	h.keys("esc")
	h.waitFor("the repos table again", func(s string) bool {
		return strings.Contains(s, "repos of acme.example") && !strings.Contains(s, "tags of bash")
	})
	h.keys("esc")
	h.waitFor("the tree", func(s string) bool { return !strings.Contains(s, "repos of acme.example") })
	h.typeText(":repos")
	h.keys("enter", "/", "n", "g", "x", "enter", "enter")
	h.waitText("tags of nginx")
}

// Two escapes in one read (alt+esc to the terminal parser) close two
// screens, as two escapes apart do.
func TestTwoEscapesAtOnceCloseTwoScreens(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 36, true)
	h.openBashInOneBurst()
	h.send(tea.KeyPressMsg{Code: tea.KeyEscape, Mod: tea.ModAlt})
	h.waitFor("the tree", func(s string) bool {
		return !strings.Contains(s, "tags of bash") && !strings.Contains(s, "repos of acme.example")
	})
}

// openBashInOneBurst types `:repos⏎jjj⏎` without waiting (before the
// table's first page), which opens the fourth repo's tags.
func (h *harness) openBashInOneBurst() {
	h.t.Helper()
	h.waitText("platform")
	h.typeText(":repos")
	h.keys("enter", "j", "j", "j", "enter")
	h.waitText("tags of bash")
}

// Keys typed once a table is on the screen but before its first page
// came (the terminal delivered `:identities⏎` and `jjj` in two reads)
// move over the rows once they are there, not over an empty table.
func TestKeysTypedBeforeATablesFirstPageWaitForIt(t *testing.T) {
	t.Parallel()
	hk, open := stalledIdentities(t)
	hk.keys("j", "j", "j")
	open()
	hk.waitText("4 of 20")
}

// While a table waits for its first page, keys that leave (esc, ?) act at
// once, even behind keys held for the rows: a stalled server must not
// keep the user on a screen.
func TestLeavingKeysDoNotWaitForAStalledTable(t *testing.T) {
	t.Parallel()
	hk, _ := stalledIdentities(t)
	hk.keys("j", "?")
	hk.waitText("Keys in")
	hk.keys("esc")
	hk.waitFor("the help closed", func(s string) bool { return !strings.Contains(s, "Keys in") })
	hk.keys("j", "esc")
	hk.waitFor("the tree", func(s string) bool { return !strings.Contains(s, "identities of acme.example") })
}

// stalledIdentities opens :identities on a server that holds its answer
// until the returned func is called (or the test ends), and returns once
// the table is on the screen, waiting for its first page.
func stalledIdentities(t *testing.T) (*hooked, func()) {
	t.Helper()
	gate := make(chan struct{})
	var opened sync.Once
	open := func() { opened.Do(func() { close(gate) }) }
	hk := hookedShell(t, 120, 36, Options{})
	t.Cleanup(open) // a failing test must not leave the server waiting
	hk.refuse.Store(func(r *http.Request) bool {
		if strings.HasPrefix(r.URL.Path, "/iam/v2/identities") {
			<-gate
		}
		return false
	})
	hk.waitText("platform")
	hk.typeText(":identities")
	hk.keys("enter")
	hk.waitText("identities of acme.example")
	return hk, open
}

// An escape and the key right after it in one read arrive as alt+key:
// the escape closes the table, then the key acts on the screen below
// (`esc :repos⏎` opens the repos, `esc j` moves in the tree).
func TestEscapeAndAKeyAtOnceAreTheEscapeThenTheKey(t *testing.T) {
	t.Parallel()
	h := start(t, 120, 36, true)
	h.openBashInOneBurst()
	h.send(tea.KeyPressMsg{Code: ':', Mod: tea.ModAlt})
	h.typeText("groups")
	h.keys("enter")
	h.waitText("folders of acme.example")
	if strings.Contains(h.screen(), "tags of bash") {
		t.Fatalf("the escape was lost:\n%s", h.screen())
	}
	h.send(tea.KeyPressMsg{Code: 'j', Mod: tea.ModAlt})
	h.waitFor("the tree, cursor moved", func(s string) bool {
		return !strings.Contains(s, "folders of acme.example") && strings.Contains(s, "details: apps")
	})
}
