package api

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestTokenChainctlStalled: a chainctl that never ends is stopped at the timeout its caller
// gives, or when the session ends, and the chain says which.
func TestTokenChainctlStalled(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the fake chainctl is a shell script")
	}
	path := filepath.Join(t.TempDir(), "chainctl")
	mustWrite(t, path, "#!/bin/sh\nexec sleep 3600\n", 0o700)
	lookPath := func(string) (string, error) { return path, nil }
	ended, end := context.WithCancelCause(t.Context())
	end(errors.New("interrupted"))
	for _, tc := range []struct {
		name string
		opts TokenOptions
		want string
	}{
		{"timeout", TokenOptions{ChainctlTimeout: 10 * time.Millisecond}, "(timed out after 10ms)"},
		{"session ended", TokenOptions{ChainctlTimeout: time.Hour, Session: ended}, "(stopped: interrupted)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opts
			o.Audience, o.CacheDir, o.LookPath, o.Getenv = testAudience, t.TempDir(), lookPath, newFakeEnv(nil).Getenv
			done := make(chan error, 1)
			go func() { _, err := NewTokenSource(o).Token(); done <- err }()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNoToken) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("err = %v, want ErrNoToken saying %q", err, tc.want)
				}
			case <-time.After(patience):
				t.Fatal("Token() still waiting for a chainctl that never ends")
			}
		})
	}
}
