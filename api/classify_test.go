package api_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"canopy/api"
)

// TestMaybeMade: a change may have been made when the client says its
// outcome is unknown, or when the caller's own deadline ended the wait;
// a refusal or a cancellation says it was not.
func TestMaybeMade(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{&api.TransportError{Method: "POST", Path: "/p", Err: errors.New("EOF")}, true},
		{fmt.Errorf("send: %w", context.DeadlineExceeded), true},
		{&api.Error{Method: "PATCH", HTTPStatus: 400}, false},
		{context.Canceled, false},
	} {
		if got := api.MaybeMade(tc.err); got != tc.want {
			t.Errorf("MaybeMade(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestIsHTTPSURL: the service's rule for sinks and issuers.
func TestIsHTTPSURL(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"https://hooks.example.com/canopy": true,
		"https://h":                        true,
		"http://hooks.example.com":         false,
		"https://":                         false,
		"hooks.example.com":                false,
		"":                                 false,
		"https://a b":                      false,
	} {
		if got := api.IsHTTPSURL(s); got != want {
			t.Errorf("IsHTTPSURL(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestHost: the API address's host and port, for the header.
func TestHost(t *testing.T) {
	t.Parallel()
	c, err := api.New(api.Options{BaseURL: "https://user:pw@console-api.example:8443/base/"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Host() != "console-api.example:8443" {
		t.Errorf("Host() = %q", c.Host())
	}
}
