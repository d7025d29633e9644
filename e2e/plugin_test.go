package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/plugin/plugintest"
)

// TestDemoPluginInTheForeground: a foreground plugin gets the terminal (it
// reads what is typed), ctrl+c ends the plugin and not canopy, enter comes
// back to canopy where the keys work as before; a background plugin's
// run log shows each run's output and status.
func TestDemoPluginInTheForeground(t *testing.T) {
	t.Parallel()
	bin, record := plugintest.Build(t)
	cfg := configHome(t, `plugins:
  - name: ask
    key: ctrl+g
    kinds: [repo, tag]
    command: sh
    args: ["-c", "printf 'type: '; read x; echo \"got [$x]\"; [ \"$x\" != wait ] || sleep 60"]
  - name: dump
    key: ctrl+v
    kinds: [tag]
    command: `+bin+`
    args: ["{{.Ref}}"]
    mode: background
`)
	tt := startCanopy(t, termOptions{width: 120, height: 36, env: []string{"XDG_CONFIG_HOME=" + cfg, "ARGDUMP=" + record}})
	tt.waitTree()
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.send("C-g")
	tt.waitText("── canopy: ask on ", "type:") // the terminal is the plugin's
	tt.typeText("hello")
	tt.send("Enter")
	tt.waitText("got [hello]", "press enter to go back to canopy")
	tt.send("Enter")
	tt.waitText("repos of acme.example", "ask: exit 0")

	// ctrl+c is the plugin's while it runs: it ends, canopy does not.
	tt.send("C-g")
	tt.waitText("type:")
	tt.typeText("wait")
	tt.send("Enter")
	tt.waitText("got [wait]")
	tt.send("C-c")
	tt.waitText("ask: ended by signal: interrupt", "press enter to go back to canopy")
	tt.send("Enter")
	tt.waitText("repos of acme.example", "ask: ended by signal: interrupt")
	tt.typeText("j")
	tt.waitText("2 of ")

	tt.command("tags")
	tt.waitText("tags of acme.example", "ollama", "sha256:")
	tt.send("C-v")
	s := tt.waitText("dump on ", "· exit 0", "argdump: 1 args")
	calls := plugintest.Calls(t, record)
	if len(calls) != 1 || !strings.HasPrefix(calls[0][0], "cgr.dev/acme.example/") || !strings.Contains(calls[0][0], "@sha256:") {
		t.Fatalf("dump got %q; screen:\n%s", calls, frame(s))
	}
	tt.send("Escape")
	tt.waitText("tags of acme.example")
	tt.send("C-c")
	if code := tt.waitExit(); code != exitOK {
		t.Errorf("exit %d after ctrl+c, want %d", code, exitOK)
	}
	tt.assertRestored()
}

// TestDemoResumesTheSession: quit, start again: the tree is where it was
// left, and the last command is offered on the command line.
func TestDemoResumesTheSession(t *testing.T) {
	t.Parallel()
	st := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + st}
	tt := startCanopy(t, termOptions{width: 120, height: 36, env: env})
	tt.waitTree()
	tt.selectInTree("j", "platform", 20)
	tt.send("l")
	tt.selectInTree("j", "repos of platform", 10)
	tt.send("l")
	s := tt.press(func(s string) bool { return detailsTitle(s) != "repos of platform" }, "a repo", "j")
	repo := detailsTitle(s)
	tt.command("tags python")
	tt.waitText("tags of python")
	tt.send("Escape")
	tt.waitText("details: " + repo)
	tt.typeText("q")
	if code := tt.waitExit(); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(st, "canopy", "sessions.json")); err != nil {
		t.Fatalf("no session kept: %v", err)
	}

	tt = startCanopy(t, termOptions{width: 120, height: 36, env: env})
	tt.waitText("details: "+repo, "back where you left off")
	tt.typeText(":")
	tt.waitText("brings back :tags python")
	tt.send("Tab")
	tt.send("Enter")
	tt.waitText("tags of python")

	tt = startCanopy(t, termOptions{width: 120, height: 36, env: env, args: []string{"demo", "--resume=false"}})
	tt.waitTree()
	if s := tt.screen(); strings.Contains(s, "back where you left off") || strings.Contains(s, "details: "+repo) {
		t.Errorf("--resume=false resumed:\n%s", frame(s))
	}
}

// TestDemoPluginsCannotTakeTheTerminal: a background plugin has no
// terminal to ask on (it fails, canopy's keys stay canopy's); ctrl+\ ends a
// foreground plugin, not canopy; ctrl+c on one of several marked runs
// stops the rest too.
func TestDemoPluginsCannotTakeTheTerminal(t *testing.T) {
	t.Parallel()
	cfg := configHome(t, `plugins:
  - name: tty
    key: ctrl+t
    kinds: [repo]
    command: sh
    args: ["-c", "set -e; printf 'Password: ' >/dev/tty; read pw </dev/tty; echo got"]
    mode: background
  - name: hang
    key: ctrl+g
    kinds: [tag]
    command: sh
    args: ["-c", "trap '' INT; echo ready; sleep 30"]
  - name: each
    key: ctrl+e
    kinds: [tag]
    command: sh
    args: ["-c", "echo running; sleep 30"]
`)
	tt := startCanopy(t, termOptions{width: 120, height: 36, env: []string{"XDG_CONFIG_HOME=" + cfg}})
	tt.waitTree()
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.send("C-t")
	tt.waitText("tty on ", "tty: exit 2")
	tt.send("Escape")
	tt.waitTable("repos of acme.example", tableHeaderRE)

	tt.command("tags")
	tt.waitText("tags of acme.example", "ollama", "sha256:")
	tt.send("C-g")
	tt.waitText("ready")
	tt.send("C-c") // ignored by the plugin
	tt.send(`C-\`)
	tt.waitText("hang: ended by signal: quit", "press enter to go back to canopy")
	tt.send("Enter")
	tt.waitText("tags of acme.example", "hang: ended by signal: quit")

	tt.send("Space", "Space", "Space")
	tt.waitText("3 marked")
	tt.send("C-e")
	tt.waitText("each on ", "(1 of 3)", "running")
	tt.send("C-c")
	tt.waitText("the 2 runs left do not run", "press enter to go back to canopy")
	tt.send("Enter")
	tt.waitText("tags of acme.example", "each: ended by signal: interrupt")
}
