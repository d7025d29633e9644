package api

import (
	"errors"
	"strings"
	"testing"
)

// TestPlainHTTPOnlyToThisMachine: a token never goes over plain http to a
// host that is not this machine unless the caller allows it; loopback,
// https, and a client without a token are as before.
func TestPlainHTTPOnlyToThisMachine(t *testing.T) {
	t.Parallel()
	token := StaticToken("secret", "test")
	for _, base := range []string{"http://api.example.test", "http://10.0.0.7:8080", "http://127.0.0.1.example.test", "http://[::ffff:8.8.8.8]",
		// Names under localhost, or localhost with a root dot, went to
		// the proxy (Go's proxy rule spares only localhost and loopback
		// addresses) and to the name server.
		"http://api.localhost", "http://foo.localhost:18433", "http://localhost.:9000"} {
		_, err := New(Options{BaseURL: base, TokenSource: token})
		if !errors.Is(err, ErrInsecureHTTP) || !strings.Contains(err.Error(), "unencrypted") {
			t.Errorf("%s: %v, want ErrInsecureHTTP", base, err)
		}
		if _, err := New(Options{BaseURL: base, TokenSource: token, AllowInsecureHTTP: true}); err != nil {
			t.Errorf("%s, allowed: %v", base, err)
		}
		if _, err := New(Options{BaseURL: base}); err != nil {
			t.Errorf("%s, no token: %v", base, err)
		}
	}
	for _, base := range []string{"http://127.0.0.1:8080", "http://127.9.9.9", "http://[::1]:80", "http://localhost:9000", "http://LOCALHOST:9000", "https://api.example.test"} {
		if _, err := New(Options{BaseURL: base, TokenSource: token}); err != nil {
			t.Errorf("%s: %v", base, err)
		}
	}
}
