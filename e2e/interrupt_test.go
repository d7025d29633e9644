//go:build linux

package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// blocked is the real binary started with something that keeps it from
// its first frame.
type blocked struct {
	t      *testing.T
	cmd    *exec.Cmd
	stderr lockedBuffer
	exited chan struct{}
	group  bool // interrupt signals canopy's whole process group
}

// startBlocked runs the real canopy with env (and nothing of the test's
// own environment) and args.
func startBlocked(t *testing.T, env []string, args ...string) *blocked {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: builds the binary and signals it; skipped with -short")
	}
	b := &blocked{t: t, cmd: exec.Command(canopyBinary(t), args...), exited: make(chan struct{})}
	b.cmd.Env = env
	b.cmd.Stderr = &b.stderr
	b.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a group of its own, as a shell's job

	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = b.cmd.Wait()
		close(b.exited)
	}()
	t.Cleanup(func() {
		_ = b.cmd.Process.Kill()
		<-b.exited
	})
	return b
}

// waitUntil polls cond until it holds; it fails the test after
// waitTimeout or if canopy exited first.
func (b *blocked) waitUntil(cond func() bool, what string) {
	b.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		select {
		case <-b.exited:
			b.t.Fatalf("canopy exited (%v) before %s; stderr %q", b.cmd.ProcessState, what, b.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("timed out waiting for %s; stderr %q", what, b.stderr.String())
		}
	}
}

// interrupt sends sig and checks that canopy ends, with the signal's exit
// status and a line naming the signal and the step. What it was blocked on
// would never end by itself, so ending at all is the signal's doing; how
// soon (within a second, by the program's own bounds: cli/program) is
// logged, not asserted, since a busy machine is slower.
func (b *blocked) interrupt(sig syscall.Signal, want string) {
	b.t.Helper()
	sent := time.Now()
	target := b.cmd.Process.Pid
	if b.group {
		target = -target
	}
	if err := syscall.Kill(target, sig); err != nil {
		b.t.Fatal(err)
	}
	select {
	case <-b.exited:
	case <-time.After(waitTimeout):
		b.t.Fatalf("canopy still running %v after %v; stderr %q", waitTimeout, sig, b.stderr.String())
	}
	b.t.Logf("%v: exited in %v with status %d", sig, time.Since(sent).Round(time.Millisecond), b.cmd.ProcessState.ExitCode())
	if code := b.cmd.ProcessState.ExitCode(); code != 128+int(sig) {
		b.t.Errorf("exit status %d (%v), want %d", code, b.cmd.ProcessState, 128+int(sig))
	}
	if !strings.Contains(b.stderr.String(), want) {
		b.t.Errorf("stderr %q, want %q in it", b.stderr.String(), want)
	}
}

// lockedBuffer is an output that another goroutine may read while
// canopy writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// hangingChainctl puts on PATH a chainctl that never answers, as one
// waiting on a network that does not answer; it writes its pid to the
// returned file and is killed when the test ends.
func hangingChainctl(t *testing.T) (path, pidFile string) {
	t.Helper()
	dir := t.TempDir()
	pidFile = filepath.Join(dir, "chainctl.pid")
	script := "#!/bin/sh\necho $$ > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile + "\nexec sleep 3600\n"
	if err := os.WriteFile(filepath.Join(dir, "chainctl"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			// canopy stops the chainctl it started when it is
			// interrupted: none may outlive it (it used to, orphaned).
			if syscall.Kill(pid, 0) == nil {
				t.Errorf("chainctl (pid %d) outlived canopy", pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	return dir + ":/usr/bin:/bin", pidFile
}

func fileExists(path string) func() bool {
	return func() bool { _, err := os.Stat(path); return err == nil }
}

// pingServer answers ping, so that canopy goes on to ask for a token.
func pingServer(t *testing.T) string {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"response":"ok"}`))
	}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestSignalWhileChainctlHangs: canopy and canopy list waiting for a
// chainctl that never answers end within a second on SIGTERM, SIGINT or
// SIGHUP, with 128+signal and a line saying what was under way.
func TestSignalWhileChainctlHangs(t *testing.T) {
	t.Parallel()
	if !testing.Short() {
		canopyBinary(t) // built once for the subtests
	}
	for _, tc := range []struct {
		name  string
		args  []string
		sig   syscall.Signal
		want  string
		group bool // to canopy's whole process group, as a terminal's ctrl+c goes
	}{
		{"list, SIGTERM", []string{"list", "repos"}, syscall.SIGTERM, "canopy list: interrupted by SIGTERM while getting a token; stopped", false},
		{"explore, SIGINT", nil, syscall.SIGINT, "canopy: interrupted by SIGINT while getting a token; stopped", false},
		{"explore, SIGHUP", nil, syscall.SIGHUP, "canopy: interrupted by SIGHUP while getting a token; stopped", false},
		// The terminal's ctrl+c: chainctl, out of canopy's group, does not
		// die first and fail the chain (exit 1, "no API token found").
		{"explore, ctrl+c", nil, syscall.SIGINT, "canopy: interrupted by SIGINT while getting a token; stopped", true},
		{"list, ctrl+c", []string{"list", "repos"}, syscall.SIGINT, "canopy list: interrupted by SIGINT while getting a token; stopped", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Each has its own chainctl, home, server and process group;
			// each waits a second for canopy to say what it waits for.
			t.Parallel()
			path, pidFile := hangingChainctl(t)
			home := t.TempDir()
			b := startBlocked(t, []string{"PATH=" + path, "HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
				"CANOPY_API_URL=" + pingServer(t), "CANOPY_ORG=acme"}, tc.args...)
			b.waitUntil(fileExists(pidFile), "chainctl to be run")
			// A blank wait says what it waits for.
			b.waitUntil(func() bool { return strings.Contains(b.stderr.String(), "getting a token… (ctrl+c stops)") },
				"the wait to be said")
			b.group = tc.group
			b.interrupt(tc.sig, tc.want)
		})
	}
}

// TestSignalWhilePingHangs: a server that takes the ping and never
// answers keeps canopy before its first frame for up to 10 s, saying so
// after a second; SIGTERM ends it within a second, as an interruption (not
// "the server failed").
func TestSignalWhilePingHangs(t *testing.T) {
	t.Parallel()
	pinged := make(chan struct{}, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case pinged <- struct{}{}:
		default:
		}
		<-r.Context().Done()
	}))
	t.Cleanup(hs.Close)
	b := startBlocked(t, []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "CANOPY_TOKEN=t"}, "--api-url", hs.URL)
	b.waitUntil(func() bool {
		select {
		case <-pinged:
			return true
		default:
			return false
		}
	}, "the ping")
	// Past a second, the blank terminal says what canopy waits for.
	waiting := "canopy: connecting to " + hs.URL + "… (ctrl+c stops)"
	b.waitUntil(func() bool { return strings.Contains(b.stderr.String(), waiting) }, "the line saying what canopy waits for")
	b.interrupt(syscall.SIGTERM, "canopy: interrupted by SIGTERM while connecting to "+hs.URL)
}

// TestServerThatNeverAnswers: a server that takes the ping and never
// answers is given up after 10 s, said as such (not "context deadline
// exceeded"), with the status of a server that cannot be reached.
func TestServerThatNeverAnswers(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hs.Close)
	b := startBlocked(t, []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "CANOPY_TOKEN=t"}, "--api-url", hs.URL)
	select {
	case <-b.exited:
	case <-time.After(waitTimeout):
		t.Fatalf("still waiting for the server; stderr %q", b.stderr.String())
	}
	const exitNoServer = 3
	if code, want := b.cmd.ProcessState.ExitCode(), "canopy: "+hs.URL+" did not answer within 10s"; code != exitNoServer || !strings.Contains(b.stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want %d and %q", code, b.stderr.String(), exitNoServer, want)
	}
}

// TestSignalWhileTokenFileBlocks: a --token-file that is a FIFO with no
// writer is refused, or, where it is opened, a signal ends the wait
// within a second.
func TestSignalWhileTokenFileBlocks(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "token")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	b := startBlocked(t, []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "CANOPY_API_URL=" + pingServer(t), "CANOPY_ORG=acme"},
		"list", "repos", "--token-file", fifo)
	// canopy has the FIFO open when a writer can open it without waiting;
	// the writer then stays silent, so the read waits for ever.
	var w *os.File
	t.Cleanup(func() {
		if w != nil {
			w.Close()
		}
	})
	opened := func() bool {
		f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return false
		}
		w = f
		return true
	}
	deadline := time.Now().Add(waitTimeout)
	for !opened() {
		select {
		case <-b.exited:
			// Refused at once: the other way out.
			if code := b.cmd.ProcessState.ExitCode(); code != exitFailure || !strings.Contains(b.stderr.String(), "token") {
				t.Errorf("exit %d, stderr %q", code, b.stderr.String())
			}
			return
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("canopy neither opened the FIFO nor refused it; stderr %q", b.stderr.String())
		}
	}
	b.interrupt(syscall.SIGTERM, "canopy list: interrupted by SIGTERM while getting a token; stopped")
}
