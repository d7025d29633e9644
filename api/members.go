package api

import "encoding/json"

// members are the members of the JSON object b by key, each value as it
// is written: what json.Unmarshal into a map[string]json.RawMessage makes
// of b (keys matched exactly; of a repeated key, the last), found by
// walking b once rather than by encoding/json, which checks and copies
// every value. The values share b's bytes: they are for reading before b
// is gone. A null b is a nil map, as json makes of it; b that is not an
// object is an error. A key with an escape in it, rare, is left to
// encoding/json, as is anything this walk does not expect.
func members(b []byte) (map[string]json.RawMessage, error) {
	out, ok := walkMembers(b)
	if ok {
		return out, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// walkMembers is members for an object whose keys have no escapes; ok is
// false for anything else (null included).
func walkMembers(b []byte) (map[string]json.RawMessage, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	out := map[string]json.RawMessage{}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return out, skipSpace(b, i+1) == len(b)
	}
	for i < len(b) && b[i] == '"' {
		end := i + 1
		for end < len(b) && b[end] != '"' && b[end] != '\\' {
			end++
		}
		if end >= len(b) || b[end] != '"' {
			return nil, false
		}
		key := string(b[i+1 : end])
		if i = skipSpace(b, end+1); i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		valueEnd, ok := skipValue(b, i)
		if !ok {
			return nil, false
		}
		out[key] = b[i:valueEnd]
		if i = skipSpace(b, valueEnd); i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return out, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
	return nil, false
}

// skipValue is where the JSON value that starts at b[i] ends (b is JSON
// a decoder read already; what does not close is not ok).
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			for j++; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
			if j >= len(b) {
				return 0, false
			}
			if depth == 0 {
				return j + 1, true
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j, j > i
			}
			if depth--; depth == 0 {
				return j + 1, true
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return j, j > i
			}
		}
	}
	return len(b), depth == 0
}

// skipSpace is the first index at or after i that is not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}
