package api_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

// stream is an answer's body: pre, then n copies of item joined by commas,
// then post. It is written as it is sent, never held whole: a client that
// stops reading tens of MB early (as it must past a bound) costs the test
// only what it read, and none costs it the building of the body.
type stream struct {
	pre, item, post string
	n               int
}

// size is the body's length in bytes.
func (s stream) size() int {
	if s.n == 0 {
		return len(s.pre) + len(s.post)
	}
	return len(s.pre) + s.n*(len(s.item)+1) - 1 + len(s.post)
}

// writeTo writes the body to w, a few hundred KB at a time, until w fails.
func (s stream) writeTo(w io.Writer) error {
	if _, err := io.WriteString(w, s.pre); err != nil || s.n == 0 {
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, s.post)
		return err
	}
	if _, err := io.WriteString(w, s.item); err != nil {
		return err
	}
	per := max(1, (256<<10)/(len(s.item)+1))
	chunk := strings.Repeat(","+s.item, min(per, s.n-1))
	for left := s.n - 1; left > 0; left -= per {
		part := chunk
		if left < per {
			part = chunk[:left*(len(s.item)+1)]
		}
		if _, err := io.WriteString(w, part); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, s.post)
	return err
}

// bytes is the whole body, for a small one.
func (s stream) bytes() []byte {
	var b bytes.Buffer
	b.Grow(s.size())
	_ = s.writeTo(&b)
	return b.Bytes()
}

// repeated is pre, then n copies of item joined by commas, then post.
func repeated(pre, item string, n int, post string) []byte {
	return stream{pre: pre, item: item, n: n, post: post}.bytes()
}

// serveStream answers every request with the stream and status.
func serveStream(t *testing.T, status int, s stream) string {
	t.Helper()
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(s.size()))
		w.WriteHeader(status)
		_ = s.writeTo(w)
	}))
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
		body   stream
		call   func(*api.Client) error
	}{
		{"advisory events", 200, stream{`{"advisories":[{"uid":"a","events":[`, `{}`, `]}]}`, n},
			func(c *api.Client) error { _, err := c.ListAdvisories(t.Context(), api.ListOptions{}); return err }},
		{"tag bundles", 200, stream{`{"tags":[{"bundles":[`, `""`, `]}]}`, n},
			func(c *api.Client) error { _, err := c.ListTags(t.Context(), api.ListOptions{}); return err }},
		{"group resource limits", 200, stream{`{"groups":[{"resourceLimits":{`, `"k":1`, `}}]}`, n / 2},
			func(c *api.Client) error { _, err := c.ListGroups(t.Context(), api.ListOptions{}); return err }},
		{"repo activeTags", 200, stream{`{"uid":"a/b","activeTags":[`, `""`, `]}`, n},
			func(c *api.Client) error { _, err := c.GetRepo(t.Context(), "a/b"); return err }},
		{"error details", 400, stream{`{"code":3,"message":"no","details":[`, `{}`, `]}`, n},
			func(c *api.Client) error { _, err := c.GetRepo(t.Context(), "a/b"); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, serveStream(t, tc.status, tc.body), api.Options{Retry: api.NoRetry()})
			var err error
			took, alloc := measured(func() { err = tc.call(c) })
			t.Logf("%.0f MB answer: %v, %.1f MB allocated: %v", float64(tc.body.size())/1e6, took.Round(time.Millisecond), float64(alloc)/1e6, err)
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
