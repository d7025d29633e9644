package e2e

import (
	"strings"
	"testing"

	"canopy/plugin/plugintest"
)

// TestDemoReadmeInTheEditor: E on a repo's page runs $EDITOR (a fake one
// that edits the file) on the terminal lent, and canopy comes back as
// soon as it ends, without asking for enter, with the change shown; y
// sends it, u puts the old readme back.
func TestDemoReadmeInTheEditor(t *testing.T) {
	t.Parallel()
	editor := plugintest.Editor(t)
	tt := startCanopy(t, termOptions{width: 140, height: 40,
		env: []string{"EDITOR=" + editor + " -replace 'Minimal and hardened' -with 'Pinned. Minimal and hardened'"}})
	tt.waitTree()
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.send("p")
	tt.waitText("README", "Minimal and hardened")
	tt.send("E")
	s := tt.waitText("Change the readme of alertmanager?", "−1 +1 lines", "+ Prometheus Alertmanager. Pinned. Minimal and hardened")
	if strings.Contains(s, "press enter to go back to canopy") {
		t.Errorf("the editor's end asked for enter:\n%s", frame(s))
	}
	tt.send("y")
	tt.waitText("readme of alertmanager changed: −1 +1 lines (u undoes)")
	tt.waitText("Pinned. Minimal and hardened")
	tt.send("u")
	tt.waitText("undid readme of alertmanager")
	tt.send("C-c")
	if code := tt.waitExit(); code != exitOK {
		t.Errorf("exit %d after ctrl+c, want %d", code, exitOK)
	}
	tt.assertRestored()
}

// TestDemoAsAPersonOfNoOrganization: `canopy demo --as erin` acts as a
// person of no organization: canopy says so, finds the organization of
// her email's domain, and A asks its owners, once.
func TestDemoAsAPersonOfNoOrganization(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 140, height: 30, args: []string{"demo", "--as", "erin"}})
	tt.waitText("this token sees no organization and no folder", "globex.example (verified", "not sent: A asks")
	tt.send("A")
	tt.waitText("pending. The service tells the owners of globex.example")
	tt.send("q")
	if code := tt.waitExit(); code == exitOK {
		t.Errorf("exit %d without an organization, want a failure", code)
	}
}
