package api

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const testAudience = "https://api.example"

// patience bounds a test's wait for what will happen: a loaded machine gets there late, and a
// test fails only when it never does.
const patience = 2 * time.Minute

var testNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// makeJWT builds an unsigned JWT (header.payload.signature, base64url) whose exp is exp, or
// without exp when exp is zero. sub makes tokens with the same exp distinct.
func makeJWT(t *testing.T, sub string, exp time.Time) string {
	t.Helper()
	enc := base64.RawURLEncoding.EncodeToString
	payload := fmt.Sprintf(`{"iss":"https://issuer.example","sub":%q}`, sub)
	if !exp.IsZero() {
		payload = fmt.Sprintf(`{"iss":"https://issuer.example","sub":%q,"exp":%d}`, sub, exp.Unix())
	}
	return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc([]byte(payload)) + ".c2ln"
}

// fakeEnv is a Getenv over a map that a test may change while a source uses it.
type fakeEnv struct {
	mu    sync.Mutex
	vars  map[string]string
	reads map[string]int
}

func newFakeEnv(vars map[string]string) *fakeEnv {
	return &fakeEnv{vars: vars, reads: map[string]int{}}
}

func (e *fakeEnv) Getenv(k string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reads[k]++
	return e.vars[k]
}

func (e *fakeEnv) set(k, v string) { e.mu.Lock(); e.vars[k] = v; e.mu.Unlock() }

func (e *fakeEnv) count(k string) int { e.mu.Lock(); defer e.mu.Unlock(); return e.reads[k] }

// fakeClock is a settable Now.
type fakeClock struct{ ns atomic.Int64 }

func newFakeClock(t time.Time) *fakeClock { c := &fakeClock{}; c.ns.Store(t.UnixNano()); return c }
func (c *fakeClock) Now() time.Time       { return time.Unix(0, c.ns.Load()) }
func (c *fakeClock) add(d time.Duration)  { c.ns.Add(int64(d)) }

// cachePath is where the platform CLI keeps the token for aud, spelled out independently of
// the code under test: "/" in the audience becomes "-".
func cachePath(dir, aud string) string {
	return filepath.Join(dir, "chainguard", strings.ReplaceAll(aud, "/", "-"), "oidc-token")
}

// mustWrite writes content to path with exactly mode (WriteFile's mode is masked by the umask).
func mustWrite(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func writeCache(t *testing.T, dir, tok string) {
	t.Helper()
	mustWrite(t, cachePath(dir, testAudience), tok+"\n", 0o600)
}

func writeTokenFile(t *testing.T, tok string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tok")
	mustWrite(t, p, "  "+tok+"\n", mode)
	return p
}

// fakeChainctl writes a chainctl script that checks its arguments, logs each call, prints
// stdout and stderr, and exits with code. It returns a LookPath that finds it and the call log.
func fakeChainctl(t *testing.T, stdout, stderr string, code int) (func(string) (string, error), string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake chainctl is a shell script")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	script := fmt.Sprintf(`#!/bin/sh
echo "$*" >> '%s'
if [ "$#" -ne 4 ] || [ "$1" != auth ] || [ "$2" != token ] || [ "$3" != --audience ] || [ "$4" != '%s' ]; then
  echo "unexpected arguments: $*" >&2; exit 64
fi
printf '%%s\n' '%s'
printf '%%s\n' '%s' >&2
exit %d
`, log, testAudience, stdout, stderr, code)
	path := filepath.Join(dir, "chainctl")
	mustWrite(t, path, script, 0o700)
	return func(name string) (string, error) {
		if name != "chainctl" {
			return "", exec.ErrNotFound
		}
		return path, nil
	}, log
}

// chainctlCalls counts the fake chainctl's runs (no log file: none).
func chainctlCalls(log string) int {
	b, _ := os.ReadFile(log)
	return strings.Count(string(b), "\n")
}

func noChainctl(string) (string, error) { return "", exec.ErrNotFound }

func TestTokenChainPrecedence(t *testing.T) {
	t.Parallel()
	exp := testNow.Add(time.Hour)
	fileTok, canopyTok := makeJWT(t, "file", exp), makeJWT(t, "canopy", exp)
	cgTok, cacheTok, ctlTok := makeJWT(t, "chainguard", exp), makeJWT(t, "cache", exp), makeJWT(t, "chainctl", exp)
	tests := []struct {
		name       string
		file       bool
		env        map[string]string
		cache      string // "" writes no cache file
		chainctl   bool
		want       string
		wantOrigin string // a prefix of Origin()
		wantCalls  int    // chainctl runs
	}{
		{"file beats env", true, map[string]string{"CANOPY_TOKEN": canopyTok}, cacheTok, true, fileTok, "token file ", 0},
		{"CANOPY_TOKEN beats CHAINGUARD_TOKEN", false, map[string]string{"CANOPY_TOKEN": canopyTok, "CHAINGUARD_TOKEN": cgTok}, cacheTok, true, canopyTok, "CANOPY_TOKEN", 0},
		{"CHAINGUARD_TOKEN beats cache", false, map[string]string{"CHAINGUARD_TOKEN": " " + cgTok + "\n"}, cacheTok, true, cgTok, "CHAINGUARD_TOKEN", 0},
		{"cache beats chainctl", false, nil, cacheTok, true, cacheTok, "platform CLI cache ", 0},
		{"chainctl last", false, nil, "", true, ctlTok, "chainctl", 1},
		{"expired cache falls through", false, nil, makeJWT(t, "old", testNow.Add(-time.Second)), true, ctlTok, "chainctl", 1},
		{"cache expiring within Early falls through", false, nil, makeJWT(t, "soon", testNow.Add(30*time.Second)), true, ctlTok, "chainctl", 1},
		{"cache without exp falls through", false, nil, makeJWT(t, "noexp", time.Time{}), true, ctlTok, "chainctl", 1},
		{"expired env token passed over", false, map[string]string{"CANOPY_TOKEN": makeJWT(t, "x", testNow.Add(-time.Hour))}, cacheTok, true, cacheTok, "platform CLI cache ", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := TokenOptions{Audience: testAudience + "/", CacheDir: t.TempDir(), LookPath: noChainctl,
				Getenv: newFakeEnv(tc.env).Getenv, Now: func() time.Time { return testNow }}
			if tc.file {
				opts.TokenFile = writeTokenFile(t, fileTok, 0o600)
			}
			if tc.cache != "" {
				writeCache(t, opts.CacheDir, tc.cache)
			}
			log := ""
			if tc.chainctl {
				opts.LookPath, log = fakeChainctl(t, ctlTok, "", 0)
			}
			src := NewTokenSource(opts)
			tok, err := src.Token()
			if err != nil {
				t.Fatalf("Token: %v", err)
			}
			if tok.AccessToken != tc.want || tok.TokenType != "Bearer" {
				t.Errorf("got token %q type %q, want %q Bearer", tok.AccessToken, tok.TokenType, tc.want)
			}
			if wantExp, _ := JWTExpiry(tc.want); !tok.Expiry.Equal(wantExp) {
				t.Errorf("Expiry = %v, want %v", tok.Expiry, wantExp)
			}
			if !strings.HasPrefix(src.Origin(), tc.wantOrigin) {
				t.Errorf("Origin() = %q, want prefix %q", src.Origin(), tc.wantOrigin)
			}
			if log != "" {
				if n := chainctlCalls(log); n != tc.wantCalls {
					t.Errorf("chainctl ran %d times, want %d", n, tc.wantCalls)
				}
			}
		})
	}
}

func TestTokenChainNothingFound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lookPath, _ := fakeChainctl(t, "", "error: not logged in", 1)
	for _, tc := range []struct {
		name     string
		lookPath func(string) (string, error)
		want     []string
	}{
		{"chainctl missing", noChainctl, []string{"CANOPY_TOKEN (not set)", "CHAINGUARD_TOKEN (not set)",
			cachePath(dir, testAudience) + " (not found)", "--audience " + testAudience + "` (not on PATH)",
			"chainctl auth login"}},
		{"chainctl fails", lookPath, []string{"exit status 1: error: not logged in"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := NewTokenSource(TokenOptions{Audience: testAudience, CacheDir: dir, LookPath: tc.lookPath,
				Getenv: newFakeEnv(nil).Getenv})
			_, err := src.Token()
			if !errors.Is(err, ErrNoToken) {
				t.Fatalf("err = %v, want ErrNoToken", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if src.Origin() != "" {
				t.Errorf("Origin() = %q after failure", src.Origin())
			}
		})
	}
}

func TestTokenChainctlFromPATH(t *testing.T) {
	tok := makeJWT(t, "path", time.Now().Add(time.Hour))
	lookPath, log := fakeChainctl(t, tok, "", 0)
	path, _ := lookPath("chainctl")
	t.Setenv("PATH", filepath.Dir(path))
	t.Setenv("CANOPY_TOKEN", "")
	t.Setenv("CHAINGUARD_TOKEN", "")
	src := NewTokenSource(TokenOptions{Audience: testAudience, CacheDir: t.TempDir()})
	got, err := src.Token()
	if err != nil || got.AccessToken != tok || src.Origin() != "chainctl" || chainctlCalls(log) != 1 {
		t.Fatalf("Token() = %v, %v; origin %q", got, err, src.Origin())
	}
}

func TestTokenFilePermissions(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	tok := makeJWT(t, "file", time.Time{})
	for _, tc := range []struct {
		mode os.FileMode
		ok   bool
	}{{0o600, true}, {0o400, true}, {0o644, false}, {0o640, false}, {0o604, false}} {
		t.Run(fmt.Sprintf("%04o", tc.mode), func(t *testing.T) {
			p := writeTokenFile(t, tok, tc.mode)
			t.Cleanup(func() { _ = os.Chmod(p, 0o600) })
			src := NewTokenSource(TokenOptions{TokenFile: p, Getenv: newFakeEnv(nil).Getenv, LookPath: noChainctl})
			got, err := src.Token()
			if tc.ok {
				if err != nil || got.AccessToken != tok || src.Origin() != "token file "+p {
					t.Fatalf("Token() = %v, %v; origin %q", got, err, src.Origin())
				}
				return
			}
			want := fmt.Sprintf("token file %s is accessible by others (mode %04o); run: chmod 600 %s", p, tc.mode, p)
			if err == nil || err.Error() != want {
				t.Fatalf("err = %v, want %q", err, want)
			}
		})
	}
}

// TestTokenRefreshAndInvalidate checks when a cached token is re-read: within Early of its exp
// (by a fake clock), always once expired, and for a token without exp only after Invalidate.
func TestTokenRefreshAndInvalidate(t *testing.T) {
	t.Parallel()
	const years = 10 * 365 * 24 * time.Hour
	for _, tc := range []struct {
		name       string
		early      time.Duration
		exp        time.Duration // of the first token, from the start; 0: no exp claim
		advance    time.Duration // of the clock before the second call
		invalidate bool
		renewed    bool
	}{
		{"default 1m: kept", 0, 5 * time.Minute, 3*time.Minute + 59*time.Second, false, false},
		{"default 1m: renewed", 0, 5 * time.Minute, 4*time.Minute + time.Second, false, true},
		{"10m: kept", 10 * time.Minute, 30 * time.Minute, 19 * time.Minute, false, false},
		{"10m: renewed", 10 * time.Minute, 30 * time.Minute, 20*time.Minute + time.Second, false, true},
		{"within Early: re-read every call", 0, 30 * time.Second, 0, false, true},
		{"no exp: kept for years", 0, 0, years, false, false},
		{"no exp: Invalidate re-reads", 0, 0, 0, true, true},
		{"fresh: Invalidate re-reads", 0, time.Hour, 0, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock(testNow)
			var firstExp time.Time
			if tc.exp != 0 {
				firstExp = testNow.Add(tc.exp)
			}
			first, second := makeJWT(t, "first", firstExp), makeJWT(t, "second", testNow.Add(time.Hour))
			env := newFakeEnv(map[string]string{"CANOPY_TOKEN": first})
			src := NewTokenSource(TokenOptions{Getenv: env.Getenv, Now: clock.Now, Early: tc.early, LookPath: noChainctl})
			mustToken(t, src, first)
			env.set("CANOPY_TOKEN", second)
			clock.add(tc.advance)
			if tc.invalidate {
				src.Invalidate()
			}
			want, reads := first, 1
			if tc.renewed {
				want, reads = second, 2
			}
			mustToken(t, src, want)
			if n := env.count("CANOPY_TOKEN"); n != reads {
				t.Errorf("CANOPY_TOKEN read %d times, want %d", n, reads)
			}
		})
	}
}

func mustToken(t *testing.T, src *TokenSource, want string) {
	t.Helper()
	got, err := src.Token()
	if err != nil {
		t.Fatalf("Token: %v", err)
	}
	if got.AccessToken != want {
		t.Fatalf("Token() = %.20s…, want %.20s…", got.AccessToken, want)
	}
}

func TestTokenConcurrent(t *testing.T) {
	t.Parallel()
	tok := makeJWT(t, "c", time.Now().Add(time.Hour))
	env := newFakeEnv(map[string]string{"CANOPY_TOKEN": tok})
	src := NewTokenSource(TokenOptions{Getenv: env.Getenv, LookPath: noChainctl, CacheDir: t.TempDir()})
	run := func(invalidate bool) {
		var wg sync.WaitGroup
		for i := range 32 {
			wg.Go(func() {
				if got, err := src.Token(); err != nil || got.AccessToken != tok {
					t.Errorf("Token() = %v, %v", got, err)
				}
				_ = src.Origin() + src.String()
				if invalidate && i%4 == 0 {
					src.Invalidate()
				}
			})
		}
		wg.Wait()
	}
	run(false)
	if n := env.count("CANOPY_TOKEN"); n != 1 {
		t.Errorf("32 concurrent first calls read the chain %d times, want 1", n)
	}
	run(true)
}

func TestStaticToken(t *testing.T) {
	t.Parallel()
	exp := time.Unix(testNow.Add(-time.Hour).Unix(), 0)
	tok := makeJWT(t, "admin", exp)
	src := StaticToken(tok+"\n", "emulator admin token")
	for range 2 {
		got, err := src.Token()
		if err != nil || got.AccessToken != tok || !got.Expiry.Equal(exp) || got.TokenType != "Bearer" {
			t.Fatalf("Token() = %v, %v", got, err)
		}
		src.Invalidate()
	}
	if src.Origin() != "emulator admin token" {
		t.Errorf("Origin() = %q", src.Origin())
	}
	if _, err := StaticToken(" ", "empty").Token(); err == nil {
		t.Error("empty static token: no error")
	}
	if _, err := new(TokenSource).Token(); err == nil {
		t.Error("zero TokenSource: no error")
	}
}

func TestTokenNeverPrinted(t *testing.T) {
	t.Parallel()
	secret := makeJWT(t, "secret-subject", testNow.Add(-time.Hour))
	payload := strings.Split(secret, ".")[1]
	leaks := func(s string) bool { return strings.Contains(s, secret) || strings.Contains(s, payload) }
	var errs []error
	collect := func(src *TokenSource) {
		t.Helper()
		_, err := src.Token()
		if err == nil {
			t.Fatal("want an error")
		}
		errs = append(errs, err)
	}
	base := func() TokenOptions {
		return TokenOptions{Audience: testAudience, Getenv: newFakeEnv(nil).Getenv, LookPath: noChainctl,
			CacheDir: t.TempDir(), Now: func() time.Time { return testNow }}
	}
	if runtime.GOOS != "windows" {
		o := base()
		o.TokenFile = writeTokenFile(t, secret, 0o644)
		collect(NewTokenSource(o))
	}
	o := base()
	o.Getenv = newFakeEnv(map[string]string{"CANOPY_TOKEN": secret + " trailing-junk"}).Getenv
	collect(NewTokenSource(o))
	o = base()
	writeCache(t, o.CacheDir, secret) // expired
	o.LookPath, _ = fakeChainctl(t, secret, "refusing token "+secret+" and "+makeJWT(t, "other", testNow), 1)
	collect(NewTokenSource(o))
	for _, err := range errs {
		if leaks(err.Error()) || leaks(fmt.Sprintf("%v %+v %#v", err, err, err)) {
			t.Errorf("error leaks the token: %v", err)
		}
	}

	o = base()
	o.Getenv = newFakeEnv(map[string]string{"CANOPY_TOKEN": secret}).Getenv
	o.Now = func() time.Time { return testNow.Add(-2 * time.Hour) } // secret is not yet expired
	for _, src := range []*TokenSource{NewTokenSource(o), StaticToken(secret, "static")} {
		mustToken(t, src, secret)
		printed := fmt.Sprintf("%v %+v %#v %s %q %x %v %+v %#v", src, src, src, src, src, src, *src, *src, *src)
		if leaks(printed) || leaks(src.String()+src.GoString()) {
			t.Errorf("printing the source leaks the token: %s", printed)
		}
		if !strings.Contains(printed, src.Origin()) {
			t.Errorf("printing the source does not show its origin %q: %s", src.Origin(), printed)
		}
	}
}

func TestJWTExpiry(t *testing.T) {
	t.Parallel()
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	hdr := enc(`{"alg":"none"}`)
	exp := time.Unix(1767225600, 0)
	for _, tc := range []struct {
		name  string
		token string
		want  time.Time
		ok    bool
	}{
		{"built by makeJWT", makeJWT(t, "s", exp), exp, true},
		{"no exp", makeJWT(t, "s", time.Time{}), time.Time{}, false},
		{"fractional exp", hdr + "." + enc(`{"exp":1767225600.5}`) + ".", exp.Add(500 * time.Millisecond), true},
		{"padded payload", hdr + "." + base64.URLEncoding.EncodeToString([]byte(`{"exp":1767225600}`)) + ".sig", exp, true},
		{"string exp", hdr + "." + enc(`{"exp":"soon"}`) + ".sig", time.Time{}, false},
		{"zero exp", hdr + "." + enc(`{"exp":0}`) + ".sig", time.Time{}, false},
		{"two parts", hdr + "." + enc(`{"exp":1767225600}`), time.Time{}, false},
		{"not base64", hdr + ".%%%.sig", time.Time{}, false},
		{"not JSON", hdr + "." + enc("exp") + ".sig", time.Time{}, false},
		{"opaque token", "abc123", time.Time{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := JWTExpiry(tc.token)
			if ok != tc.ok || !got.Equal(tc.want) {
				t.Errorf("JWTExpiry = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
