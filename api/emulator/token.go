package emulator

import (
	"encoding/base64"
	"encoding/json"
	"time"
)

// pageToken is what nextPageToken carries, base64url-encoded JSON: the hash
// of the query it continues, the sort key of the last item returned, and when
// it was issued. Clients must treat it as opaque.
type pageToken struct {
	Query  uint64 `json:"q"`
	After  posKey `json:"k"`
	Issued int64  `json:"t"`
}

func encodeToken(t pageToken) string {
	b, _ := json.Marshal(t) // a struct of strings and numbers always encodes
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeToken returns the cursor of a token, or nil when the token does not
// continue this query or has expired: the list then restarts from the first
// page, without error, as the spec says.
func decodeToken(s string, query uint64, now time.Time, lifetime time.Duration) *posKey {
	if s == "" {
		return nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil
	}
	var t pageToken
	if json.Unmarshal(b, &t) != nil || t.Query != query {
		return nil
	}
	if now.Sub(time.UnixMilli(t.Issued)) > lifetime {
		return nil
	}
	return &t.After
}
