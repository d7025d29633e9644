package api

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// tokenClockSkew is how long past its exp a JWT is still sent: the server's clock may be behind
// ours by that much, and then it still takes the token. Past it, the token is not sent at all.
const tokenClockSkew = 30 * time.Second

// expired says how long ago raw's exp passed when it did by more than tokenClockSkew, e.g.
// "expired 3 h ago (at 2026-03-01T09:00:00Z)"; "" when raw may be sent (a token without a
// readable exp included: only the server can tell).
func (st *tokenState) expired(raw string) string {
	exp, ok := JWTExpiry(raw)
	if now := st.opts.Now(); ok && !now.Before(exp.Add(tokenClockSkew)) {
		return expiredAgo(now, exp)
	}
	return ""
}

// expiredAgo says when exp passed, roughly and exactly: "expired 3 h ago (at …)".
func expiredAgo(now, exp time.Time) string {
	return "expired " + ago(now.Sub(exp)) + " ago (at " + exp.UTC().Format(time.RFC3339) + ")"
}

// ago is a duration as a person says it: 40 s, 5 min, 3 h, 2 days.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d/time.Hour))
	}
	return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
}

// JWTExpiry reads the exp claim of a JWT without checking its signature: canopy only needs to
// know when to refresh, and the server checks the signature anyway.
func JWTExpiry(token string) (time.Time, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return time.Time{}, false
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return time.Time{}, false
	}
	var claims struct {
		Exp *json.Number `json:"exp"`
	}
	if json.Unmarshal(payload, &claims) != nil || claims.Exp == nil {
		return time.Time{}, false
	}
	if sec, err := claims.Exp.Int64(); err == nil && sec > 0 {
		return time.Unix(sec, 0), true
	}
	if f, err := claims.Exp.Float64(); err == nil && f > 0 && f < 1<<62 {
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)), true
	}
	return time.Time{}, false
}
