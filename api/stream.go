package api

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// snippetBytes is how much of the start of a streamed body is kept for a DecodeError's snippet.
const snippetBytes = 512

// bodyReader reads an answer within canopy's bounds: at most maxBody bytes and maxValues values
// (see bounds.go). Past either it returns ErrResponseTooLarge or ErrTooManyValues as a read
// error, so that whatever decodes from it stops there; it remembers why it stopped, and a read
// error of the connection, so that a decoder's error can be told from a transport's.
type bodyReader struct {
	r       io.Reader
	n       int  // bytes read
	over    bool // the body is longer than maxBody
	tooMany bool // the body holds more than maxValues values
	err     error
	values  valueCounter
	lifted  bool // values are no longer counted (liftBudget)
	head    []byte
}

func (b *bodyReader) Read(p []byte) (int, error) {
	switch {
	case b.over:
		return 0, ErrResponseTooLarge
	case b.tooMany:
		return 0, ErrTooManyValues
	}
	// One byte past the cap tells a body of exactly maxBody from a longer one.
	if left := maxBody + 1 - b.n; len(p) > left {
		p = p[:left]
	}
	n, err := b.r.Read(p)
	b.n += n
	if b.n > maxBody {
		n -= b.n - maxBody
		b.n, b.over, err = maxBody, true, ErrResponseTooLarge
	} else if err != nil && !errors.Is(err, io.EOF) {
		b.err = err
	}
	if len(b.head) < snippetBytes {
		b.head = append(b.head, p[:min(n, snippetBytes-len(b.head))]...)
	}
	if !b.lifted {
		if b.values.scan(p[:n]); b.values.n > maxValues {
			b.tooMany, err = true, ErrTooManyValues
		}
	}
	return n, err
}

// liftBudget stops counting values: for reading what will not be decoded (the items past a
// page's limit are only counted), which the byte cap alone bounds.
func (b *bodyReader) liftBudget() { b.lifted = true }

// streamAnswer decodes a 2xx body with k.stream as it arrives, so that what the answer decodes to
// is bounded by what the decoder keeps rather than by the body held whole. Its errors are those
// of a body read whole: a broken connection is a *TransportError, an answer past a bound or one
// that does not decode a *DecodeError, except that a page found too long while the cap or the
// connection cut it short is still named as too long.
func (c *Client) streamAnswer(k call, r *bodyReader, began time.Time, status int) error {
	err := k.stream(r)
	c.log.Debug("request", "method", k.method, "path", k.path, "status", status, "bytes", r.n, "took", time.Since(began))
	var over *PageOverflowError
	if errors.As(err, &over) {
		return &DecodeError{Method: k.method, Path: k.path, Err: over}
	}
	if e := bodyError(k, r); e != nil {
		return e
	}
	if err != nil {
		return &DecodeError{Method: k.method, Path: k.path, Err: err, Snippet: snippet(r.head)}
	}
	return nil
}

// bodyError is how a non-streamed 2xx body read by r failed, or nil: a bound, or the connection.
func bodyError(k call, r *bodyReader) error {
	switch {
	case r.over:
		return &DecodeError{Method: k.method, Path: k.path, Err: ErrResponseTooLarge}
	case r.tooMany:
		return &DecodeError{Method: k.method, Path: k.path, Err: ErrTooManyValues}
	case r.err != nil:
		return &TransportError{Method: k.method, Path: k.path, Err: fmt.Errorf("read response: %w", r.err)}
	}
	return nil
}
