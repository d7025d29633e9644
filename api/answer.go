package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// decodeInto decodes a 2xx body into out. An empty body is a fine answer
// only to a call that expects none (a DELETE): v2 never answers a Get,
// Create or Patch with an empty 200, so one is an error, not an empty resource.
func decodeInto(k call, body []byte, out any) error {
	if out == nil {
		return nil
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return &DecodeError{Method: k.method, Path: k.path, Err: errors.New("empty body")}
	}
	if err := json.Unmarshal(body, out); err != nil {
		return &DecodeError{Method: k.method, Path: k.path, Err: err, Snippet: snippet(body)}
	}
	return nil
}

// DecodeError is a 2xx answer whose body is not the JSON expected (a
// truncated body, a proxy's page).
type DecodeError struct {
	Method, Path string
	Err          error
	Snippet      string // the start of the body, for the curious
}

// ErrResponseTooLarge is the cause of a DecodeError (or the message of an
// Error) for an answer longer than the client reads (32 MiB).
var ErrResponseTooLarge = fmt.Errorf("response too large (over %d MiB)", maxBody>>20)

// Error says which answer could not be read.
func (e *DecodeError) Error() string {
	if overBound(e.Err) {
		return fmt.Sprintf("%s %s: %v", e.Method, e.Path, e.Err)
	}
	return fmt.Sprintf("%s %s: the server's answer is not valid JSON (%v)", e.Method, e.Path, e.Err)
}

// Unwrap gives the JSON error.
func (e *DecodeError) Unwrap() error { return e.Err }

// snippet is the first line of a body, at most 120 bytes.
func snippet(b []byte) string {
	s := redactString(strings.TrimSpace(string(b)), "")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// cutError is the *Error of a non-2xx answer whose body was cut at a
// bound, and so not decoded: msg says what happened.
func cutError(k call, resp *http.Response, msg string) *Error {
	return &Error{Status: Status{Code: CodeForHTTPStatus(resp.StatusCode), Message: msg}, HTTPStatus: resp.StatusCode,
		Method: k.method, Path: k.path, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())}
}

// decodeError turns a non-2xx answer into an *Error. A body that is not an
// AIP-193 status still gives a clear error with the HTTP status.
func decodeError(k call, resp *http.Response, body []byte, secret string) *Error {
	e := &Error{HTTPStatus: resp.StatusCode, Method: k.method, Path: k.path,
		RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())}
	var st Status
	if err := json.Unmarshal(body, &st); err == nil && (st.Code != CodeOK || st.Message != "") {
		// The raw body had the token hidden, but not one written with JSON
		// escapes: hide it in what was decoded.
		redactStatus(&st, secret)
		e.Status = st
		if e.Code == CodeOK {
			e.Code = CodeForHTTPStatus(resp.StatusCode)
		}
		return e
	}
	e.Code = CodeForHTTPStatus(resp.StatusCode)
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case len(bytes.TrimSpace(body)) == 0:
		e.Message = fmt.Sprintf("HTTP %d %s with an empty body", resp.StatusCode, http.StatusText(resp.StatusCode))
	case ct != "" && ct != "application/json":
		e.Message = fmt.Sprintf("HTTP %d %s with a %s body, not an API error (a proxy or gateway answered?)",
			resp.StatusCode, http.StatusText(resp.StatusCode), ct)
	default:
		e.Message = fmt.Sprintf("HTTP %d %s with a body that is not an API error: %s",
			resp.StatusCode, http.StatusText(resp.StatusCode), snippet(redactJSON(body, secret)))
	}
	return e
}

// maxRetryAfter bounds the wait a server may ask for: more is nonsense, and a
// huge number of seconds would overflow a time.Duration into a negative wait.
const maxRetryAfter = 24 * time.Hour

// parseRetryAfter reads a Retry-After header: seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		if secs > int(maxRetryAfter/time.Second) {
			return maxRetryAfter
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), maxRetryAfter)
	}
	return 0
}
