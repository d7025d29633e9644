package api_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
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
// broken JSON, whether it is a page (streamed as it is decoded) or an error
// (read whole). The answer is one item past the cap, a name of 1 KiB pieces
// with commas between them: commas within a string are text, not values (a
// page of many short items is refused for its count before the cap is
// reached: TestPageFarLongerThanAsked), and what was read of it is dropped.
func TestResponseTooLarge(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("sends 32 MiB")
	}
	piece := strings.Repeat("x", 1023)
	// The most whole pieces under the cap, and one more: just past it.
	body := stream{pre: `{"tags":[{"uid":"o/r/t","name":"`, item: piece, n: api.MaxBody/(len(piece)+1) + 1, post: `"}]}`}
	if body.size() <= api.MaxBody {
		t.Fatalf("the answer is %d bytes, not past the cap of %d", body.size(), api.MaxBody)
	}
	for _, status := range []int{200, 500} {
		c := newClient(t, serveStream(t, status, body), api.Options{Retry: api.NoRetry()})
		_, err := c.ListTags(t.Context(), api.ListOptions{})
		if err == nil || !strings.Contains(err.Error(), "response too large (over 32 MiB)") || strings.Contains(err.Error(), "unexpected end") {
			t.Errorf("HTTP %d with %d bytes: %v", status, body.size(), err)
		}
		if status == 200 && !errors.Is(err, api.ErrResponseTooLarge) {
			t.Errorf("HTTP 200 with %d bytes: %v is not ErrResponseTooLarge", body.size(), err)
		}
	}
}
