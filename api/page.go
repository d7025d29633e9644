package api

// Reading a List answer as it arrives. The body cap (32 MiB) bounds bytes, not what they decode
// to: ten million `{}` items fit in 30 MB and decode to gigabytes of zero structs. So the items
// are decoded one at a time and counted, and a page with more than a page can hold is refused
// before the one past the limit is decoded: what a page holds decoded is bounded by the limit,
// whatever the body.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
)

// DefaultPageSize is what the API sends when a List asks for no page size.
const DefaultPageSize = 50

// maxAskedPage bounds the limit of a List that asks for more than MaxPageSize (which the API
// clamps anyway): a caller's large page_size must not make room for a hostile page.
const maxAskedPage = 5 * MaxPageSize

// PageOverflowError is a List page with more items than a page can hold: more than were
// asked and more than the API ever sends (MaxPageSize). It is the Err of a *DecodeError.
type PageOverflowError struct {
	Plural  string // the items' key, e.g. "tags"
	Held    int    // the items the page held (counted, not decoded)
	AtLeast bool   // the body broke off before the list ended: Held is a floor
	Asked   int    // the page_size sent; 0 when none was
	Allowed int    // the most items a page may hold
}

// Error says how many items came against how many were asked.
func (e *PageOverflowError) Error() string {
	held := strconv.Itoa(e.Held)
	if e.AtLeast {
		held = "at least " + held
	}
	asked := "none were asked (the API's default is " + strconv.Itoa(DefaultPageSize) + ")"
	if e.Asked > 0 {
		asked = strconv.Itoa(e.Asked) + " were asked"
	}
	return fmt.Sprintf("a page of %s %s when %s; a page may hold at most %d, so the server does not honour page_size: none of it is used",
		held, e.Plural, asked, e.Allowed)
}

// pageLimit reads the page size a List call asks for and the most items its page may hold: at
// least MaxPageSize, since a server that ignores a smaller page_size still sends no more than
// its default or its maximum, which is harmless; beyond that, what was asked, up to maxAskedPage.
func pageLimit(q url.Values) (asked, allowed int) {
	asked, err := strconv.Atoi(q.Get("page_size"))
	if err != nil || asked < 0 {
		asked = 0
	}
	return asked, max(MaxPageSize, min(asked, maxAskedPage))
}

// decodePage reads a List body from r: the items under the plural key, the token, the total (a
// string or a number) and skipped. Unknown keys are skipped, and a repeated key counts as its
// last value, as when the object is decoded whole. A page of more than allowed items is a
// *PageOverflowError, with the rest of the list counted, not decoded.
func decodePage[T any](r io.Reader, plural string, asked, allowed int) (*Page[T], error) {
	dec := json.NewDecoder(r)
	start, err := dec.Token()
	switch {
	case errors.Is(err, io.EOF):
		return nil, errors.New("empty body")
	case err != nil:
		return nil, err
	case start == nil: // `null`, which decodes to an empty object
		return &Page[T]{}, atEnd(dec)
	case start != json.Delim('{'):
		return nil, fmt.Errorf("the answer is %s, not an object", tokenKind(start))
	}
	p := &Page[T]{}
	shape := &ShapeError{Plural: plural}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := k.(string) // an object's keys are strings, or Token fails
		shape.saw(key)
		if key == plural {
			shape.listed = true
			if p.Items, err = decodeItems[T](dec, r, plural, asked, allowed); err != nil {
				return nil, err
			}
			continue
		}
		// Another key: its value is held whole, bounded by the body cap.
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		if err := p.set(key, raw); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		if isList(raw) && len(shape.Lists) < maxShapeKeys {
			shape.Lists = append(shape.Lists, key)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if !shape.listed && len(shape.Lists) > 0 {
		// An empty list is left out of an answer, so a page without the
		// plural key is an empty one, unless the items came under another.
		return nil, shape
	}
	return p, atEnd(dec)
}

// isList reports whether a value is a list that holds something.
func isList(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return false
	}
	rest := bytes.TrimSpace(raw[1:])
	return len(rest) > 0 && rest[0] != ']'
}

// set stores the value of a key beside the items; null reads as absent.
func (p *Page[T]) set(key string, raw json.RawMessage) error {
	null := bytes.Equal(raw, []byte("null"))
	switch key {
	case keyNextPageToken:
		p.NextPageToken = ""
		if !null {
			return json.Unmarshal(raw, &p.NextPageToken)
		}
	case keyTotalCount:
		p.Total, p.HasTotal = 0, false
		if !null {
			var n Int64
			if err := n.UnmarshalJSON(raw); err != nil {
				return err
			}
			// A negative count says nothing: treated as absent.
			p.Total, p.HasTotal = max(int64(n), 0), n >= 0
		}
	case keySkipped:
		var n Int64
		if err := n.UnmarshalJSON(raw); err != nil {
			return err
		}
		p.Skipped = int(n)
	}
	return nil
}

// decodeItems decodes the list under plural one item at a time, refusing it once it holds more
// than allowed items (the reader bounds its values). r is the reader dec reads from, for counting what follows the limit.
func decodeItems[T any](dec *json.Decoder, r io.Reader, plural string, asked, allowed int) ([]T, error) {
	start, err := dec.Token()
	switch {
	case err != nil:
		return nil, err
	case start == nil:
		return nil, nil
	case start != json.Delim('['):
		return nil, fmt.Errorf("%s is %s, not a list", plural, tokenKind(start))
	}
	var items []T
	for dec.More() {
		if len(items) == allowed {
			// The rest is counted for the message, not decoded: the byte cap bounds it, and
			// its values need no counting.
			if b, ok := r.(interface{ liftBudget() }); ok {
				b.liftBudget()
			}
			more, complete := countItems(io.MultiReader(dec.Buffered(), r))
			if more == 0 {
				// No comma follows the last item: what comes is no further
				// item but a body that is not JSON.
				return nil, fmt.Errorf("%s: not JSON after item %d", plural, allowed-1)
			}
			return nil, &PageOverflowError{Plural: plural, Held: allowed + more, AtLeast: !complete, Asked: asked, Allowed: allowed}
		}
		var item T
		if err := dec.Decode(&item); err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", plural, len(items), err)
		}
		items = append(items, item)
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return nil, err
	}
	return items, nil
}

// countItems counts the items left in a list from just after one of its items: one for each
// comma at the list's own depth, up to its closing bracket. It does not check the JSON: a count
// is all it gives. complete is false when the body ended (or broke) before the bracket.
func countItems(r io.Reader) (n int, complete bool) {
	buf := make([]byte, 64<<10)
	depth, inString, escaped := 0, false, false
	for {
		m, err := r.Read(buf)
		p := buf[:m]
		for i := 0; i < len(p); i++ {
			c := p[i]
			switch {
			case inString:
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
				default:
					// A string's bytes count for nothing: skipped many at
					// a time, as valueCounter.scan does.
					i += stringRun(p[i:]) - 1
				}
			case c == '"':
				inString = true
			case c == '[' || c == '{':
				depth++
			case c == ']' || c == '}':
				if depth == 0 {
					return n, true
				}
				depth--
			case c == ',' && depth == 0:
				n++
			}
		}
		if err != nil {
			return n, false
		}
	}
}

// atEnd checks that nothing but space follows the page, as json.Unmarshal does.
func atEnd(dec *json.Decoder) error {
	if t, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return err
		}
		return fmt.Errorf("%s after the page", tokenKind(t))
	}
	return nil
}

// tokenKind names a JSON token's kind for an error, never its value (which may be long).
func tokenKind(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		if v == '[' || v == ']' {
			return "a list"
		}
		return "an object"
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a value"
}

// ShapeError is a List answer whose items are not where the API puts them:
// no list under Plural, and a list under another key (a server of another
// version, a proxy's envelope). Read as empty, it would show an empty
// table where the server holds items.
type ShapeError struct {
	Plural string
	// Lists are the keys that held a list; Keys every key that came, in
	// order, the first maxShapeKeys of them.
	Lists, Keys []string
	listed      bool
}

// maxShapeKeys bounds the keys a ShapeError keeps of a hostile answer.
const maxShapeKeys = 8

func (e *ShapeError) saw(key string) {
	if len(e.Keys) < maxShapeKeys {
		e.Keys = append(e.Keys, key)
	}
}

func (e *ShapeError) Error() string {
	quote := func(keys []string) string {
		out := make([]string, len(keys))
		for i, k := range keys {
			if len(k) > 40 {
				k = k[:40] + "…"
			}
			out[i] = strconv.Quote(k)
		}
		return strings.Join(out, ", ")
	}
	return fmt.Sprintf("the answer holds no %q list but a list under %s (its keys: %s): not read as an empty list",
		e.Plural, quote(e.Lists), quote(e.Keys))
}
