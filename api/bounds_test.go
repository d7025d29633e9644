package api_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

// repeated is pre, then n copies of item joined by commas, then post.
func repeated(pre, item string, n int, post string) []byte {
	var b bytes.Buffer
	b.WriteString(pre)
	if n > 0 {
		b.WriteString(item)
		b.Write(bytes.Repeat([]byte(","+item), n-1))
	}
	b.WriteString(post)
	return b.Bytes()
}

// serveStatus answers every request with body and status.
func serveStatus(t *testing.T, status int, body []byte) string {
	t.Helper()
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
}

// TestAnswerTooManyValues: a few items (or none, or an error) may hold
// millions of values within the 32 MiB cap, and each value may decode to
// far more than its bytes: ten million `{}` events in one advisory took
// 113 s and allocated 16.5 GB, ten million details in a 400 answer 60 s
// and 7.8 GB, ten million "" in a repo's activeTags 2.4 s and 0.9 GB. An
// answer is now read only up to 100,000 values and refused undecoded.
func TestAnswerTooManyValues(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 30 MB answers")
	}
	const n = 10_000_000
	// The bound is on bytes, not time: what a refusal before decoding
	// saves is memory, and a loaded machine takes longer either way.
	const maxAlloc = 16 << 20
	for _, tc := range []struct {
		name   string
		status int
		body   []byte
		call   func(*api.Client) error
	}{
		{"advisory events", 200, repeated(`{"advisories":[{"uid":"a","events":[`, `{}`, n, `]}]}`),
			func(c *api.Client) error { _, err := c.ListAdvisories(t.Context(), api.ListOptions{}); return err }},
		{"tag bundles", 200, repeated(`{"tags":[{"bundles":[`, `""`, n, `]}]}`),
			func(c *api.Client) error { _, err := c.ListTags(t.Context(), api.ListOptions{}); return err }},
		{"group resource limits", 200, repeated(`{"groups":[{"resourceLimits":{`, `"k":1`, n/2, `}}]}`),
			func(c *api.Client) error { _, err := c.ListGroups(t.Context(), api.ListOptions{}); return err }},
		{"repo activeTags", 200, repeated(`{"uid":"a/b","activeTags":[`, `""`, n, `]}`),
			func(c *api.Client) error { _, err := c.GetRepo(t.Context(), "a/b"); return err }},
		{"error details", 400, repeated(`{"code":3,"message":"no","details":[`, `{}`, n, `]}`),
			func(c *api.Client) error { _, err := c.GetRepo(t.Context(), "a/b"); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, serveStatus(t, tc.status, tc.body), api.Options{Retry: api.NoRetry()})
			var err error
			took, alloc := measured(func() { err = tc.call(c) })
			t.Logf("%.0f MB answer: %v, %.1f MB allocated: %v", float64(len(tc.body))/1e6, took.Round(time.Millisecond), float64(alloc)/1e6, err)
			if tc.status == 200 && !errors.Is(err, api.ErrTooManyValues) {
				t.Fatalf("err = %v, want ErrTooManyValues", err)
			}
			if apiErr, ok := api.AsError(err); tc.status != 200 && (!ok || apiErr.HTTPStatus != tc.status || apiErr.Code != api.CodeInvalidArgument ||
				len(apiErr.Details) != 0 || !strings.Contains(err.Error(), "HTTP 400 Bad Request with a body not read: more than 100000 values")) {
				t.Fatalf("err = %v, want an HTTP 400 whose body was not read", err)
			}
			if alloc > maxAlloc {
				t.Errorf("allocated %.1f MB, want under %d MB", float64(alloc)/1e6, maxAlloc>>20)
			}
		})
	}
}

// TestAnswerValuesCountedExactly: the bound is on values, not bytes or
// punctuation: 100,000 values are read (commas and brackets within strings,
// empty lists and objects, and space count for nothing), one more is not.
func TestAnswerValuesCountedExactly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tags int // beside them, three members: activeTags, bundles and x
		ok   bool
	}{{99_997, true}, {99_998, false}} {
		t.Run(fmt.Sprint(tc.tags), func(t *testing.T) {
			body := repeated(`{ "activeTags" : [ `, `"x,\"[{"`, tc.tags-1, ` , "" ] , "bundles":[ ], "x":{}}`)
			c := newClient(t, serveStatus(t, 200, body), api.Options{Retry: api.NoRetry()})
			r, err := c.GetRepo(t.Context(), "a/b")
			if tc.ok {
				if err != nil || len(r.ActiveTags) != tc.tags || r.ActiveTags[0] != `x,"[{` {
					t.Fatalf("GetRepo: %v", err)
				}
				return
			}
			if !errors.Is(err, api.ErrTooManyValues) {
				t.Fatalf("err = %v, want ErrTooManyValues", err)
			}
		})
	}
}
