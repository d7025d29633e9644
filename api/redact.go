package api

import (
	"bytes"
	"encoding/json"
	"strings"
)

// redacted replaces a token wherever one would show.
const redacted = "[redacted]"

// redactString hides the token sent (secret) and anything shaped like a JWT.
func redactString(s, secret string) string {
	return jwtLike.ReplaceAllString(withoutToken(s, secret), redacted)
}

// hideToken hides the token in an error body: a proxy or server that echoes the
// request into its error would otherwise put the token on screen and in logs.
// It works on the raw bytes; redactStatus and redactJSON catch a token that
// JSON escapes (\u0041...) hide from it.
func hideToken(body []byte, secret string) []byte {
	return []byte(redactString(string(body), secret))
}

// tokenMin is the length below which a secret is not searched for in text:
// no bearer token is that short, and a short one ("t") would be found
// inside every word ("argumen[redacted]").
const tokenMin = 8

// withoutToken replaces every occurrence of secret in s, also one that
// letters touch: a server that glues the token to other text ("Bearer0…",
// "token=…x") must not show it. A secret that "[redacted]" itself holds is
// not searched for, so that a second pass changes nothing.
func withoutToken(s, secret string) string {
	if len(secret) < tokenMin || strings.Contains(redacted, secret) {
		return s
	}
	return strings.ReplaceAll(s, secret, redacted)
}

// redactStatus hides tokens in every decoded string of an error status.
func redactStatus(st *Status, secret string) {
	r := func(s *string) { *s = redactString(*s, secret) }
	r(&st.Message)
	for i := range st.Details {
		d := &st.Details[i]
		r(&d.Type)
		if e := d.ErrorInfo; e != nil {
			r(&e.Reason)
			r(&e.Domain)
			if e.Metadata != nil {
				md := make(map[string]string, len(e.Metadata))
				for k, v := range e.Metadata {
					md[redactString(k, secret)] = redactString(v, secret)
				}
				e.Metadata = md
			}
		}
		if b := d.BadRequest; b != nil {
			for j := range b.FieldViolations {
				r(&b.FieldViolations[j].Field)
				r(&b.FieldViolations[j].Description)
			}
		}
		if p := d.PreconditionFailure; p != nil {
			for j := range p.Violations {
				v := &p.Violations[j]
				r(&v.Type)
				r(&v.Subject)
				r(&v.Description)
			}
		}
		if ri := d.ResourceInfo; ri != nil {
			r(&ri.ResourceType)
			r(&ri.ResourceName)
			r(&ri.Owner)
			r(&ri.Description)
		}
	}
}

// redactJSON returns body with tokens hidden in its decoded strings: when
// one was hidden by JSON escapes, the body is encoded again without it.
// A body that is not JSON is returned as it is.
func redactJSON(body []byte, secret string) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return body
	}
	changed := false
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if y := redactString(x, secret); y != x {
				changed = true
				return y
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				k2 := redactString(k, secret)
				changed = changed || k2 != k
				out[k2] = walk(e)
			}
			return out
		}
		return v
	}
	v = walk(v)
	if !changed {
		return body
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return []byte(redacted)
	}
	return bytes.TrimSpace(b.Bytes())
}

// userinfoHidden stands for the user and password of a URL.
const userinfoHidden = "***"

// RedactUserinfo hides the user and password of every URL in s
// ("http://user:pw@host/x" shows as "http://***@host/x"): an API URL may
// carry them, and they must not reach a screen, a log or an error. It works
// on text (an error that quotes a URL that does not parse included): after
// each "://" the authority is taken to run to the first "/", "?", "#" or
// line end, and what comes before its last "@" is hidden. A password with
// a space or a quote in it is hidden too; text after a URL that holds an
// "@" is hidden with it, which errs on the safe side.
func RedactUserinfo(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			break
		}
		i += len("://")
		b.WriteString(s[:i])
		s = s[i:]
		end := strings.IndexAny(s, "/?#\r\n")
		if end < 0 {
			end = len(s)
		}
		if at := strings.LastIndexByte(s[:end], '@'); at >= 0 {
			b.WriteString(userinfoHidden)
			s = s[at:]
		}
	}
	b.WriteString(s)
	return b.String()
}
