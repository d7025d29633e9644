package api_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"canopy/api"
	"canopy/api/emulator"
)

// fast retries quickly so that tests do not wait, and counts attempts,
// not time: a loaded machine's slow attempts do not end its retries.
var fast = api.RetryPolicy{MaxAttempts: 10, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, MaxElapsed: patience}

// failFirst answers the first n requests with an AIP-193 error of this HTTP
// status (and Retry-After when given), then hands requests to next.
func failFirst(n int, status int, retryAfter string, next http.Handler) http.Handler {
	var seen atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) > int64(n) {
			next.ServeHTTP(w, r)
			return
		}
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		code := api.CodeForHTTPStatus(status)
		_, _ = fmt.Fprintf(w, `{"code":%d,"message":"%s (injected)"}`, code, code)
	})
}

// hangUp closes the connection without answering.
func hangUp(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

// hangUpFirst drops the connection of the first n requests.
func hangUpFirst(n int, next http.Handler) http.Handler {
	var seen atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) <= int64(n) {
			hangUp(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// freshTransport is a client with its own connection pool: the first request
// opens a new connection, which net/http never retries by itself, so every
// extra request a server sees is the api client's doing.
func freshTransport(t *testing.T) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

func TestRetriesThroughInjectedFaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{FailRate: 0.3}, api.Options{Retry: fast})
	py := repoNamed(t, e, "python")
	e.rec.reset()
	const calls = 40
	for i := range calls {
		if i%2 == 0 {
			if got := must(e.client.GetRepo(t.Context(), py.UID))(t); got.Name != "python" {
				t.Fatalf("GetRepo = %+v", got)
			}
		} else if p := must(e.client.ListTags(t.Context(), api.ListOptions{ChildrenOf: py.UID}))(t); len(p.Items) != 50 {
			t.Fatalf("ListTags: %d items", len(p.Items))
		}
	}
	attempts := e.rec.count()
	if attempts <= calls {
		t.Errorf("%d attempts for %d calls at a 30%% fault rate, want retries", attempts, calls)
	}
	t.Logf("%d calls took %d attempts", calls, attempts)
}

// TestRetryAfterIsHonoured: the server's Retry-After is waited, capped by
// MaxDelay. Uncapped, its hour would pass MaxElapsed and the call would
// not be retried at all.
func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()
	rec := &recorder{next: failFirst(1, 429, "3600", answer(200, nil, `{"uid":"a/b","name":"b"}`))}
	policy := api.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 300 * time.Millisecond, MaxElapsed: patience}
	c := newClient(t, serve(t, rec), api.Options{Retry: policy})
	if got := must(c.GetRepo(t.Context(), "a/b"))(t); got.Name != "b" {
		t.Errorf("GetRepo = %+v", got)
	}
	reqs := rec.all()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	// The backoff alone is at most 1 ms: a wait of MaxDelay means the
	// server's Retry-After was followed. (A loaded machine only waits
	// longer.)
	if gap := reqs[1].At.Sub(reqs[0].At); gap < policy.MaxDelay {
		t.Errorf("retried after %v, want at least %v (Retry-After capped by MaxDelay)", gap, policy.MaxDelay)
	}
}

func TestCreatesAndPatchesAreNeverRetried(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	calls := map[string]func(*api.Client) error{
		"CreateGroup":    func(c *api.Client) error { _, err := c.CreateGroup(ctx, "o", api.Group{Name: "g"}); return err },
		"CreateRepo":     func(c *api.Client) error { _, err := c.CreateRepo(ctx, "o", api.Repo{Name: "r"}); return err },
		"CreateIdentity": func(c *api.Client) error { _, err := c.CreateIdentity(ctx, "o", api.Identity{Name: "i"}); return err },
		"CreateRoleBinding": func(c *api.Client) error {
			_, err := c.CreateRoleBinding(ctx, "o", api.CreateRoleBinding{})
			return err
		},
		"CreateTag":          func(c *api.Client) error { _, err := c.CreateTag(ctx, "o/r", "t", "sha256:0"); return err },
		"CreateSubscription": func(c *api.Client) error { _, err := c.CreateSubscription(ctx, "o", api.Subscription{}); return err },
		"PatchRepo":          func(c *api.Client) error { _, err := c.PatchRepo(ctx, api.Repo{UID: "o/r"}, "name"); return err },
		"PatchGroup":         func(c *api.Client) error { _, err := c.PatchGroup(ctx, api.Group{UID: "o"}, "name"); return err },
		"PatchIdentity": func(c *api.Client) error {
			_, err := c.PatchIdentity(ctx, api.Identity{UID: "o/i"}, "description")
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			for _, fault := range []struct {
				name string
				h    http.Handler
			}{
				{"503", failFirst(1, 503, "", answer(200, nil, `{}`))},
				{"hang-up", hangUpFirst(1, answer(200, nil, `{}`))},
			} {
				rec := &recorder{next: fault.h}
				c := newClient(t, serve(t, rec), api.Options{Retry: fast, HTTPClient: freshTransport(t)})
				err := call(c)
				if err == nil {
					t.Errorf("%s: no error", fault.name)
				}
				if n := rec.count(); n != 1 {
					t.Errorf("%s: %d requests, want exactly 1", fault.name, n)
				}
				// A 503 says the change was not made; a lost answer does not.
				if got, want := api.OutcomeUnknown(err), fault.name == "hang-up"; got != want {
					t.Errorf("%s: OutcomeUnknown(%v) = %v, want %v", fault.name, err, got, want)
				}
			}
		})
	}
}

// TestGetsAndDeletesAreRetried: a GET is retried after a 503 and after a
// lost connection; a DELETE only after the 503, which says it did not run.
func TestGetsAndDeletesAreRetried(t *testing.T) {
	t.Parallel()
	for _, fault := range []string{"503", "hang-up"} {
		t.Run(fault, func(t *testing.T) {
			e := newEnv(t, emulator.Options{}, api.Options{})
			py := repoNamed(t, e, "python")
			tg := must(e.client.ListTags(t.Context(), api.ListOptions{ChildrenOf: py.UID, PageSize: 1}))(t).Items[0]
			// The first request of each method fails.
			var mu sync.Mutex
			failed := map[string]bool{}
			rec := &recorder{next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				first := !failed[r.Method]
				failed[r.Method] = true
				mu.Unlock()
				switch {
				case !first:
					e.srv.ServeHTTP(w, r)
				case fault == "503":
					failFirst(1, 503, "", nil).ServeHTTP(w, r)
				default:
					hangUp(w)
				}
			})}
			c := newClient(t, serve(t, rec), api.Options{TokenSource: static(adminToken), Retry: fast, HTTPClient: freshTransport(t)})
			if got := must(c.GetTag(t.Context(), tg.UID))(t); got.Name != tg.Name {
				t.Errorf("GetTag = %+v", got)
			}
			if n := rec.count(); n != 2 {
				t.Errorf("GET: %d requests, want 2", n)
			}
			err := c.DeleteTag(t.Context(), tg.UID)
			if fault == "hang-up" {
				// The request may have run: not sent again, and said so.
				if !api.OutcomeUnknown(err) || rec.count() != 3 {
					t.Errorf("DeleteTag after a hang-up: %v (OutcomeUnknown %v), %d requests in all; want unknown and 3",
						err, api.OutcomeUnknown(err), rec.count())
				}
				return
			}
			if err != nil {
				t.Fatalf("DeleteTag: %v", err)
			}
			if n := rec.count(); n != 4 {
				t.Errorf("GET and DELETE: %d requests, want 4", n)
			}
			if _, err := e.client.GetTag(t.Context(), tg.UID); !api.IsNotFound(err) {
				t.Errorf("the tag is still there: %v", err)
			}
		})
	}
}

// TestLostDeleteAnswer: a DELETE that did its work but lost its answer is
// not sent again (a proxy that drops answers saw four DELETEs): its error
// says the outcome is unknown, and a refresh shows what happened.
func TestLostDeleteAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	sub := must(e.client.ListSubscriptions(t.Context(), api.ListOptions{DescendantsOf: e.org}))(t).Items[0]
	rec := &recorder{next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.srv.ServeHTTP(httptest.NewRecorder(), r) // the delete happens...
		hangUp(w)                                  // ...and its answer is lost
	})}
	c := newClient(t, serve(t, rec), api.Options{TokenSource: static(adminToken), Retry: fast, HTTPClient: freshTransport(t)})
	err := c.DeleteSubscription(t.Context(), sub.UID)
	if err == nil || !api.OutcomeUnknown(err) {
		t.Errorf("DeleteSubscription: %v (OutcomeUnknown %v), want an unknown outcome", err, api.OutcomeUnknown(err))
	}
	if n := rec.count(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if _, err := e.client.GetSubscription(t.Context(), sub.UID); !api.IsNotFound(err) {
		t.Errorf("after the lost answer: %v, want NOT_FOUND (it was deleted)", err)
	}
	// A plain NOT_FOUND is an answer: an error, and not an unknown outcome.
	if err := e.client.DeleteSubscription(t.Context(), sub.UID); !api.IsNotFound(err) || api.OutcomeUnknown(err) {
		t.Errorf("second DeleteSubscription: %v, want NOT_FOUND", err)
	}
}

func TestRetriesAreBounded(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name           string
		h              http.Handler
		policy         api.RetryPolicy
		minReq, maxReq int
	}{
		{"MaxAttempts", failFirst(1000, 503, "", nil), api.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxElapsed: patience}, 3, 3},
		{"default attempts", failFirst(1000, 504, "", nil), api.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: time.Millisecond,
			MaxElapsed: patience}, 4, 4},
		{"NoRetry", failFirst(1000, 503, "", nil), api.NoRetry(), 1, 1},
		// Every wait is MaxDelay (Retry-After is longer): tries at 0, 40
		// and 80 ms at the most, fewer on a slow machine; not 100
		// (TestRetryStopsPastMaxElapsed holds the bound exactly).
		{"MaxElapsed", failFirst(1000, 429, "1", nil), api.RetryPolicy{MaxAttempts: 100, BaseDelay: time.Millisecond,
			MaxDelay: 40 * time.Millisecond, MaxElapsed: 100 * time.Millisecond}, 1, 3},
		{"not found is final", failFirst(1000, 404, "", nil), fast, 1, 1},
		{"bad request is final", failFirst(1000, 400, "", nil), fast, 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{next: tc.h}
			c := newClient(t, serve(t, rec), api.Options{Retry: tc.policy})
			_, err := c.GetRepo(t.Context(), "a/b")
			if _, ok := api.AsError(err); !ok {
				t.Errorf("err = %v, want the last *api.Error", err)
			}
			if n := rec.count(); n < tc.minReq || n > tc.maxReq {
				t.Errorf("%d requests, want %d to %d", n, tc.minReq, tc.maxReq)
			}
		})
	}
}

// rotatingTokens hands out its tokens in turn, moving on when invalidated.
type rotatingTokens struct {
	mu                     sync.Mutex
	toks                   []string
	fetches, invalidations int
}

func (s *rotatingTokens) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fetches++
	return &oauth2.Token{AccessToken: s.toks[min(s.invalidations, len(s.toks)-1)]}, nil
}

func (s *rotatingTokens) Invalidate() { s.mu.Lock(); defer s.mu.Unlock(); s.invalidations++ }

func TestUnauthorizedRefetchesTheTokenOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	cases := []struct {
		name     string
		src      oauth2.TokenSource
		post     bool
		requests int
		ok       bool
	}{
		{"GET, fresh token works", &rotatingTokens{toks: []string{"stale", adminToken}}, false, 2, true},
		{"POST, fresh token works", &rotatingTokens{toks: []string{"stale", adminToken}}, true, 2, true},
		{"fresh token refused too", &rotatingTokens{toks: []string{"stale", "staler", adminToken}}, false, 2, false},
		{"source cannot refresh", static("stale"), false, 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.rec.reset()
			c := newClient(t, e.url, api.Options{TokenSource: tc.src, Retry: fast})
			var err error
			if tc.post {
				_, err = c.CreateGroup(t.Context(), e.org, api.Group{Name: "made-after-401"})
			} else {
				_, err = c.GetGroup(t.Context(), e.org)
			}
			if (err == nil) != tc.ok || (!tc.ok && !api.IsUnauthenticated(err)) {
				t.Errorf("err = %v, want success %v (else UNAUTHENTICATED)", err, tc.ok)
			}
			reqs := e.rec.all()
			if len(reqs) != tc.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tc.requests)
			}
			if rt, ok := tc.src.(*rotatingTokens); ok {
				if rt.invalidations != 1 || rt.fetches != 2 {
					t.Errorf("%d invalidations and %d fetches, want 1 and 2", rt.invalidations, rt.fetches)
				}
				if got := reqs[1].Header.Get("Authorization"); got != "Bearer "+rt.toks[1] {
					t.Errorf("second request sent %q, want the fresh token", got)
				}
			}
		})
	}
	if n := must(e.client.ListGroups(t.Context(), api.ListOptions{ChildrenOf: e.org, Name: "made-after-401"}))(t).Total; n != 1 {
		t.Errorf("groups made by the re-sent POST: %d, want 1", n)
	}
}

func TestRetryable(t *testing.T) {
	t.Parallel()
	transport := func(err error) error { return &api.TransportError{Method: "GET", Path: "/p", Err: err} }
	cases := []struct {
		err  error
		want bool
	}{
		{&api.Error{HTTPStatus: 429}, true}, {&api.Error{HTTPStatus: 502}, true},
		{&api.Error{HTTPStatus: 503}, true}, {&api.Error{HTTPStatus: 504}, true},
		{&api.Error{HTTPStatus: 500}, false}, {&api.Error{HTTPStatus: 404}, false}, {&api.Error{HTTPStatus: 401}, false},
		{transport(syscall.ECONNRESET), true}, {transport(syscall.ECONNREFUSED), true}, {transport(io.EOF), true},
		{transport(io.ErrUnexpectedEOF), true}, {transport(context.DeadlineExceeded), true},
		{transport(context.Canceled), false}, {transport(errors.New("tls: bad certificate")), false},
		{errors.New("plain"), false}, {syscall.ECONNRESET, false}, // only a failed request is retried
		{fmt.Errorf("wrapped: %w", &api.Error{HTTPStatus: 503}), true},
	}
	for _, tc := range cases {
		if got := api.Retryable(tc.err); got != tc.want {
			t.Errorf("Retryable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// A lost answer's cause is said in a few words.
func TestLostCause(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want string
	}{
		{context.DeadlineExceeded, "timed out"},
		{&api.TransportError{Method: "POST", Err: syscall.ECONNRESET}, "connection reset"},
		{&api.TransportError{Method: "POST", Err: io.ErrUnexpectedEOF}, "unexpected EOF"},
		{errors.New("odd"), "odd"},
	} {
		if got := api.LostCause(tc.err); got != tc.want {
			t.Errorf("LostCause(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
