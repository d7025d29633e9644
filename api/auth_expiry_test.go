package api

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// bearers is a server that answers every List with an empty page and keeps the bearer tokens
// it was sent.
type bearers struct {
	mu   sync.Mutex
	seen []string
}

func (b *bearers) serve(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		b.seen = append(b.seen, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		b.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"repos":[]}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (b *bearers) tokens() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.seen...)
}

// TestExpiredTokenNotSent is issue 19 item 8's expired JWT: a token whose exp has passed was
// sent, for the server to refuse. Now the chain says locally that it expired and takes the next
// source; no request with it reaches the server.
func TestExpiredTokenNotSent(t *testing.T) {
	t.Parallel()
	expired := makeJWT(t, "expired", testNow.Add(-3*time.Hour))
	expiredDays := makeJWT(t, "old", testNow.Add(-50*time.Hour))
	fresh := makeJWT(t, "fresh", testNow.Add(time.Hour))
	justNow := makeJWT(t, "skew", testNow.Add(-10*time.Second))
	for _, tc := range []struct {
		name    string
		file    string // the --token-file's token, "" for none
		env     map[string]string
		cache   string
		ctl     string // chainctl's token, "" for no chainctl
		want    string // the token sent, "" for none: an error
		skipped []string
		errHas  []string
	}{
		{name: "CANOPY_TOKEN expired: CHAINGUARD_TOKEN", env: map[string]string{"CANOPY_TOKEN": expired, "CHAINGUARD_TOKEN": fresh},
			want: fresh, skipped: []string{"CANOPY_TOKEN holds a token that expired 3 h ago (at 2026-03-01T09:00:00Z)"}},
		{name: "token file expired: CANOPY_TOKEN", file: expired, env: map[string]string{"CANOPY_TOKEN": fresh},
			want: fresh, skipped: []string{"token file ", " holds a token that expired 3 h ago"}},
		{name: "both variables expired: the cache", env: map[string]string{"CANOPY_TOKEN": expired, "CHAINGUARD_TOKEN": expiredDays}, cache: fresh,
			want: fresh, skipped: []string{"CANOPY_TOKEN holds a token that expired 3 h ago", "CHAINGUARD_TOKEN holds a token that expired 2 days ago"}},
		{name: "within the clock's skew: still sent", env: map[string]string{"CANOPY_TOKEN": justNow}, want: justNow},
		{name: "every source expired", file: expired, env: map[string]string{"CANOPY_TOKEN": expired, "CHAINGUARD_TOKEN": expiredDays},
			cache: expired, ctl: expiredDays,
			errHas: []string{"no API token found; tried token file ", " (holds a token that expired 3 h ago (at 2026-03-01T09:00:00Z)), CANOPY_TOKEN (holds a token that expired 3 h ago",
				"CHAINGUARD_TOKEN (holds a token that expired 2 days ago", "oidc-token (holds a token that expired 3 h ago",
				"` (printed a token that expired 2 days ago"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := TokenOptions{Audience: testAudience, CacheDir: t.TempDir(), LookPath: noChainctl,
				Getenv: newFakeEnv(tc.env).Getenv, Now: func() time.Time { return testNow }}
			if tc.file != "" {
				opts.TokenFile = writeTokenFile(t, tc.file, 0o600)
			}
			if tc.cache != "" {
				writeCache(t, opts.CacheDir, tc.cache)
			}
			if tc.ctl != "" {
				opts.LookPath, _ = fakeChainctl(t, tc.ctl, "", 0)
			}
			src := NewTokenSource(opts)
			var srv bearers
			c, err := New(Options{BaseURL: srv.serve(t), TokenSource: src, Retry: NoRetry()})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.ListRepos(t.Context(), ListOptions{})
			sent := srv.tokens()
			for _, s := range sent {
				if s == expired || s == expiredDays {
					t.Errorf("an expired token reached the server")
				}
			}
			if tc.want == "" {
				if !errors.Is(err, ErrNoToken) || len(sent) != 0 {
					t.Fatalf("err = %v with %d requests, want ErrNoToken and none", err, len(sent))
				}
				for _, w := range tc.errHas {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil || len(sent) != 1 || sent[0] != tc.want {
				t.Fatalf("ListRepos: %v; sent %d requests", err, len(sent))
			}
			got := strings.Join(src.Skipped(), "\n")
			for _, w := range tc.skipped {
				if !strings.Contains(got, w) {
					t.Errorf("Skipped() = %q, lacks %q", got, w)
				}
			}
			if len(tc.skipped) == 0 && got != "" {
				t.Errorf("Skipped() = %q, want nothing", got)
			}
		})
	}
}

// TestTokenExpiresDuringSession: a variable's token that expires while canopy runs is dropped
// for the next source at the next request, not sent once more.
func TestTokenExpiresDuringSession(t *testing.T) {
	t.Parallel()
	clock := newFakeClock(testNow)
	first := makeJWT(t, "first", testNow.Add(10*time.Minute))
	second := makeJWT(t, "second", testNow.Add(2*time.Hour))
	src := NewTokenSource(TokenOptions{Audience: testAudience, CacheDir: t.TempDir(), LookPath: noChainctl, Now: clock.Now,
		Getenv: newFakeEnv(map[string]string{"CANOPY_TOKEN": first, "CHAINGUARD_TOKEN": second}).Getenv})
	var srv bearers
	c, err := New(Options{BaseURL: srv.serve(t), TokenSource: src, Retry: NoRetry()})
	if err != nil {
		t.Fatal(err)
	}
	for _, advance := range []time.Duration{0, 9 * time.Minute, 2 * time.Minute} {
		clock.add(advance)
		if _, err := c.ListRepos(t.Context(), ListOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.tokens(); len(got) != 3 || got[0] != first || got[1] != first || got[2] != second {
		t.Fatalf("sent %d tokens; want first, first (within a minute of exp), second", len(got))
	}
	if src.Origin() != "CHAINGUARD_TOKEN" || !strings.Contains(strings.Join(src.Skipped(), ""), "CANOPY_TOKEN holds a token that expired 1 min ago") {
		t.Errorf("Origin() = %q, Skipped() = %q", src.Origin(), src.Skipped())
	}
}
