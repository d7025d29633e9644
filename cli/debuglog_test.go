package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/cli/config"
	"canopy/cli/exit"
)

// TestUnreachableAPIExitsThree: a refused connection at start is said in one
// line on stderr, with exit code 3, before the screen switches; --debug logs
// the failed request.
func TestUnreachableAPIExitsThree(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	url := refusedURL(t)
	var stdout, stderr bytes.Buffer
	code := Run(quick(t.Context()), []string{"--api-url", url, "--debug"}, &stdout, &stderr)
	if code != exit.NoServer {
		t.Errorf("exit code %d, want %d", code, exit.NoServer)
	}
	if msg := stderr.String(); !strings.HasPrefix(msg, "canopy: cannot reach "+url+": ") || !strings.Contains(msg, "connection refused") ||
		strings.Count(msg, "\n") != 1 {
		t.Errorf("stderr %q: want one line saying the API cannot be reached and why", msg)
	}
	log, err := os.ReadFile(filepath.Join(state, "canopy", "canopy.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "request failed") || !strings.Contains(string(log), "path=/ping/v2/ping") {
		t.Errorf("the debug log lacks the failed ping:\n%s", log)
	}
}

// A token file others can read is refused before anything else, even when
// the API cannot be reached: the file is the user's to fix either way.
func TestLooseTokenFileIsRefusedFirst(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	loose := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(loose, []byte("secret-token"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := Run(quick(t.Context()), []string{"--api-url", refusedURL(t), "--token-file", loose}, &stdout, &stderr)
	if code != exit.Failure || !strings.Contains(stderr.String(), "is accessible by others (mode 0644); run: chmod 600") ||
		strings.Contains(stderr.String(), "secret-token") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestDebugLogNeverFollowsALink: a symbolic link where the --debug log goes
// is refused, its target neither written nor made private; a log from
// before keeps the mode its owner gave it; a new one is 0600.
func TestDebugLogNeverFollowsALink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "someone-elses")
	if err := os.WriteFile(target, []byte("theirs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, to := range []string{target, filepath.Join(dir, "nothing-yet")} {
		link := filepath.Join(t.TempDir(), "canopy.log")
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		if _, c, err := openDebugLog(config.Paths{Log: link}); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
			if c != nil {
				c.Close()
			}
			t.Errorf("a link to %s: %v", to, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "theirs\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	if info, _ := os.Stat(target); info.Mode().Perm() != 0o644 {
		t.Errorf("the link's target is now %v", info.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(dir, "nothing-yet")); err == nil {
		t.Error("a dangling link's target was created")
	}
	// A hard link is another name of someone else's file.
	hard := filepath.Join(t.TempDir(), "canopy.log")
	if err := os.Link(target, hard); err == nil {
		if _, c, err := openDebugLog(config.Paths{Log: hard}); err == nil || !strings.Contains(err.Error(), "has other names (hard links)") {
			if c != nil {
				c.Close()
			}
			t.Errorf("a hard link: %v", err)
		}
		if b, _ := os.ReadFile(target); string(b) != "theirs\n" {
			t.Errorf("written through a hard link: %q", b)
		}
	}

	old := filepath.Join(t.TempDir(), "canopy.log")
	if err := os.WriteFile(old, []byte("before\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	_, c, err := openDebugLog(config.Paths{Log: old})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if b, _ := os.ReadFile(old); !strings.HasPrefix(string(b), "before\n") || !strings.Contains(string(b), "canopy started") {
		t.Errorf("the old log: %q", b)
	}
	if info, _ := os.Stat(old); info.Mode().Perm() != 0o640 {
		t.Errorf("the old log's mode was changed to %v", info.Mode().Perm())
	}

	fresh := filepath.Join(t.TempDir(), "state", "canopy.log")
	_, c, err = openDebugLog(config.Paths{Log: fresh})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if info, _ := os.Stat(fresh); info.Mode().Perm() != 0o600 {
		t.Errorf("a new log is %v, want 0600", info.Mode().Perm())
	}
}
