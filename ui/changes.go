package ui

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"canopy/api"
	"canopy/views/safe"
)

// ChangeLog keeps every change the client made in this session, for
// `:changes`. Record is the client's Observe hook, called from request
// goroutines; the screens say beforehand what each change is about (its
// resource's name, old → new), which the raw request does not tell.
type ChangeLog struct {
	mu      sync.Mutex
	changes []entryOf
	pending []*note // said beforehand, not yet recorded
}

// note is what the UI knows of a change it sends: which resource (by
// name), which fields, old → new; and, once answered, what came back.
type note struct {
	method, path string // the request, to match the client's record
	what         string // `repo "nginx"`, `tag "v1" of nginx`
	fields       string // the mask or the fields sent: "description"
	change       string // `"old" → "new"`
	response     []byte // the server's answer (JSON), once known
	// then is what a lookup found after the answer was lost ("found
	// created", "found not deleted", "lookup failed").
	then string
}

// entryOf is a change, when it was made, and what the UI said of it.
type entryOf struct {
	api.Change
	At   time.Time
	Seq  int
	Note *note // nil when no screen said (a change made outside one)
}

// pendingMax bounds notes that no request came for (a log that is not
// the client's observer never records).
const pendingMax = 256

// expect says what the next change sent with this method to this path
// is; the record of that change takes it.
func (l *ChangeLog) expect(n *note) *note {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, n)
	if len(l.pending) > pendingMax {
		l.pending = l.pending[len(l.pending)-pendingMax:]
	}
	return n
}

// answered keeps the server's answer to a change the UI said beforehand.
func (l *ChangeLog) answered(n *note, result any) {
	b, err := json.MarshalIndent(result, "", "  ")
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n.response = b
}

// settle keeps what a lookup found after a change's answer was lost.
func (l *ChangeLog) settle(n *note, then string) {
	if n == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n.then = then
}

// then is what a lookup found for an entry whose answer was lost, read
// under the lock ("" when none was made).
func (l *ChangeLog) then(e *entryOf) string {
	if e.Note == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return e.Note.then
}

// Record adds a finished change, with what a screen said of it.
func (l *ChangeLog) Record(c api.Change) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := entryOf{Change: c, At: time.Now(), Seq: len(l.changes) + 1}
	if u, err := url.Parse(c.URL); err == nil {
		for i, n := range l.pending {
			if n.method == c.Method && strings.HasSuffix(u.Path, n.path) {
				e.Note = n
				l.pending = append(l.pending[:i], l.pending[i+1:]...)
				break
			}
		}
	}
	l.changes = append(l.changes, e)
}

// newestFirst is a copy of the log, newest first.
func (l *ChangeLog) newestFirst() []entryOf {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]entryOf, len(l.changes))
	for i, c := range l.changes {
		out[len(out)-1-i] = c
	}
	return out
}

// response is the answer kept for an entry, read under the lock.
func (l *ChangeLog) response(e *entryOf) []byte {
	if e.Note == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return e.Note.response
}

// curl is the change as a command to run again, with the token left to
// the shell ($CANOPY_TOKEN), never written.
func curl(c api.Change) string {
	var b strings.Builder
	fmt.Fprintf(&b, `curl -X %s %s -H "Authorization: Bearer $CANOPY_TOKEN"`, c.Method, shellQuote(c.URL))
	if c.Body != nil {
		fmt.Fprintf(&b, ` -H 'Content-Type: application/json' --data %s`, shellQuote(string(c.Body)))
	}
	return b.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// request is the change as a short line: method and short path.
func (c *entryOf) request() string {
	path := c.URL
	if u, err := url.Parse(c.URL); err == nil {
		path = u.Path
	}
	return safe.String(c.Method + " " + shortPath(apiPath(path)))
}

// mask is the update mask the request sent, if any.
func (c *entryOf) mask() string {
	u, err := url.Parse(c.URL)
	if err != nil {
		return ""
	}
	if m := u.Query().Get("update_mask"); m != "" {
		return m
	}
	return u.Query().Get("updateMask")
}

// apiPath drops what precedes the API's own path (a base URL's path).
func apiPath(p string) string {
	for _, domain := range []string{"/iam/", "/registry/", "/events/", "/vulnerabilities/", "/libraries/"} {
		if i := strings.Index(p, domain); i >= 0 {
			return p[i:]
		}
	}
	return p
}

// what is the resource and the change, as the UI said them (the mask
// alone for a change no screen described).
func (c *entryOf) what() string {
	if c.Note == nil {
		if m := c.mask(); m != "" {
			return "update_mask=" + m
		}
		return ""
	}
	s := c.Note.what
	if c.Note.fields != "" {
		s += " · " + c.Note.fields
	}
	if c.Note.change != "" {
		s += " · " + c.Note.change
	}
	return s
}

// result is "ok (12ms)", the error, or that the answer was lost and
// what a lookup then found (then: "found created").
func (c *entryOf) result(then string) string {
	switch {
	case c.Err == nil:
		return "ok (" + c.Took.Round(time.Millisecond).String() + ")"
	case unknownOutcome(c.Err) && then != "":
		return "unknown, then " + then
	case unknownOutcome(c.Err):
		return "unknown: " + safe.String(api.LostCause(c.Err))
	}
	if apiErr, ok := api.AsError(c.Err); ok {
		return apiErr.Code.String() + ": " + safe.String(apiErr.Message)
	}
	return safe.String(c.Err.Error())
}
