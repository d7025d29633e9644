package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDebugLogHasRequestsNeverTheToken runs canopy --debug in tmux against
// an emulator with a known token, browses, quits, and reads the log: every
// request is there (method, path, status, duration), the token and the
// Authorization header are not, and only the user can read it.
func TestDebugLogHasRequestsNeverTheToken(t *testing.T) {
	t.Parallel()
	const token = "canopy-debug-test-secret-7c41e9"
	srv, hs := serveEmulator(t, token)
	state := t.TempDir()
	tt := startCanopy(t, termOptions{width: 120, height: 36,
		args: []string{"--api-url", hs.URL, "--org", srv.OrgUID(), "--debug"},
		env:  []string{"CANOPY_TOKEN=" + token, "XDG_STATE_HOME=" + state}})
	tt.waitTree()
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.send("q")
	if code := tt.waitExit(); code != 0 {
		t.Errorf("canopy exited with status %d, want 0", code)
	}
	dir := filepath.Join(state, "canopy")
	b, err := os.ReadFile(filepath.Join(dir, "canopy.log"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, want := range []string{"canopy started", "method=GET", "path=/iam/v2/groups/" + srv.OrgUID(), "path=/registry/v2/repos", "status=200", "took="} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	for _, secret := range []string{token, "Bearer", "Authorization"} {
		if strings.Contains(log, secret) {
			t.Errorf("the log contains %q:\n%s", secret, log)
		}
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "canopy.log"): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}

// A token the server refuses: the screen says so, and quitting from there
// exits 1, as the README says, with the reason on stderr.
func TestRefusedTokenExitsOne(t *testing.T) {
	t.Parallel()
	_, hs := serveEmulator(t, "the-right-token-4b2e91")
	tt := startCanopy(t, termOptions{width: 120, height: 36,
		args: []string{"--api-url", hs.URL},
		env:  []string{"CANOPY_TOKEN=a-wrong-token-7f0c33"}})
	tt.waitText("could not open the organization", "Unauthenticated")
	tt.send("q")
	if code := tt.waitExit(); code != 1 {
		t.Errorf("canopy exited with status %d, want 1", code)
	}
}
