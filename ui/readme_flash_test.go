package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"canopy/plugin/plugintest"
)

// TestReadmeReadingSaidTillTheEditorReturns: "reading the readme of … for
// <editor>…" is on the status line while the readme is read and the
// terminal lent; once the editor returns it is gone, under the dialog that
// shows the change and after esc declines it (the flash's own clock, in
// these tests, would keep it for the whole test).
func TestReadmeReadingSaidTillTheEditorReturns(t *testing.T) {
	t.Parallel()
	bin, rec := plugintest.Editor(t), filepath.Join(t.TempDir(), "edited")
	h, _, d := readmeShell(t, pinning(bin, rec))
	alertmanagerPage(h)
	h.keys("E")
	s := h.waitText("Change the readme of alertmanager?")
	if strings.Contains(s, "reading the readme of alertmanager") {
		t.Errorf("the editor returned and the status line still says the readme is read:\n%s", s)
	}
	h.keys("esc")
	s = h.waitFor("the dialog gone", func(s string) bool { return !strings.Contains(s, "Change the readme of alertmanager?") })
	if strings.Contains(s, "reading the readme of alertmanager") {
		t.Errorf("after esc the status line still says the readme is read:\n%s", s)
	}
	if n := patches(d); n != 0 {
		t.Errorf("sent after esc: %v", d.received())
	}
}
