package api

// Bounds on what an answer decodes to. The body cap (maxBody) bounds bytes, but a few bytes can
// decode to many: `{}` is 3 bytes of a list and an AdvisoryEvent of 200 (and a map, and two
// decodes), `""` 3 bytes and a string header of 16, so 30 MB of them held gigabytes and took
// minutes. Each value of a list or an object (an entry, a member) is therefore counted in the
// bytes as they are read (bodyReader), and the reading of an answer with more than maxValues
// stops there, before any of it is decoded.

import (
	"bytes"
	"errors"
	"fmt"
)

// maxValues is the most values (list entries and object members, at any depth) canopy decodes
// from one answer: 500 for each item of a full page of 200, where a repo has about 15 and an
// advisory with ten events about 120, while the costliest value (an advisory event) decoded
// 100,000 times stays within tens of MB and about a second.
const maxValues = 100_000

// ErrTooManyValues is the cause of a *DecodeError (or the reason an *Error says its body was
// not read) for an answer holding more than maxValues values.
var ErrTooManyValues = fmt.Errorf("more than %d values (list entries and object members) in one answer, more than an answer of the API holds; none of it is used", maxValues)

// valueCounter counts the values of JSON text fed to it in pieces: one for each comma and for
// the first value of each list or object, outside strings. It does not check the JSON (decoding
// does): on valid JSON the count is exact.
type valueCounter struct {
	n                         int
	inString, escaped, opened bool
}

func (v *valueCounter) scan(p []byte) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if v.inString {
			switch {
			case v.escaped:
				v.escaped = false
			case c == '\\':
				v.escaped = true
			case c == '"':
				v.inString = false
			default:
				// Nothing up to the next quote or backslash counts: most of an
				// answer's bytes are in strings, and IndexByte skips them many
				// at a time rather than one by one.
				i += stringRun(p[i:]) - 1
			}
			continue
		}
		if v.opened && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			// The first byte after a bracket or brace: a value unless it closes an empty one.
			v.opened = false
			if c != ']' && c != '}' {
				v.n++
			}
		}
		switch c {
		case '"':
			v.inString = true
		case ',':
			v.n++
		case '[', '{':
			v.opened = true
		}
	}
}

// stringRun is how many bytes of p, inside a string, come before its next
// quote or backslash (all of p when none does).
func stringRun(p []byte) int {
	n := bytes.IndexByte(p, '"')
	if n < 0 {
		n = len(p)
	}
	if b := bytes.IndexByte(p[:n], '\\'); b >= 0 {
		n = b
	}
	return n
}

// overBound reports whether a decode error is one of canopy's bounds rather than broken JSON.
func overBound(err error) bool {
	var over *PageOverflowError
	return errors.Is(err, ErrResponseTooLarge) || errors.Is(err, ErrTooManyValues) || errors.As(err, &over)
}
