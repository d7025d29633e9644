package api

import (
	"bytes"
	"encoding/json"
	"slices"
)

// secretMembers are the JSON members of a request body that carry a
// secret (an identity provider's client secret). The change record never
// keeps their values: :changes shows the body and copies it as curl.
func secretMembers() []string { return []string{"clientSecret"} }

// Redacted is what a secret's value reads as in a change record.
const Redacted = "[redacted]"

// withoutSecrets is a JSON body with the value of each secret member
// replaced by Redacted (a body without one comes back as it is).
func withoutSecrets(body []byte) []byte {
	if !bytes.Contains(body, []byte("Secret")) {
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
