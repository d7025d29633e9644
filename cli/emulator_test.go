package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api/emulator"
	"canopy/cli/exit"
)

func TestEmulatorFlags(t *testing.T) {
	var out, errb strings.Builder
	if code := runEmulator(t.Context(), []string{"-h"}, &out, &errb); code != exit.OK || !strings.Contains(out.String(), "-fail-rate") ||
		!strings.Contains(out.String(), "-strict") {
		t.Fatalf("-h: code %d, out %q", code, out.String())
	}
	for _, args := range [][]string{{"--nope"}, {"--size", "huge", "--addr", "127.0.0.1:0"}, {"--fail-rate", "2", "--addr", "127.0.0.1:0"}, {"extra"}, {"--now", "yesterday", "--addr", "127.0.0.1:0"}} {
		errb.Reset()
		if code := runEmulator(t.Context(), args, &out, &errb); code != exit.Usage || errb.Len() == 0 {
			t.Errorf("%v: code %d, stderr %q", args, code, errb.String())
		}
	}
}

func TestEmulatorMakesUpToken(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := runEmulator(ctx, []string{"--addr", "127.0.0.1:0"}, pw, io.Discard)
		pw.Close()
		done <- code
	}()
	lines := make(chan string, 2)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	for len(got) < 2 {
		select {
		case l := <-lines:
			got = append(got, l)
		case <-time.After(10 * time.Second):
			t.Fatalf("output so far %q", got)
		}
	}
	cancel()
	if code := <-done; code != exit.OK {
		t.Fatalf("exit %d", code)
	}
	if !strings.HasPrefix(got[0], "listening on http://127.0.0.1:") || !strings.HasPrefix(got[1], "token=emu_") {
		t.Fatalf("output %q", got)
	}
}

// TestNowMakesTimesReproducible: two emulators of the same seed started
// with the same --now serve the same times.
func TestNowMakesTimesReproducible(t *testing.T) {
	orgTimes := func() string {
		clock, err := clockFrom("2026-06-01T12:00:00Z")
		if err != nil {
			t.Fatal(err)
		}
		srv, err := emulator.New(emulator.Options{Seed: 7, AdminToken: "T", Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/registry/v2/tags?page_size=3&order_by=name", nil)
		req.Header.Set("Authorization", "Bearer T")
		srv.ServeHTTP(rec, req)
		var page struct {
			Tags []struct{ CreateTime, UpdateTime string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil || len(page.Tags) != 3 {
			t.Fatalf("page %s: %v", rec.Body, err)
		}
		return fmt.Sprint(page.Tags)
	}
	clock, _ := clockFrom("2026-06-01T12:00:00Z")
	if got := clock(); !got.Equal(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("the clock's first reading is %v", got)
	}
	if a, b := orgTimes(), orgTimes(); a != b {
		t.Errorf("the same seed and --now gave other times:\n%s\n%s", a, b)
	}
}

// serveEmulator runs canopy emulator on a free port with args until ctx
// ends, and returns its base URL once it says it listens (and that line),
// and its exit status when it ends.
func serveEmulator(ctx context.Context, t *testing.T, stderr io.Writer, args ...string) (base, line string, done <-chan int) {
	t.Helper()
	pr, pw := io.Pipe()
	exited := make(chan int, 1)
	go func() {
		code := runEmulator(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), pw, stderr)
		pw.Close()
		exited <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return strings.Fields(strings.TrimPrefix(line, "listening on "))[0], line, exited
}

// TestEmulatorStrictFlag: `canopy emulator --strict` serves a strict
// emulator: no totalCount in lists, undocumented orders refused.
func TestEmulatorStrictFlag(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	base, _, done := serveEmulator(ctx, t, io.Discard, "--token", "T", "--strict")
	get := func(path string) (int, string) {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Authorization", "Bearer T")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get("/iam/v2/groups"); code != 200 || strings.Contains(body, "totalCount") {
		t.Errorf("groups: %d %s", code, body)
	}
	if code, body := get("/iam/v2/groups?order_by=update_time"); code != 400 || !strings.Contains(body, "order_by") {
		t.Errorf("order_by=update_time: %d %s", code, body)
	}
	cancel()
	if code := <-done; code != exit.OK {
		t.Fatalf("exit %d", code)
	}
}

// TestEmulatorListensOnceSeeded: the "listening on" line comes once the
// data is in (what a script waits for): the first request after it is
// answered, not told to retry; stderr said how far the seeding was if it
// took over a second.
func TestEmulatorListensOnceSeeded(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var errb lockedWriter
	base, line, done := serveEmulator(ctx, t, &errb, "--token", "T", "--size", "medium")
	req, _ := http.NewRequest("GET", base+"/registry/v2/tags?page_size=1", nil)
	req.Header.Set("Authorization", "Bearer T")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(b), `"tags"`) {
		t.Errorf("the first request after %q: %d %s", line, res.StatusCode, b)
	}
	if s := errb.String(); s != "" && (!strings.Contains(s, "canopy emulator: seeding: ") || !strings.Contains(s, "canopy emulator: seeded: ")) {
		t.Errorf("stderr %q", s)
	}
	cancel()
	if code := <-done; code != exit.OK {
		t.Fatalf("exit %d", code)
	}
}

// TestEmulatorSignalWhileSeeding: a signal while the data is seeded ends
// canopy emulator at once, with the signal's status and what was under
// way, and nothing listening.
func TestEmulatorSignalWhileSeeding(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	var out, errb lockedWriter
	done := make(chan int, 1)
	// Signalled as it starts, so within the seeding (medium's takes half
	// a second).
	go func() { done <- runEmulator(ctx, []string{"--addr", "127.0.0.1:0", "--size", "medium"}, &out, &errb) }()
	sent := time.Now()
	cancel(exit.Interruption{Signal: os.Interrupt})
	select {
	case code := <-done:
		if took := time.Since(sent); code != 130 || took > time.Second {
			t.Errorf("exit %d after %v, want 130 at once", code, took)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still seeding 10 s after the signal")
	}
	if !strings.Contains(errb.String(), "canopy emulator: interrupted by SIGINT while seeding; stopped") || out.String() != "" {
		t.Errorf("stdout %q, stderr %q", out.String(), errb.String())
	}
}

// lockedWriter is an output written by one goroutine and read by another.
type lockedWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
