package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
