package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// secretMembers are the JSON members that carry a secret: an identity
// provider's client secret (sent), an invite's code (said once, in the
// answer to its create), a SCIM token (said once, in the answer that makes
// it). A change record never keeps their values: :changes shows bodies and
// answers, and copies them as curl.
func secretMembers() []string { return []string{"clientSecret", "code", "token"} }

// Redacted is what a secret's value reads as in a change record.
const Redacted = "[redacted]"

// withoutSecrets is a JSON body with the value of each secret member
// replaced by Redacted (a body without one comes back as it is).
func withoutSecrets(body []byte) []byte {
	if !slices.ContainsFunc(secretMembers(), func(m string) bool { return bytes.Contains(body, []byte(`"`+m+`"`)) }) {
		return body
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return nil // not JSON we sent: keep nothing rather than a secret
	}
	out, err := json.Marshal(redactSecrets(v))
	if err != nil {
		return nil
	}
	return out
}

// redactSecrets replaces the values of secret members in a decoded JSON value.
func redactSecrets(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && s != "" && slices.Contains(secretMembers(), k) {
				t[k] = Redacted
				continue
			}
			t[k] = redactSecrets(x)
		}
	case []any:
		for i, x := range t {
			t[i] = redactSecrets(x)
		}
	}
	return v
}

// Recorded is an answer as a change record keeps it: indented JSON,
// without its secrets.
func Recorded(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("record answer: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, withoutSecrets(b), "", "  "); err != nil {
		return nil, fmt.Errorf("record answer: %w", err)
	}
	return out.Bytes(), nil
}
