package api

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"syscall"
	"time"
)

// RetryPolicy bounds the retries of idempotent calls (GET, and DELETE of a
// uid). Creates and patches are never retried: a lost answer does not mean
// the change was not made.
type RetryPolicy struct {
	// MaxAttempts counts the first try; 1 disables retries. 0 means 4.
	MaxAttempts int
	// BaseDelay is the first backoff; each retry doubles it. 0 means 250 ms.
	BaseDelay time.Duration
	// MaxDelay caps one wait, Retry-After included. 0 means 8 s.
	MaxDelay time.Duration
	// MaxElapsed stops retrying once a call has taken this long. 0 means 30 s.
	MaxElapsed time.Duration
}

// DefaultRetry is the policy of a Client whose Options leave Retry zero.
var DefaultRetry = RetryPolicy{MaxAttempts: 4, BaseDelay: 250 * time.Millisecond, MaxDelay: 8 * time.Second, MaxElapsed: 30 * time.Second}

// NoRetry disables retries.
var NoRetry = RetryPolicy{MaxAttempts: 1}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = DefaultRetry.MaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultRetry.BaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultRetry.MaxDelay
	}
	if p.MaxElapsed <= 0 {
		p.MaxElapsed = DefaultRetry.MaxElapsed
	}
	return p
}

// next decides whether a failed attempt is retried and after how long:
// "full jitter" exponential backoff, or the server's Retry-After when it
// asked for longer.
func (p RetryPolicy) next(idempotent bool, attempt int, elapsed time.Duration, err error) (time.Duration, bool) {
	if !idempotent || attempt >= p.MaxAttempts || !Retryable(err) {
		return 0, false
	}
	backoff := p.BaseDelay << (attempt - 1)
	if backoff > p.MaxDelay || backoff <= 0 {
		backoff = p.MaxDelay
	}
	wait := time.Duration(rand.Int64N(int64(backoff)) + 1)
	if apiErr, ok := AsError(err); ok && apiErr.RetryAfter > wait {
		wait = min(apiErr.RetryAfter, p.MaxDelay)
	}
	if elapsed+wait > p.MaxElapsed {
		return 0, false
	}
	return wait, true
}

// Retryable reports whether err is worth trying again for an idempotent
// call: the server was busy or unavailable (429, 503, 504) or the connection
// broke before an answer came.
func Retryable(err error) bool {
	if apiErr, ok := AsError(err); ok {
		switch apiErr.HTTPStatus {
		case 429, 502, 503, 504:
			return true
		}
		return false
	}
	var te *TransportError
	if !errors.As(err, &te) || te.auth {
		return false
	}
	if errors.Is(err, context.Canceled) {
		return false
	}
	var ne net.Error
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
