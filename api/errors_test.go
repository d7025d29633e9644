package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
)

// TestErrorsFromTheEmulator decodes every detail type from real answers.
func TestErrorsFromTheEmulator(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	platform := must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: e.org, Name: "platform"}))(t).Items[0]
	viewerTok, binding := viewerToken(t, e)
	viewer := newClient(t, e.url, api.Options{TokenSource: static(viewerTok)})
	stranger := newClient(t, e.url, api.Options{TokenSource: static("not-a-known-token")})
	missing := e.org + "/00000000000000ff/0000000000000000"
	badName := func(name string) func() error {
		return func() error { _, err := c.CreateIdentity(ctx, e.org, api.Identity{Name: name}); return err }
	}

	cases := []struct {
		name   string
		call   func() error
		code   api.Code
		status int
		domain string
		prefix string
		check  func(t *testing.T, err error)
	}{
		{"missing repo", func() error { _, err := c.GetRepo(ctx, missing); return err },
			api.CodeNotFound, 404, "registry.chainguard.dev", "Not found: ", func(t *testing.T, err error) {
				ri, _ := api.AsError(err)
				if got := ri.ResourceInfo(); got == nil || got.ResourceType != "chainguard.registry.v2.Repo" || got.ResourceName != missing {
					t.Errorf("ResourceInfo = %+v", got)
				}
				if !api.IsNotFound(err) {
					t.Error("IsNotFound = false")
				}
			}},
		{"identity name missing", badName(""), api.CodeInvalidArgument, 400, "iam.chainguard.dev", "Invalid argument: ", wantField("name")},
		{"identity name upper case", badName("Robot"), api.CodeInvalidArgument, 400, "iam.chainguard.dev", "Invalid argument: ", wantField("name")},
		{"identity name with a slash", badName("a/b"), api.CodeInvalidArgument, 400, "iam.chainguard.dev", "Invalid argument: ", wantField("name")},
		{"identity name too long", badName(strings.Repeat("a", 64)), api.CodeInvalidArgument, 400, "iam.chainguard.dev", "Invalid argument: ", wantField("name")},
		{"unknown order", func() error { _, err := c.ListRepos(ctx, api.ListOptions{OrderBy: "colour"}); return err },
			api.CodeInvalidArgument, 400, "registry.chainguard.dev", "Invalid argument: ", wantField("order_by")},
		{"group not empty", func() error { return c.DeleteGroup(ctx, platform.UID) },
			api.CodeFailedPrecondition, 400, "iam.chainguard.dev", "Precondition failed: ", func(t *testing.T, err error) {
				vs := api.PreconditionViolations(err)
				if len(vs) == 0 {
					t.Fatal("no precondition violations")
				}
				for _, v := range vs {
					if v.Type != "RESOURCE_NOT_EMPTY" || v.Subject != platform.UID || v.Description == "" {
						t.Errorf("violation = %+v", v)
					}
				}
				if !api.IsFailedPrecondition(err) {
					t.Error("IsFailedPrecondition = false")
				}
			}},
		{"duplicate group", func() error { _, err := c.CreateGroup(ctx, e.org, api.Group{Name: "platform"}); return err },
			api.CodeAlreadyExists, 409, "iam.chainguard.dev", "Already exists: ", nil},
		{"viewer creates a group", func() error { _, err := viewer.CreateGroup(ctx, e.org, api.Group{Name: "nope"}); return err },
			api.CodePermissionDenied, 403, "iam.chainguard.dev", "Permission denied: ", func(t *testing.T, err error) {
				if !api.IsPermissionDenied(err) || !strings.Contains(err.Error(), binding.Identity.Name) {
					t.Errorf("IsPermissionDenied = %v for %v, want true, naming %q", api.IsPermissionDenied(err), err, binding.Identity.Name)
				}
			}},
		{"viewer patches a repo", func() error {
			_, err := viewer.PatchRepo(ctx, api.Repo{UID: repoNamed(t, e, "go").UID, Description: "x"}, api.FieldDescription)
			return err
		}, api.CodePermissionDenied, 403, "registry.chainguard.dev", "Permission denied: ", nil},
		{"unknown token", func() error { _, err := stranger.ListGroups(ctx, api.ListOptions{}); return err },
			api.CodeUnauthenticated, 401, "iam.chainguard.dev", "Unauthenticated: ", func(t *testing.T, err error) {
				if !api.IsUnauthenticated(err) || strings.Contains(err.Error(), "not-a-known-token") {
					t.Errorf("err = %v, want UNAUTHENTICATED without the token", err)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			apiErr, ok := api.AsError(err)
			if !ok {
				t.Fatalf("err = %v (%T), want an *api.Error", err, err)
			}
			if apiErr.Code != tc.code || apiErr.HTTPStatus != tc.status || api.CodeOf(err) != tc.code {
				t.Errorf("code %v, HTTP %d; want %v, %d", apiErr.Code, apiErr.HTTPStatus, tc.code, tc.status)
			}
			if info := apiErr.ErrorInfo(); info == nil || info.Reason != tc.code.String() || info.Domain != tc.domain {
				t.Errorf("ErrorInfo = %+v, want reason %s in %s", info, tc.code, tc.domain)
			}
			if !strings.HasPrefix(apiErr.Message, tc.prefix) || !strings.Contains(err.Error(), apiErr.Path) {
				t.Errorf("message %q, error %q; want the prefix %q and the path", apiErr.Message, err, tc.prefix)
			}
			if strings.Contains(err.Error(), adminToken) || strings.Contains(err.Error(), viewerTok) {
				t.Errorf("the error shows a token: %v", err)
			}
			if tc.check != nil {
				tc.check(t, err)
			}
		})
	}
	if _, err := viewer.ListRepos(ctx, api.ListOptions{DescendantsOf: e.org}); err != nil {
		t.Errorf("the viewer cannot list repos: %v", err)
	}
}

func wantField(field string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		vs := api.FieldViolations(err)
		if len(vs) != 1 || vs[0].Field != field || vs[0].Description == "" {
			t.Errorf("field violations = %+v, want one on %q", vs, field)
		}
		if !api.IsInvalidArgument(err) {
			t.Error("IsInvalidArgument = false")
		}
	}
}

// answer is a handler that always sends one canned response.
func answer(status int, header map[string]string, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	})
}

// TestErrorsFromOtherServers: answers that are not AIP-193 statuses still
// give errors with the HTTP status, and never the token.
func TestErrorsFromOtherServers(t *testing.T) {
	t.Parallel()
	// A date is read against the clock when the answer comes: what it
	// leaves is checked against what is left of it after the call, which
	// a loaded machine's delay can only shorten.
	until := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	future := until.Format(http.TimeFormat)
	html := map[string]string{"Content-Type": "text/html; charset=utf-8"}
	jsonCT := map[string]string{"Content-Type": "application/json"}
	cases := []struct {
		name       string
		h          http.Handler
		code       api.Code
		status     int
		says       []string
		retryAfter time.Duration // at least this much; -1: what is left until `until`
	}{
		{"proxy page", answer(502, html, "<html><body>Bad Gateway</body></html>"), api.CodeUnavailable, 502, []string{"HTTP 502", "text/html"}, 0},
		{"empty body", answer(500, nil, ""), api.CodeUnknown, 500, []string{"HTTP 500", "empty body"}, 0},
		{"JSON, not a status", answer(400, jsonCT, `[1,2,3]`), api.CodeInvalidArgument, 400, []string{"HTTP 400", "[1,2,3]"}, 0},
		{"status without code", answer(403, jsonCT, `{"message":"Permission denied: go away"}`), api.CodePermissionDenied, 403, []string{"go away"}, 0},
		{"status with code", answer(404, jsonCT, `{"code":5,"message":"Not found: x"}`), api.CodeNotFound, 404, []string{"Not found: x"}, 0},
		{"busy, seconds", answer(429, map[string]string{"Retry-After": "7"}, ""), api.CodeResourceExhausted, 429, []string{"HTTP 429"}, 7 * time.Second},
		{"busy, date", answer(503, map[string]string{"Retry-After": future}, ""), api.CodeUnavailable, 503, []string{"HTTP 503"}, -1},
		{"busy, absurd seconds", answer(429, map[string]string{"Retry-After": "99999999999999999"}, ""), api.CodeResourceExhausted, 429, []string{"HTTP 429"}, 24 * time.Hour},
		{"echoing proxy", answer(400, map[string]string{"Content-Type": "text/plain"}, "bad request; you sent Authorization: Bearer "+adminToken),
			api.CodeInvalidArgument, 400, []string{"HTTP 400"}, 0},
		{"echoing JSON", answer(400, jsonCT, `{"error":"bad header Authorization: Bearer `+adminToken+`"}`),
			api.CodeInvalidArgument, 400, []string{"HTTP 400", "[redacted]"}, 0},
		{"echoing API", answer(401, jsonCT, `{"code":16,"message":"Unauthenticated: token `+adminToken+` has expired"}`),
			api.CodeUnauthenticated, 401, []string{"has expired"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, serve(t, tc.h), api.Options{TokenSource: static(adminToken), Retry: api.NoRetry()})
			_, err := c.GetTag(t.Context(), "org/repo/tag")
			apiErr, ok := api.AsError(err)
			if !ok {
				t.Fatalf("err = %v (%T), want an *api.Error", err, err)
			}
			if apiErr.Code != tc.code || apiErr.HTTPStatus != tc.status {
				t.Errorf("code %v, HTTP %d; want %v, %d", apiErr.Code, apiErr.HTTPStatus, tc.code, tc.status)
			}
			for _, s := range append(tc.says, "GET /registry/v2/tags/org/repo/tag") {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			want := tc.retryAfter
			if want < 0 {
				want = time.Until(until)
			}
			if apiErr.RetryAfter < want || (want == 0 && apiErr.RetryAfter != 0) {
				t.Errorf("RetryAfter = %v, want %v", apiErr.RetryAfter, want)
			}
			if s := fmt.Sprintf("%v %+v", err, apiErr); strings.Contains(s, adminToken) {
				t.Errorf("the error shows the token: %s", s)
			}
		})
	}
}

// TestUndecodableSuccess: a 2xx whose body is not the JSON expected is a
// *DecodeError, not an empty result.
func TestUndecodableSuccess(t *testing.T) {
	t.Parallel()
	jsonCT := map[string]string{"Content-Type": "application/json"}
	cases := []struct {
		name string
		body string
		call func(context.Context, *api.Client) error
	}{
		{"truncated list", `{"tags":[{"uid":"a/b","name":"lat`, func(ctx context.Context, c *api.Client) error {
			_, err := c.ListTags(ctx, api.ListOptions{})
			return err
		}},
		{"items not an array", `{"tags":"none","totalCount":"3"}`, func(ctx context.Context, c *api.Client) error {
			_, err := c.ListTags(ctx, api.ListOptions{})
			return err
		}},
		{"bad total", `{"tags":[],"totalCount":"many"}`, func(ctx context.Context, c *api.Client) error {
			_, err := c.ListTags(ctx, api.ListOptions{})
			return err
		}},
		{"truncated resource", `{"uid":"a/b","name":"pyt`, func(ctx context.Context, c *api.Client) error {
			_, err := c.GetRepo(ctx, "a/b")
			return err
		}},
		{"html page", `<html>Welcome to the captive portal</html>`, func(ctx context.Context, c *api.Client) error {
			_, err := c.GetRepo(ctx, "a/b")
			return err
		}},
		{"empty resource", ``, func(ctx context.Context, c *api.Client) error {
			_, err := c.GetRepo(ctx, "a/b")
			return err
		}},
		{"empty list", ``, func(ctx context.Context, c *api.Client) error {
			_, err := c.ListRepos(ctx, api.ListOptions{})
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, serve(t, answer(200, jsonCT, tc.body)), api.Options{Retry: api.NoRetry()})
			err := tc.call(t.Context(), c)
			var de *api.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v (%T), want a *api.DecodeError", err, err)
			}
			if de.Method != "GET" || !strings.Contains(err.Error(), de.Path) || !strings.Contains(err.Error(), "not valid JSON") {
				t.Errorf("error = %q", err)
			}
			if !strings.HasPrefix(tc.body, de.Snippet) || (tc.body != "" && de.Snippet == "") {
				t.Errorf("snippet %q is not the start of the body", de.Snippet)
			}
		})
	}
	for _, body := range []string{"", "{}"} { // a successful DELETE answers either
		c := newClient(t, serve(t, answer(200, jsonCT, body)), api.Options{Retry: api.NoRetry()})
		if err := c.DeleteTag(t.Context(), "a/b/c"); err != nil {
			t.Errorf("DeleteTag answered %q: %v", body, err)
		}
	}
}

func TestCodes(t *testing.T) {
	t.Parallel()
	// API.md's table, both ways where it is one to one.
	for code, status := range map[api.Code]int{
		api.CodeInvalidArgument: 400, api.CodeFailedPrecondition: 400, api.CodeOutOfRange: 400,
		api.CodeUnauthenticated: 401, api.CodePermissionDenied: 403, api.CodeNotFound: 404,
		api.CodeAlreadyExists: 409, api.CodeAborted: 409, api.CodeResourceExhausted: 429,
		api.CodeInternal: 500, api.CodeUnknown: 500, api.CodeUnavailable: 503, api.CodeDeadlineExceeded: 504,
	} {
		if got := code.HTTPStatus(); got != status {
			t.Errorf("%v.HTTPStatus() = %d, want %d", code, got, status)
		}
	}
	for status, code := range map[int]api.Code{400: api.CodeInvalidArgument, 401: api.CodeUnauthenticated,
		403: api.CodePermissionDenied, 404: api.CodeNotFound, 429: api.CodeResourceExhausted,
		502: api.CodeUnavailable, 503: api.CodeUnavailable, 504: api.CodeDeadlineExceeded, 418: api.CodeUnknown} {
		if got := api.CodeForHTTPStatus(status); got != code {
			t.Errorf("CodeForHTTPStatus(%d) = %v, want %v", status, got, code)
		}
	}
	if s := api.Code(99).String(); s != "CODE(99)" {
		t.Errorf("Code(99) = %q", s)
	}
	wrapped := fmt.Errorf("loading: %w", &api.Error{Status: api.Status{Code: api.CodeNotFound}})
	if !api.IsNotFound(wrapped) || api.CodeOf(nil) != api.CodeOK || api.CodeOf(errors.New("x")) != api.CodeUnknown {
		t.Error("CodeOf does not look through wrapping, or misreads nil and plain errors")
	}
	if api.FieldViolations(errors.New("x")) != nil || api.PreconditionViolations(nil) != nil {
		t.Error("violations of a plain error are not nil")
	}
}

func TestDetailsRoundTrip(t *testing.T) {
	t.Parallel()
	in := api.Status{Code: api.CodeInvalidArgument, Message: "Invalid argument: many things", Details: []api.Detail{
		{Type: api.TypeErrorInfo, ErrorInfo: &api.ErrorInfo{Reason: "INVALID_ARGUMENT", Domain: "iam.chainguard.dev", Metadata: map[string]string{"k": "v"}}},
		{Type: api.TypeBadRequest, BadRequest: &api.BadRequest{FieldViolations: []api.FieldViolation{{Field: "name", Description: "bad"}}}},
		{Type: api.TypePreconditionFailure, PreconditionFailure: &api.PreconditionFailure{Violations: []api.PreconditionViolation{{Type: "RESOURCE_NOT_EMPTY", Subject: "g", Description: "d"}}}},
		{Type: api.TypeResourceInfo, ResourceInfo: &api.ResourceInfo{ResourceType: "t", ResourceName: "n", Owner: "o", Description: "d"}},
		{Type: "type.googleapis.com/google.rpc.DebugInfo"},
	}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":`) {
		t.Errorf("wire form: %s", b)
	}
	var out api.Status
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip:\n got %+v\nwant %+v", out, in)
	}
}
