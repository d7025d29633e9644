package e2e

import (
	"strings"
	"testing"
)

// TestExitRestoresTitleAndHidesURLPassword explores an API whose URL holds
// a user and password: the status bar names the host alone, and on exit
// the pane's title is the one it had before canopy named it (it was left
// empty), the window's name unchanged.
func TestExitRestoresTitleAndHidesURLPassword(t *testing.T) {
	t.Parallel()
	const token = "title-e2e-token"
	srv, hs := serveEmulator(t, token)
	tt := startCanopy(t, termOptions{width: 120, height: 36, args: []string{"--org", srv.OrgUID()},
		env: []string{"CANOPY_API_URL=" + withPassword(hs.URL), "CANOPY_TOKEN=" + token}})
	// A pane nobody named has the host's name for a title (tmux's
	// default): the title before canopy.
	before := tt.paneFlags("host", "window_name")
	s := tt.waitTree()
	if title := tt.paneFlags("pane_title")["pane_title"]; title != "canopy" {
		t.Errorf("while canopy runs the pane title is %q, want canopy", title)
	}
	rows := lines(s)
	if host := strings.TrimPrefix(hs.URL, "http://"); !strings.Contains(rows[len(rows)-1], " · "+host+" · ") {
		t.Errorf("the status bar does not name the host %s:\n%s", host, frame(s))
	}
	noPassword(t, "the screen", s)
	tt.send("q")
	if code := tt.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
	tt.assertRestored()
	after := tt.paneFlags("pane_title", "window_name")
	if after["pane_title"] != before["host"] || after["window_name"] != before["window_name"] {
		t.Errorf("after exit the pane title is %q and the window name %q, want %q and %q as before",
			after["pane_title"], after["window_name"], before["host"], before["window_name"])
	}
	noPassword(t, "the screen after exit", tt.screen())
}

// secretPW is the password of every URL in these tests: it must never be
// shown.
const secretPW = "s3cret-pw-9f2"

func withPassword(url string) string { return strings.Replace(url, "://", "://alice:"+secretPW+"@", 1) }

func noPassword(t *testing.T, where, text string) {
	t.Helper()
	if strings.Contains(text, secretPW) || strings.Contains(text, "alice") {
		t.Errorf("%s shows the URL's user or password:\n%s", where, text)
	}
}
