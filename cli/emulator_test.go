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
	t.Parallel()
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
	t.Parallel()
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
		case <-time.After(patience):
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
// canopy emulator with the signal's status and what was under way, and
// nothing listening. The signal comes as it starts, so within the seeding
// (medium's takes half a second, longer on a loaded machine).
func TestEmulatorSignalWhileSeeding(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancelCause(t.Context())
	var out, errb lockedWriter
	done := make(chan int, 1)
	cancel(exit.Interruption{Signal: os.Interrupt})
	go func() { done <- runEmulator(ctx, []string{"--addr", "127.0.0.1:0", "--size", "medium"}, &out, &errb) }()
	select {
	case code := <-done:
		if code != 130 {
			t.Errorf("exit %d, want 130", code)
		}
	case <-time.After(patience):
		t.Fatal("still seeding long after the signal")
	}
	if !strings.Contains(errb.String(), "canopy emulator: interrupted by SIGINT while seeding; stopped") || out.String() != "" {
		t.Errorf("stdout %q, stderr %q", out.String(), errb.String())
	}
}

// neverSeeded is a seeding that never ends.
type neverSeeded struct{}

func (neverSeeded) Ready() <-chan struct{} { return nil }
func (neverSeeded) Progress() string       { return "seeding: 0 of 600 repos" }

// TestSignalEndsTheWaitForSeeding: the wait for the data ends with a
// signal whether or not the data ever comes, and a signal that has come
// wins over data that is in.
func TestSignalEndsTheWaitForSeeding(t *testing.T) {
	t.Parallel()
	seeded := make(chan struct{})
	close(seeded)
	for _, s := range []seedingProgress{neverSeeded{}, readySeeding(seeded)} {
		ctx, cancel := context.WithCancelCause(t.Context())
		cancel(exit.Interruption{Signal: os.Interrupt})
		var errb strings.Builder
		code, ok := awaitSeeding(ctx, s, &errb)
		if code != 130 || ok || !strings.Contains(errb.String(), "interrupted by SIGINT while seeding") {
			t.Errorf("%T: exit %d, go on %v, stderr %q", s, code, ok, errb.String())
		}
	}
}

// readySeeding is a seeding whose data is in once the channel closes.
type readySeeding chan struct{}

func (r readySeeding) Ready() <-chan struct{} { return r }
func (readySeeding) Progress() string         { return "seeded" }

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
