package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// NotAppliedError is a write the server answered (2xx) without doing all
// of it: for each field named, the answer holds another value than the
// one sent (a server that applies only some mask paths keeps the others).
// The outcome is known, not lost: nothing is looked up or sent again, and
// nothing is to undo.
type NotAppliedError struct {
	Method, Path string
	Fields       []KeptField
}

// KeptField is a field of a write that the answer contradicts: its mask
// path, and the values sent and answered as JSON text (bounded).
type KeptField struct {
	Path, Sent, Answered string
}

func (e *NotAppliedError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = fmt.Sprintf("%s is %s, %s was sent", f.Path, f.Answered, f.Sent)
	}
	return "not applied: the server answered but kept what it had (" + strings.Join(parts, "; ") + ")"
}

// maxKeptValue bounds a value a NotAppliedError quotes.
const maxKeptValue = 60

// kept holds a masked PATCH's answer to what was sent: each mask path the
// answer's type has (a path it has no field for, such as a secret no read
// returns, cannot be checked) must answer the value sent, absent and
// empty being one. A list is compared as a set: a server may order it.
func kept(r Request, mask []string, sent map[string]json.RawMessage, answer any) error {
	if slices.Contains(mask, FieldAll) {
		return nil
	}
	b, err := json.Marshal(answer)
	if err != nil {
		return nil // what was decoded encodes; nothing to hold it to otherwise
	}
	var got map[string]json.RawMessage
	if json.Unmarshal(b, &got) != nil || len(got) == 0 {
		return nil // no resource in the answer: nothing says what it holds
	}
	var fields []KeptField
	for _, path := range mask {
		keys := jsonPath(path)
		if !hasPath(reflect.TypeOf(answer), keys) {
			continue
		}
		want, have := valueAt(sent, keys), valueAt(got, keys)
		if !sameValue(want, have) {
			fields = append(fields, KeptField{Path: path, Sent: bounded(want), Answered: bounded(have)})
		}
	}
	if len(fields) == 0 {
		return nil
	}
	return &NotAppliedError{Method: r.Method, Path: r.Path, Fields: fields}
}

// differences are the fields of a create's body, each sent with a value,
// that the created resource (answer) holds otherwise, where its type has
// that field (a secret no read returns, a uid sent for a reference the
// answer spells out, cannot be compared).
func differences(body, answer any) []KeptField {
	b, err := json.Marshal(body)
	if err != nil {
		return nil
	}
	var sent map[string]json.RawMessage
	if json.Unmarshal(b, &sent) != nil {
		return nil
	}
	a, err := json.Marshal(answer)
	if err != nil {
		return nil
	}
	var got map[string]json.RawMessage
	if json.Unmarshal(a, &got) != nil || len(got) == 0 {
		return nil
	}
	return differing(nil, sent, got, reflect.TypeOf(answer))
}

// differing compares the members of an object sent with those answered,
// under path, where type t has them: an object member of a struct field
// member by member (a secret inside is left out, as t has no field for it).
func differing(path []string, sent, got map[string]json.RawMessage, t reflect.Type) []KeptField {
	var out []KeptField
	for _, key := range slices.Sorted(maps.Keys(sent)) {
		want := valueAt(sent, []string{key})
		if normal(want) == nil || !hasPath(t, []string{key}) {
			continue
		}
		at := append(slices.Clone(path), key)
		var subSent, subGot map[string]json.RawMessage
		if json.Unmarshal(sent[key], &subSent) == nil {
			_ = json.Unmarshal(got[key], &subGot)
			out = append(out, differing(at, subSent, subGot, fieldType(t, key))...)
			continue
		}
		if have := valueAt(got, []string{key}); !sameValue(want, have) {
			out = append(out, KeptField{Path: strings.Join(at, "."), Sent: bounded(want), Answered: bounded(have)})
		}
	}
	return out
}

// fieldType is the type of t's field of that JSON name (t a struct or a
// pointer to one, which hasPath has checked).
func fieldType(t reflect.Type, key string) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	f, _ := fieldNamed(t, key)
	return f.Type
}

// jsonPath is a mask path's JSON keys (claim_match.subject → claimMatch, subject).
func jsonPath(path string) []string {
	parts := strings.Split(path, ".")
	for i, p := range parts {
		parts[i] = JSONName(p)
	}
	return parts
}

// hasPath reports whether type t (a struct, or a pointer to one) has a
// field at the JSON keys.
func hasPath(t reflect.Type, keys []string) bool {
	for _, key := range keys {
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			return false
		}
		f, ok := fieldNamed(t, key)
		if !ok {
			return false
		}
		t = f.Type
	}
	return true
}

// fieldNamed is the field of struct t whose JSON name is key.
func fieldNamed(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == key || name == "" && f.Name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// valueAt is the value at the JSON keys of an object, nil when absent.
func valueAt(obj map[string]json.RawMessage, keys []string) any {
	raw, ok := obj[keys[0]]
	if !ok {
		return nil
	}
	if len(keys) > 1 {
		var sub map[string]json.RawMessage
		if json.Unmarshal(raw, &sub) != nil {
			return nil
		}
		return valueAt(sub, keys[1:])
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return v
}

// sameValue compares two JSON values, an empty one (null, "", 0, false,
// [] or {}) being the same as an absent one, and lists as sets.
func sameValue(a, b any) bool {
	a, b = normal(a), normal(b)
	return reflect.DeepEqual(a, b)
}

// normal is a JSON value with empty values nil and lists sorted.
func normal(v any) any {
	switch x := v.(type) {
	case string:
		if x == "" {
			return nil
		}
	case float64:
		if x == 0 {
			return nil
		}
	case bool:
		if !x {
			return nil
		}
	case []any:
		if len(x) == 0 {
			return nil
		}
		keys := make([]string, len(x))
		for i, e := range x {
			b, _ := json.Marshal(normal(e))
			keys[i] = string(b)
		}
		slices.Sort(keys)
		return keys
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if n := normal(e); n != nil {
				out[k] = n
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	return v
}

// bounded is a value as a NotAppliedError quotes it: JSON, cut short.
func bounded(v any) string {
	if v == nil {
		return "empty"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	// JSON escapes every control character, so the text is inert.
	if r := []rune(string(b)); len(r) > maxKeptValue {
		return string(r[:maxKeptValue]) + "…"
	}
	return string(b)
}
