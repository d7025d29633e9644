package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestEmulatorCommand builds the real binary, starts `canopy emulator`,
// pages through a list over HTTP and stops it, once with SIGINT and once
// with SIGTERM: both shut it down cleanly (exit status 0).
func TestEmulatorCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := canopyBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) { runEmulatorBinary(t, bin, sig) })
	}
}

// runEmulatorBinary starts the emulator, pages through the repos with plain
// HTTP, sends sig and waits for a clean exit.
func runEmulatorBinary(t *testing.T, bin string, sig syscall.Signal) {
	cmd := exec.Command(bin, "emulator", "--addr", "127.0.0.1:0", "--token", "T")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := false
	t.Cleanup(func() {
		if !exited {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(waitTimeout):
		t.Fatalf("no listening line within %v", waitTimeout)
	}
	var base, org string
	if _, err := fmt.Sscanf(line, "listening on %s org=%s", &base, &org); err != nil || len(org) != 40 {
		t.Fatalf("listening line %q: %v", line, err)
	}
	q := url.Values{"uidp.descendants_of": {org}, "page_size": {"7"}}
	seen, total := 0, -1
	for range 100 {
		req, _ := http.NewRequest("GET", base+"/registry/v2/repos?"+q.Encode(), nil)
		req.Header.Set("Authorization", "Bearer T")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var page struct {
			Repos         []json.RawMessage `json:"repos"`
			NextPageToken string            `json:"nextPageToken"`
			TotalCount    string            `json:"totalCount"`
		}
		err = json.NewDecoder(res.Body).Decode(&page)
		res.Body.Close()
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("list: %d %v", res.StatusCode, err)
		}
		if total < 0 {
			total, _ = strconv.Atoi(page.TotalCount)
		}
		seen += len(page.Repos)
		if page.NextPageToken == "" {
			break
		}
		q.Set("page_token", page.NextPageToken)
	}
	if seen != total || total == 0 {
		t.Fatalf("paged %d repos, totalCount %d", seen, total)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		exited = true
		var exit *exec.ExitError
		if errors.As(err, &exit) || err != nil {
			t.Fatalf("exit after %v: %v", sig, err)
		}
	case <-time.After(waitTimeout):
		t.Fatalf("no exit within %v of %v", waitTimeout, sig)
	}
	// It is gone: the port no longer answers.
	if res, err := http.Get(base + "/ping/v2/ping"); err == nil {
		res.Body.Close()
		t.Errorf("still answering after %v", sig)
	}
}
