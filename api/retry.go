package api

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"syscall"
	"time"
)

// RetryPolicy bounds the retries of a call. What is retried depends on the
// method:
//
//   - GET (and ping) is retried on 429, 502, 503 and 504 and when the
//     connection fails or breaks before an answer (see Retryable).
//   - DELETE is retried only when it certainly did not run: the server said
//     so (429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE) or no connection was made
//     (refused, unreachable, no such host). Once the request may have reached
//     the server (a reset or EOF after it was written, a timeout, 502, 504)
//     it is not sent again: its error is then OutcomeUnknown.
//   - POST and PATCH are never retried: a lost answer does not mean the
//     change was not made.
//
// Every retry waits a jittered exponential backoff, or the server's
// Retry-After when it asks for longer (capped by MaxDelay). A 401 is not a
// retry: any call is sent once more with a fresh token, the first request
// having been refused before it ran.
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

// DefaultRetry is the policy of a Client whose Options leave Retry zero
// (a fresh value each call: no caller can change another's default).
func DefaultRetry() RetryPolicy {
	return RetryPolicy{MaxAttempts: 4, BaseDelay: 250 * time.Millisecond, MaxDelay: 8 * time.Second, MaxElapsed: 30 * time.Second}
}

// NoRetry is a policy that disables retries.
func NoRetry() RetryPolicy { return RetryPolicy{MaxAttempts: 1} }

func (p RetryPolicy) withDefaults() RetryPolicy {
	d := DefaultRetry()
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = d.MaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = d.BaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = d.MaxDelay
	}
	if p.MaxElapsed <= 0 {
		p.MaxElapsed = d.MaxElapsed
	}
	return p
}

// retryable reports whether a failed attempt of a call with this method may
// be sent again.
func retryable(method string, err error) bool {
	switch method {
	case http.MethodGet:
		return Retryable(err)
	case http.MethodDelete:
		return notRun(err)
	}
	return false
}

// next decides whether a failed attempt is retried and after how long:
// "full jitter" exponential backoff, or the server's Retry-After when it
// asked for longer.
func (p RetryPolicy) next(method string, attempt int, elapsed time.Duration, err error) (time.Duration, bool) {
	if attempt >= p.MaxAttempts || !retryable(method, err) {
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

// Retryable reports whether err is worth trying again for a GET: the
// server was busy or unavailable (429, 502, 503, 504) or the connection
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

// notRun reports whether a failed call certainly did not run: the server
// answered 429 or 503 (it refused the work), or no connection was made.
func notRun(err error) bool {
	if apiErr, ok := AsError(err); ok {
		return apiErr.HTTPStatus == http.StatusTooManyRequests || apiErr.HTTPStatus == http.StatusServiceUnavailable
	}
	var te *TransportError
	return errors.As(err, &te) && !te.auth && neverSent(te.Err) && !errors.Is(err, context.Canceled)
}

// neverSent reports whether a transport error happened before any byte of
// the request could be written: while connecting (a refused connection,
// an unreachable or unknown host, a proxy that refused) or in the TLS
// handshake.
func neverSent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && (op.Op == "dial" || op.Op == "proxyconnect") {
		return true
	}
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var rec tls.RecordHeaderError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &dns) || errors.As(err, &cert) || errors.As(err, &rec)
}

// OutcomeUnknown reports whether err is the error of a call that changes
// something (POST, PATCH, DELETE) which may nevertheless have been done: the
// request may have reached the server, but no answer saying how it ended
// came back (the connection broke or timed out after the request was sent,
// a gateway answered 502 or 504, or a 2xx answer could not be read). Such a
// call is never sent again by the client; refresh to see what happened.
// It is false for nil, for GETs and for every error that says the change
// was not made (an API error, a refused connection, a token that could not
// be obtained, an invalid uid).
func OutcomeUnknown(err error) bool {
	if err == nil {
		return false
	}
	mutation := func(m string) bool {
		return m == http.MethodPost || m == http.MethodPatch || m == http.MethodDelete || m == http.MethodPut
	}
	if apiErr, ok := AsError(err); ok {
		return mutation(apiErr.Method) && (apiErr.HTTPStatus == http.StatusBadGateway || apiErr.HTTPStatus == http.StatusGatewayTimeout)
	}
	var de *DecodeError
	if errors.As(err, &de) {
		return mutation(de.Method)
	}
	var te *TransportError
	return errors.As(err, &te) && mutation(te.Method) && !te.auth && !neverSent(te.Err)
}

// MaybeMade reports whether a change may have been made although its
// caller has no answer: OutcomeUnknown, or the caller's own deadline ended
// the wait (the request may have been sent). Such a change is neither done
// nor failed: look up what the server has.
func MaybeMade(err error) bool {
	return OutcomeUnknown(err) || errors.Is(err, context.DeadlineExceeded)
}

// LostCause is the short cause of a lost answer, for a message: "timed
// out", "connection reset", the transport's own words ("EOF"), or the
// gateway's status.
func LostCause(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	}
	var te *TransportError
	if errors.As(err, &te) && te.Err != nil {
		return te.Err.Error()
	}
	if apiErr, ok := AsError(err); ok {
		return apiErr.Code.String()
	}
	return err.Error()
}
