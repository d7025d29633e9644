package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoFollowsTheConfigFile: read-only mode and a key override from
// $XDG_CONFIG_HOME/canopy/config.yaml reach the UI, and help shows the
// effective key.
func TestDemoFollowsTheConfigFile(t *testing.T) {
	t.Parallel()
	cfg := configHome(t, "theme: high-contrast\nread-only: true\nkeys:\n  sort: [o]\n")
	tt := startCanopy(t, termOptions{width: 120, height: 44, env: []string{"XDG_CONFIG_HOME=" + cfg}})
	tt.waitTree()
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.typeText("e")
	tt.waitText("read-only mode")
	tt.typeText("?")
	s := tt.waitText("Keys in")
	// The help is longer than the terminal: page down until sort shows or
	// the last line does.
	sortLine := regexp.MustCompile(`\bo +[^\n]*sort`)
	for page := 0; page < 10 && !sortLine.MatchString(s) && !helpAtEnd(s); page++ {
		before := helpLines(s)
		s = tt.press(func(s string) bool { return helpLines(s) != before }, "the help's next page", "NPage")
	}
	if !sortLine.MatchString(s) {
		t.Errorf("help does not show o for sort:\n%s", frame(s))
	}
	tt.press(func(s string) bool { return !strings.Contains(s, "Keys in") }, "the help to close", "Escape")
	tt.typeText("o")
	tt.waitText("sort: name ↓")
}

// TestDemoBadConfigSaysWhereBeforeStarting: a mistake in the config file
// stops canopy with its line, before the screen changes.
func TestDemoBadConfigSaysWhereBeforeStarting(t *testing.T) {
	t.Parallel()
	cfg := t.TempDir()
	os.MkdirAll(filepath.Join(cfg, "canopy"), 0o700)
	os.WriteFile(filepath.Join(cfg, "canopy", "config.yaml"), []byte("theme: dark\nkeys:\n  delete: [x]\n  edit: [x]\n"), 0o600)
	// Wide enough for the message on one row: where it wraps, tmux drops
	// the space at the end of the row, and a temp dir a digit shorter once
	// put that space between "both" and "delete".
	tt := startCanopy(t, termOptions{width: 240, height: 20, env: []string{"XDG_CONFIG_HOME=" + cfg}})
	if code := tt.waitExit(); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	s := strings.ReplaceAll(tt.screen(), "\n", "") // a long TMPDIR may still wrap it
	if !strings.Contains(s, `config.yaml:4: keys: "x" is bound to both delete (line 3) and edit (line 4)`) {
		t.Errorf("the conflict is not explained:\n%s", s)
	}
}

// TestDemoOtherTerminals: the demo works at 80x24 under the TERM of a
// linux console and of screen, and quits cleanly.
func TestDemoOtherTerminals(t *testing.T) {
	t.Parallel()
	for _, term := range []string{"linux", "screen", "xterm-256color"} {
		t.Run(term, func(t *testing.T) {
			t.Parallel()
			tt := startCanopy(t, termOptions{width: 80, height: 24, env: []string{"TERM=" + term}})
			tt.waitTree()
			tt.selectInTree("j", "platform", 20)
			tt.command("repos")
			tt.waitTable("repos of acme.example", tableHeaderRE)
			tt.send("q")
			if code := tt.waitExit(); code != 0 {
				t.Errorf("exit %d", code)
			}
			tt.assertRestored()
		})
	}
}

// configHome is an XDG_CONFIG_HOME whose canopy/config.yaml says conf.
func configHome(t *testing.T, conf string) string {
	t.Helper()
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "canopy"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "canopy", "config.yaml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}

var helpLinesRE = regexp.MustCompile(`lines (\d+)-(\d+) of (\d+)`)

// helpLines is the help's "lines a-b of n" (empty when all of it shows).
func helpLines(s string) string { return helpLinesRE.FindString(s) }

// helpAtEnd: the help shows its last line.
func helpAtEnd(s string) bool {
	m := helpLinesRE.FindStringSubmatch(s)
	return m == nil || m[2] == m[3]
}
