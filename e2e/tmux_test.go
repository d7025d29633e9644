package e2e

// A small driver for end-to-end tests: the real canopy binary runs in a
// detached session of a private tmux server (tmux -L <unique name>), keys are
// sent with send-keys and the screen is read with capture-pane. Nothing here
// touches a user's own tmux server.

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api/emulator"
)

// waitTimeout is how long a wait lasts for what must come (a screen, an
// exit): long enough for a busy machine, which passes late and never fails
// for being slow. No test here asserts how fast canopy is: the speed
// targets are benchmarks (BENCHMARKS.md), read on a quiet machine.
// longPatience is the same for what is seconds of work on a quiet machine:
// seeding the medium and large demos, listing a million items.
const (
	waitTimeout  = 2 * time.Minute
	longPatience = 5 * time.Minute
	pollInterval = 50 * time.Millisecond  // how often waitFor captures the pane
	slowPoll     = 250 * time.Millisecond // the same once a wait has lasted slowAfter
	slowAfter    = time.Second
)

// pollAfter is how long a test's wait that has lasted waited lets pass
// before its next capture. Most screens come in moments: pollInterval.
// What has not come in slowAfter is seconds of work (seeding a large
// demo, a slow server), and each capture runs a tmux client, CPU taken
// from the canopy the test waits for: slowPoll, which is still small
// beside that work.
func pollAfter(waited time.Duration) time.Duration {
	if waited < slowAfter {
		return pollInterval
	}
	return slowPoll
}

// requireTmux skips the test when it cannot run here.
func requireTmux(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: builds the binary and drives it in tmux; skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("end-to-end test needs tmux on PATH (apt-get install tmux); .ci/run installs it")
	}
}

// The binary is built once, by the first test that asks for it, and shared
// by every test of the run (it is read-only); TestMain removes it at the
// end. (It was removed when no test was using it, and built again by the
// next: twice a run, seconds of linking each.)
var canopyBin struct {
	mu  sync.Mutex
	dir string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if canopyBin.dir != "" {
		_ = os.RemoveAll(canopyBin.dir)
	}
	os.Exit(code)
}

// canopyBinary builds the command at the module's root, `go build
// -trimpath -o <tmp>/canopy canopy` (once a run), and returns its path. The
// package is named by its import path, so the build does not depend on the
// directory the tests run in; -trimpath keeps the checkout's path out of
// the binary, so a fresh clone of the same source is built from go's cache
// (seconds) rather than compiled again (half a minute of two cores, taken
// from the tests running beside).
func canopyBinary(t testing.TB) string {
	t.Helper()
	b := &canopyBin
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dir == "" {
		dir, err := os.MkdirTemp("", "canopy-e2e-")
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		out, err := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "canopy"), "canopy").CombinedOutput()
		if err != nil {
			_ = os.RemoveAll(dir)
			t.Fatalf("go build: %v\n%s", err, out)
		}
		t.Logf("built canopy in %v", time.Since(start).Round(time.Millisecond))
		b.dir = dir
	}
	return filepath.Join(b.dir, "canopy")
}

// tmuxConf is the private server's whole configuration (no user config).
// set-clipboard on makes an OSC 52 clipboard write from canopy a tmux paste
// buffer, so tests can see what reached the clipboard. The window's name
// changes only by an escape sequence (allow-rename), never by tmux's own
// automatic renaming after the running command, which happens whenever
// tmux gets to it and made the hostile tests' title checks flaky.
const tmuxConf = `set -g default-terminal xterm-256color
set -g set-clipboard on
set -g automatic-rename off
set -g allow-rename on
set -g remain-on-exit on
set -g status off
set -g history-limit 0
`

// exitScript runs canopy, then prints its exit status and the tty modes, and
// stays alive (cat) so the pane shows what a shell would after canopy quit.
// Like an interactive shell, which runs canopy in a process group of its
// own, it outlives a ctrl+c or ctrl+\ typed while the terminal is in its
// own mode (a plugin in the foreground): the trap is a handler, so canopy
// and what it runs still get SIGINT and SIGQUIT as they would. Once the
// modes are printed, echo goes off: keys still queued for canopy when it
// ended (a flood of 10⁵) would otherwise be echoed and scroll the status
// and the modes off the screen (TestFloodedFilterEndsAtOnce, under load).
const exitScript = `trap : INT QUIT
"$@"
status=$?
printf '\n[canopy exited with status %d]\n' "$status"
stty -a
stty -echo
exec cat`

var (
	sockSeq    atomic.Int64
	exitLineRE = regexp.MustCompile(`\[canopy exited with status (\d+)\]`)
)

// tmuxTerm is one canopy process in a tmux pane.
type tmuxTerm struct {
	t             testing.TB
	sock, target  string
	width, height int
	env           []string // environment of every tmux command
}

// termOptions says how to start canopy.
type termOptions struct {
	width, height int
	env           []string // extra KEY=value for canopy, e.g. NO_COLOR=1
	args          []string // after "canopy"; default "demo"
}

// startCanopy starts canopy in a detached session of a new private tmux
// server, killed when the test ends.
func startCanopy(t testing.TB, o termOptions) *tmuxTerm {
	t.Helper()
	requireTmux(t)
	bin := canopyBinary(t)
	if len(o.args) == 0 {
		o.args = []string{"demo"}
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte(tmuxConf), 0o600); err != nil {
		t.Fatal(err)
	}
	tt := &tmuxTerm{
		t:      t,
		sock:   fmt.Sprintf("canopy-e2e-%d-%d", os.Getpid(), sockSeq.Add(1)),
		target: "e2e",
		width:  o.width,
		height: o.height,
		// The server copies this environment into the pane: a clean one,
		// so a user's NO_COLOR or config does not leak into the test.
		env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8", "TERM=xterm-256color"},
	}
	args := []string{"-f", conf, "new-session", "-d", "-s", tt.target,
		"-x", strconv.Itoa(o.width), "-y", strconv.Itoa(o.height)}
	for _, e := range o.env {
		args = append(args, "-e", e)
	}
	// The variables also go through env(1): tmux sets TERM in the pane from
	// its default-terminal whatever -e says, and TERM=dumb or linux must
	// reach canopy.
	args = append(args, "sh", "-c", exitScript, "sh", "env")
	args = append(append(args, o.env...), bin)
	args = append(args, o.args...)
	if _, err := tt.tmux(args...); err != nil {
		t.Fatalf("start tmux: %v", err)
	}
	sockPath, err := tt.tmux("display-message", "-p", "#{socket_path}")
	t.Cleanup(func() {
		_, _ = tt.tmux("kill-server")
		if p := strings.TrimSpace(sockPath); err == nil && strings.HasSuffix(p, tt.sock) {
			_ = os.Remove(p) // tmux 3.3 leaves it behind
		}
	})
	return tt
}

// tmux runs one tmux command against the private server.
func (tt *tmuxTerm) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-u", "-L", tt.sock}, args...)...)
	cmd.Env = tt.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// send presses keys by tmux name: "j", "G", "Enter", "Escape", "Down", "C-c".
func (tt *tmuxTerm) send(keys ...string) {
	tt.t.Helper()
	if _, err := tt.tmux(append([]string{"send-keys", "-t", tt.target}, keys...)...); err != nil {
		tt.t.Fatal(err)
	}
}

// typeText types s literally (no key-name lookup).
func (tt *tmuxTerm) typeText(s string) {
	tt.t.Helper()
	if _, err := tt.tmux("send-keys", "-t", tt.target, "-l", s); err != nil {
		tt.t.Fatal(err)
	}
}

// capture returns the visible screen as text, one line per row.
func (tt *tmuxTerm) capture(extra ...string) (string, error) {
	return tt.tmux(append([]string{"capture-pane", "-p", "-t", tt.target}, extra...)...)
}

// screen captures the screen or fails the test.
func (tt *tmuxTerm) screen(extra ...string) string {
	tt.t.Helper()
	s, err := tt.capture(extra...)
	if err != nil {
		tt.t.Fatal(err)
	}
	return s
}

// waitFor captures the pane until cond holds and returns that screen; after
// waitTimeout it fails with what it waited for and the last screen.
func (tt *tmuxTerm) waitFor(cond func(screen string) bool, what string) string {
	tt.t.Helper()
	start := time.Now()
	deadline := start.Add(waitTimeout)
	poll := time.NewTimer(pollInterval)
	defer poll.Stop()
	var last string
	var err error
	for {
		last, err = tt.capture()
		if err == nil && cond(last) {
			return last
		}
		if time.Now().After(deadline) {
			break
		}
		poll.Reset(pollAfter(time.Since(start)))
		<-poll.C
	}
	if err != nil {
		tt.t.Fatalf("waiting for %s: %v", what, err)
	}
	tt.t.Fatalf("timed out after %v waiting for %s; screen:\n%s", waitTimeout, what, frame(last))
	return ""
}

// waitText waits until every one of texts is on the screen.
func (tt *tmuxTerm) waitText(texts ...string) string {
	tt.t.Helper()
	return tt.waitFor(func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	}, fmt.Sprintf("%q on screen", texts))
}

// press sends keys, then waits for cond.
func (tt *tmuxTerm) press(cond func(string) bool, what string, keys ...string) string {
	tt.t.Helper()
	tt.send(keys...)
	return tt.waitFor(cond, what)
}

// waitExit waits until canopy has exited and returns its exit status.
func (tt *tmuxTerm) waitExit() int {
	tt.t.Helper()
	s := tt.waitFor(func(s string) bool { return exitLineRE.MatchString(s) && strings.Contains(s, "icanon") },
		"canopy to exit")
	n, err := strconv.Atoi(exitLineRE.FindStringSubmatch(s)[1])
	if err != nil {
		tt.t.Fatal(err)
	}
	return n
}

// paneFlags reads tmux format variables of the pane, e.g. "alternate_on".
func (tt *tmuxTerm) paneFlags(names ...string) map[string]string {
	tt.t.Helper()
	var f strings.Builder
	for i, n := range names {
		if i > 0 {
			f.WriteByte('\t')
		}
		f.WriteString("#{" + n + "}")
	}
	out, err := tt.tmux("display-message", "-p", "-t", tt.target, f.String())
	if err != nil {
		tt.t.Fatal(err)
	}
	vals := strings.Split(strings.TrimRight(out, "\n"), "\t")
	if len(vals) != len(names) {
		tt.t.Fatalf("display-message %q: %q", f.String(), out)
	}
	m := make(map[string]string, len(names))
	for i, n := range names {
		m[n] = vals[i]
	}
	return m
}

// assertRestored checks that after exit the terminal is back as it was: main
// screen, cursor shown, no mouse reporting, cooked tty modes, no UI left.
func (tt *tmuxTerm) assertRestored() {
	tt.t.Helper()
	want := map[string]string{"alternate_on": "0", "cursor_flag": "1", "mouse_standard_flag": "0",
		"mouse_button_flag": "0", "mouse_any_flag": "0", "mouse_sgr_flag": "0"}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	for n, v := range tt.paneFlags(names...) {
		if v != want[n] {
			tt.t.Errorf("after exit #{%s} = %q, want %q", n, v, want[n])
		}
	}
	s := tt.screen()
	modes := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\n' || r == ';' })
	for _, mode := range []string{"icanon", "echo", "isig"} {
		if !containsStr(modes, mode) || containsStr(modes, "-"+mode) {
			tt.t.Errorf("after exit the tty is not in cooked mode (%s); screen:\n%s", mode, frame(s))
		}
	}
	if strings.Contains(s, "canopy  acme.example") || strings.Contains(s, "details:") {
		tt.t.Errorf("after exit the UI is still on screen:\n%s", frame(s))
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// frame draws a screen in a box for failure messages, so trailing spaces
// and empty rows show.
func frame(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%2d|%s|\n", i, l)
	}
	return b.String()
}

// lines splits a captured screen into rows.
func lines(screen string) []string {
	return strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
}

// The tree screen is two panes split by a vertical rule.
const paneRule = "│"

var detailsRE = regexp.MustCompile(`(?m)` + paneRule + ` details: (.*?)\s*$`)

// detailsTitle is the detail pane's header, "" when there is none.
func detailsTitle(screen string) string {
	if m := detailsRE.FindStringSubmatch(screen); m != nil {
		return m[1]
	}
	return ""
}

// treeRows is the left pane of the tree screen: each body row left of the
// rule, trailing spaces cut.
func treeRows(screen string) []string {
	var rows []string
	for _, l := range lines(screen) {
		if left, _, ok := strings.Cut(l, paneRule); ok {
			rows = append(rows, strings.TrimRight(left, " "))
		}
	}
	return rows
}

// detailRows is the right pane of the tree screen.
func detailRows(screen string) []string {
	var rows []string
	for _, l := range lines(screen) {
		if _, right, ok := strings.Cut(l, paneRule); ok {
			rows = append(rows, right)
		}
	}
	return rows
}

// selectInTree presses key (j or k) until the detail pane shows title,
// waiting after each press for the selection to move. It fails after max
// presses.
func (tt *tmuxTerm) selectInTree(key, title string, max int) string {
	tt.t.Helper()
	s := tt.waitFor(func(s string) bool { return detailsTitle(s) != "" }, "the detail pane")
	for range max {
		if detailsTitle(s) == title {
			return s
		}
		prev := detailsTitle(s)
		s = tt.press(func(s string) bool { d := detailsTitle(s); return d != "" && d != prev },
			fmt.Sprintf("the selection to move off %q", prev), key)
	}
	if detailsTitle(s) != title {
		tt.t.Fatalf("%q not reached with %d presses of %s; screen:\n%s", title, max, key, frame(s))
	}
	return s
}

var errNoRow = errors.New("row not found")

// rowAfter finds the row that matches re in rows and returns the one after.
func rowAfter(rows []string, re *regexp.Regexp) (string, error) {
	for i, r := range rows {
		if re.MatchString(r) && i+1 < len(rows) {
			return rows[i+1], nil
		}
	}
	return "", errNoRow
}

// Exit statuses of the binary, as the README documents them.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// serveEmulator serves a small emulator (seed 1) that takes token as its
// admin's, over HTTP on a loopback port, until the test ends.
func serveEmulator(t testing.TB, token string) (*emulator.Server, *httptest.Server) {
	t.Helper()
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: token})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return srv, hs
}
