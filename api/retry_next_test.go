package api

import (
	"net/http"
	"testing"
	"time"
)

// TestRetryStopsPastMaxElapsed holds MaxElapsed exactly, on the elapsed
// time given rather than a clock's: a retry whose wait would end past it
// is not made, one that ends within it is.
func TestRetryStopsPastMaxElapsed(t *testing.T) {
	t.Parallel()
	p := RetryPolicy{MaxAttempts: 100, BaseDelay: time.Millisecond, MaxDelay: 40 * time.Millisecond, MaxElapsed: 100 * time.Millisecond}
	busy := &Error{HTTPStatus: http.StatusTooManyRequests, Method: http.MethodGet, RetryAfter: time.Second}
	for _, tc := range []struct {
		elapsed time.Duration
		retry   bool
	}{
		{0, true}, {40 * time.Millisecond, true}, {60 * time.Millisecond, true},
		{60*time.Millisecond + 1, false}, {80 * time.Millisecond, false}, {time.Hour, false},
	} {
		wait, retry := p.next(http.MethodGet, 1, tc.elapsed, busy)
		if retry != tc.retry || retry && wait != p.MaxDelay {
			t.Errorf("after %v: wait %v, retry %v; want retry %v after MaxDelay (Retry-After capped)", tc.elapsed, wait, retry, tc.retry)
		}
	}
	// Attempts are bounded whatever the time.
	if _, retry := p.next(http.MethodGet, p.MaxAttempts, 0, busy); retry {
		t.Errorf("retried after attempt %d of %d", p.MaxAttempts, p.MaxAttempts)
	}
}
