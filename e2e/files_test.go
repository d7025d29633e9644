//go:build linux

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSessionFileThatIsAFIFO: a FIFO where canopy keeps its sessions
// neither holds canopy before its first frame nor is read or replaced:
// canopy starts, and on quitting says it did not keep the session.
func TestSessionFileThatIsAFIFO(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	fifo := filepath.Join(state, "canopy", "sessions.json")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tt := startCanopy(t, termOptions{width: 200, height: 30, env: []string{"XDG_STATE_HOME=" + state}})
	tt.waitTree()
	tt.send("q")
	if code := tt.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
	s := strings.ReplaceAll(tt.screen(), "\n", "")
	if !strings.Contains(s, "canopy: the session was not kept: "+fifo+" is a named pipe (FIFO), not a regular file") {
		t.Errorf("the FIFO is not named:\n%s", tt.screen())
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
}

// typeSave starts the demo with the config file under cfg
// (XDG_CONFIG_HOME), opens the repos table and types :save <name>, not
// yet entered.
func typeSave(t *testing.T, cfg, name string) *tmuxTerm {
	t.Helper()
	tt := startCanopy(t, termOptions{width: 250, height: 30, env: []string{"XDG_CONFIG_HOME=" + cfg}})
	tt.waitTree()
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.press(cmdlineRE.MatchString, "the command line", ":")
	tt.typeText("save " + name)
	tt.waitText(":save " + name)
	return tt
}

// saveIn is typeSave, entered.
func saveIn(t *testing.T, cfg, name string) *tmuxTerm {
	t.Helper()
	tt := typeSave(t, cfg, name)
	tt.send("Enter")
	return tt
}

// TestSaveNeverWritesWhatCanopyRefuses: :save on a config that the view
// would make larger than canopy reads says so, and leaves it as it was.
func TestSaveNeverWritesWhatCanopyRefuses(t *testing.T) {
	t.Parallel()
	const limit = 1 << 20
	line := "# " + strings.Repeat("x", 61) + "\n" // 64 bytes
	conf := strings.Repeat(line, limit/len(line)-1) + strings.Repeat("#", 63) + "\n"
	conf = conf[:limit-1-len("theme: dark\n")] + "\ntheme: dark\n" // 1,048,575 bytes
	cfg := configHome(t, conf)
	path := filepath.Join(cfg, "canopy", "config.yaml")
	tt := saveIn(t, cfg, "mine")
	tt.waitText("would be larger than 1024 KiB, which canopy would refuse to read")
	if b, _ := os.ReadFile(path); string(b) != conf {
		t.Errorf("the config changed: %d bytes, was %d", len(b), len(conf))
	}
}

// TestSaveLeavesAReadOnlyConfig: :save does not replace a config its owner
// made read-only.
func TestSaveLeavesAReadOnlyConfig(t *testing.T) {
	t.Parallel()
	cfg := configHome(t, "theme: dark\n")
	path := filepath.Join(cfg, "canopy", "config.yaml")
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	tt := saveIn(t, cfg, "mine")
	tt.waitText(path + " is read-only: canopy does not replace a file it may not write")
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) || after.Mode().Perm() != 0o444 {
		t.Errorf("the read-only config was replaced (%v)", after.Mode())
	}
	if b, _ := os.ReadFile(path); string(b) != "theme: dark\n" {
		t.Errorf("the config changed: %q", b)
	}
}

// TestSaveKeepsWhatAnotherProgramAppends: lines appended to the config by
// another program (opening it for each line, as `echo … >> file` does)
// while :save writes it are all kept, and so is the view.
func TestSaveKeepsWhatAnotherProgramAppends(t *testing.T) {
	t.Parallel()
	cfg := configHome(t, "theme: dark\n")
	path := filepath.Join(cfg, "canopy", "config.yaml")
	tt := typeSave(t, cfg, "mine")
	// At most 30,000 lines (330 KB): the config stays within what canopy
	// reads however long the save takes to come.
	const most = 30000
	stop, started, appended := make(chan struct{}), make(chan struct{}), make(chan int)
	go func() {
		n := 0
		defer func() { appended <- n }()
		for ; n < most; n++ {
			select {
			case <-stop:
				return
			default:
			}
			if n == 100 {
				close(started)
			}
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Error(err)
				return
			}
			fmt.Fprintf(f, "# l%d\n", n)
			f.Close()
		}
	}()
	<-started
	tt.send("Enter")
	tt.waitText("saved :mine")
	close(stop)
	n := <-appended
	b, _ := os.ReadFile(path)
	if !bytes.Contains(b, []byte("- name: mine\n")) {
		t.Errorf("the view is not in the config")
	}
	lost := 0
	for i := range n {
		if !bytes.Contains(b, fmt.Appendf(nil, "# l%d\n", i)) {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d appended lines lost", lost, n)
	}
	t.Logf("%d lines appended as the view was saved", n)
}
