package api_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"canopy/api"
)

// TestMalformedDetailKeepsTheRest: one detail that does not decode (its
// fieldViolations not an array) loses only itself: the code, the message
// and the other details are kept.
func TestMalformedDetailKeepsTheRest(t *testing.T) {
	t.Parallel()
	body := `{"code":3,"message":"Invalid argument: name is required","details":[` +
		`{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":"name"},` +
		`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INVALID_ARGUMENT","domain":"iam.chainguard.dev"},` +
		`null,` +
		`{"@type":"type.googleapis.com/google.rpc.ResourceInfo","resourceName":7},` +
		`{"@type":"type.googleapis.com/google.rpc.PreconditionFailure","violations":[{"type":"RESOURCE_NOT_EMPTY","subject":"g"}]}]}`
	c := newClient(t, serve(t, answer(400, map[string]string{"Content-Type": "application/json"}, body)), api.Options{Retry: api.NoRetry()})
	_, err := c.GetGroup(t.Context(), "g")
	apiErr, ok := api.AsError(err)
	if !ok || apiErr.Code != api.CodeInvalidArgument || apiErr.Message != "Invalid argument: name is required" {
		t.Fatalf("err = %v (%+v), want code 3 and the server's message", err, apiErr)
	}
	if ei := apiErr.ErrorInfo(); ei == nil || ei.Reason != "INVALID_ARGUMENT" {
		t.Errorf("ErrorInfo = %+v", ei)
	}
	if v := api.PreconditionViolations(err); len(v) != 1 || v[0].Type != "RESOURCE_NOT_EMPTY" {
		t.Errorf("PreconditionViolations = %+v", v)
	}
	if len(apiErr.Details) != 4 || apiErr.Details[0].Type != api.TypeBadRequest || apiErr.Details[0].BadRequest != nil {
		t.Errorf("details = %+v, want 4 with the broken BadRequest kept by its type", apiErr.Details)
	}
	// A code of the wrong type is dropped, not the whole status.
	c = newClient(t, serve(t, answer(404, nil, `{"code":"NOT_FOUND","message":"Not found: group g"}`)), api.Options{Retry: api.NoRetry()})
	_, err = c.GetGroup(t.Context(), "g")
	if apiErr, ok := api.AsError(err); !ok || apiErr.Code != api.CodeNotFound || apiErr.Message != "Not found: group g" {
		t.Errorf("string code: %v", err)
	}
}

// escapeJSON writes every character of s as a \u escape.
func escapeJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// TestEscapedTokenIsRedacted: a token the server echoes with JSON escapes
// (which hide it from a search of the raw body), or any JWT, shows neither
// in the error nor in the debug log.
func TestEscapedTokenIsRedacted(t *testing.T) {
	t.Parallel()
	const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
	esc := escapeJSON(adminToken)
	jsonCT := map[string]string{"Content-Type": "application/json"}
	cases := map[string]string{
		"message": `{"code":16,"message":"Unauthenticated: token ` + esc + ` expired"}`,
		"details": `{"code":3,"message":"Invalid argument","details":[` +
			`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"X","metadata":{"authorization":"Bearer ` + esc + `","` + esc + `":"key"}},` +
			`{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"token","description":"` + esc + ` and ` + jwt + `"}]},` +
			`{"@type":"type.googleapis.com/google.rpc.PreconditionFailure","violations":[{"subject":"` + esc + `"}]},` +
			`{"@type":"type.googleapis.com/google.rpc.ResourceInfo","resourceName":"` + esc + `","description":"` + jwt + `"}]}`,
		"other JSON": `{"error":{"sent":"Bearer ` + esc + `","jwt":"` + jwt + `"}}`,
		"a JWT":      `{"code":16,"message":"Unauthenticated: ` + jwt + ` is not yours"}`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			var log bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
			h := failFirst(0, 0, "", answer(503, jsonCT, body)) // always 503: retried, so logged
			c := newClient(t, serve(t, h), api.Options{TokenSource: static(adminToken), Retry: fast, Logger: logger})
			_, err := c.GetGroup(t.Context(), "g")
			apiErr, ok := api.AsError(err)
			if !ok {
				t.Fatalf("err = %v", err)
			}
			status, _ := json.Marshal(apiErr.Status)
			shown := fmt.Sprintf("%v %s %s", err, status, log.String())
			for _, secret := range []string{adminToken, jwt, "eyJ"} {
				if strings.Contains(shown, secret) {
					t.Errorf("%q shows in the error or the log: %s", secret, shown)
				}
			}
			if !strings.Contains(err.Error()+string(status), "[redacted]") {
				t.Errorf("nothing says [redacted]: %v %s", err, status)
			}
		})
	}
}

// TestResponseTooLarge: an answer over 32 MiB is named as such, not as
// broken JSON.
func TestResponseTooLarge(t *testing.T) {
	t.Parallel()
	big := func(status int) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			// One long item: a page of many short ones is refused for its
			// count before the cap is reached (TestPageFarLongerThanAsked).
			_, _ = w.Write([]byte(`{"tags":[{"uid":"o/r/t","name":"`))
			chunk := []byte(strings.Repeat("x", 32<<10))
			for n := 0; n <= 33<<20; n += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		})
	}
	for _, status := range []int{200, 500} {
		c := newClient(t, serve(t, big(status)), api.Options{Retry: api.NoRetry()})
		_, err := c.ListTags(t.Context(), api.ListOptions{})
		if err == nil || !strings.Contains(err.Error(), "response too large (over 32 MiB)") || strings.Contains(err.Error(), "unexpected end") {
			t.Errorf("HTTP %d with 33 MiB: %v", status, err)
		}
		if status == 200 && !errors.Is(err, api.ErrResponseTooLarge) {
			t.Errorf("HTTP 200 with 33 MiB: %v is not ErrResponseTooLarge", err)
		}
	}
}
