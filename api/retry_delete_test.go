package api_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"canopy/api"
)

// resetAfterReading reads the request, then resets the connection (RST).
func resetAfterReading(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	conn.Close()
}

// getsOnly answers a GET as ok does and never answers anything else.
func getsOnly(ok http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			ok.ServeHTTP(w, r)
			return
		}
		neverAnswers(w, r)
	})
}

// TestDeleteRetryPolicy counts the requests a DELETE makes under each fault:
// it is sent again only when the server said it did not run it (429, 503)
// and never once it may have run; the error of one that may have run is
// OutcomeUnknown.
func TestDeleteRetryPolicy(t *testing.T) {
	t.Parallel()
	ok := answer(200, map[string]string{"Content-Type": "application/json"}, `{}`)
	cases := []struct {
		name     string
		h        http.Handler
		requests int
		success  bool
		unknown  bool
	}{
		{"429 with Retry-After", failFirst(1, 429, "1", ok), 2, true, false},
		{"503", failFirst(2, 503, "", ok), 3, true, false},
		{"503 every time", failFirst(1000, 503, "", ok), 10, false, false},
		{"504", failFirst(1, 504, "", ok), 1, false, true},
		{"502", failFirst(1, 502, "", ok), 1, false, true},
		{"500", failFirst(1, 500, "", ok), 1, false, false},
		{"404", failFirst(1, 404, "", ok), 1, false, false},
		{"EOF after the request", hangUpFirst(1, ok), 1, false, true},
		{"reset after the request", http.HandlerFunc(resetAfterReading), 1, false, true},
		{"timeout", getsOnly(ok), 1, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{next: tc.h}
			// Only a server that never answers is given up on: any other
			// answer has the test's patience, however loaded the machine.
			timeout := patience
			if tc.name == "timeout" {
				timeout = 200 * time.Millisecond
			}
			// DELETEs are counted as sent: one the client gave up on may
			// not have reached the server yet.
			var sent atomic.Int64
			hc := freshTransport(t)
			tr := hc.Transport
			hc.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) { sent.Add(1); return tr.RoundTrip(r) })
			c := newClient(t, serve(t, rec), api.Options{Retry: fast, Timeout: timeout, HTTPClient: hc})
			if tc.name == "timeout" {
				// The connection is made first: a loaded machine's slow dial
				// would time out before the request was sent (and be retried).
				if _, err := c.GetRepo(t.Context(), "org/repo"); err != nil {
					t.Fatalf("GET before the DELETE: %v", err)
				}
				sent.Store(0)
			}
			start := time.Now()
			err := c.DeleteRepo(t.Context(), "org/repo")
			if (err == nil) != tc.success || api.OutcomeUnknown(err) != tc.unknown {
				t.Errorf("err = %v, OutcomeUnknown %v; want success %v, unknown %v", err, api.OutcomeUnknown(err), tc.success, tc.unknown)
			}
			if n := sent.Load(); n != int64(tc.requests) {
				t.Errorf("%d DELETEs sent, want %d", n, tc.requests)
			}
			if tc.name == "429 with Retry-After" && time.Since(start) < fast.MaxDelay {
				t.Errorf("retried after %v: Retry-After (capped at %v) not honoured", time.Since(start), fast.MaxDelay)
			}
		})
	}
}

// TestDeleteRetriedWhenNeverConnected: a DELETE whose connection was refused
// was never sent, so it is tried again; a GET too. POST and PATCH are not.
func TestDeleteRetriedWhenNeverConnected(t *testing.T) {
	t.Parallel()
	rec := &recorder{next: answer(200, map[string]string{"Content-Type": "application/json"}, `{}`)}
	url := serve(t, rec)
	var dials atomic.Int64
	refuseFirst := func(n int64) *http.Client {
		dials.Store(0)
		d := &net.Dialer{}
		tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if dials.Add(1) <= n {
				return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
			}
			return d.DialContext(ctx, network, addr)
		}}
		t.Cleanup(tr.CloseIdleConnections)
		return &http.Client{Transport: tr}
	}
	c := newClient(t, url, api.Options{Retry: fast, HTTPClient: refuseFirst(2)})
	if err := c.DeleteRepo(t.Context(), "org/repo"); err != nil {
		t.Errorf("DELETE after two refused connections: %v", err)
	}
	if dials.Load() != 3 || rec.count() != 1 {
		t.Errorf("%d dials and %d requests, want 3 and 1", dials.Load(), rec.count())
	}

	rec.reset()
	c = newClient(t, url, api.Options{Retry: fast, HTTPClient: refuseFirst(1000)})
	err := c.DeleteRepo(t.Context(), "org/repo")
	if err == nil || api.OutcomeUnknown(err) || dials.Load() != int64(fast.MaxAttempts) {
		t.Errorf("DELETE, always refused: %v (unknown %v) after %d dials; want a known failure after %d", err, api.OutcomeUnknown(err), dials.Load(), fast.MaxAttempts)
	}

	c = newClient(t, url, api.Options{Retry: fast, HTTPClient: refuseFirst(1)})
	_, err = c.CreateRepo(t.Context(), "org", api.Repo{Name: "r"})
	if err == nil || api.OutcomeUnknown(err) || dials.Load() != 1 {
		t.Errorf("POST, refused: %v (unknown %v) after %d dials; want one known failure", err, api.OutcomeUnknown(err), dials.Load())
	}
}

func TestOutcomeUnknown(t *testing.T) {
	t.Parallel()
	transport := func(method string, err error) error {
		return &api.TransportError{Method: method, Path: "/p", Err: err}
	}
	dial := &net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	cases := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{transport("DELETE", errors.New("EOF")), true},
		{transport("POST", syscall.ECONNRESET), true},
		{transport("PATCH", context.DeadlineExceeded), true},
		{transport("GET", errors.New("EOF")), false},
		{transport("DELETE", dial), false},
		{&api.Error{Method: "DELETE", HTTPStatus: 504}, true},
		{&api.Error{Method: "POST", HTTPStatus: 502}, true},
		{&api.Error{Method: "DELETE", HTTPStatus: 503}, false},
		{&api.Error{Method: "PATCH", HTTPStatus: 400}, false},
		{&api.DecodeError{Method: "POST", Err: errors.New("unexpected end of JSON input")}, true},
		{api.ErrInvalidUID, false},
	}
	for _, tc := range cases {
		if got := api.OutcomeUnknown(tc.err); got != tc.want {
			t.Errorf("OutcomeUnknown(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
