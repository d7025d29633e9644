package ui

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"canopy/api"
	"canopy/safe"
)

// ChangeLog keeps every change the client made in this session, for
// `:changes`. Record is the client's Observe hook, called from request
// goroutines; each change comes with what its screen said of it (its
// resource's name, old → new: an api.Note on the request's context), which
// the raw request does not tell.
type ChangeLog struct {
	mu      sync.Mutex
	changes []entryOf
	// answers are what came back for the noted changes: the server's
	// answer, or what a lookup found after it was lost.
	answers map[*api.Note]*answer
}

// answer is what the UI learnt of a change it noted once it was sent.
type answer struct {
	response []byte // the server's answer (JSON), once known
	// then is what a lookup found after the answer was lost ("found
	// created", "found not deleted", "lookup failed").
	then string
}

// entryOf is a change, when it was made, and what the UI said of it
// (Change.Note: nil when no screen said, for a change made outside one).
type entryOf struct {
	api.Change
	At  time.Time
	Seq int
}

// answerOf is the answer kept for n (never nil), made on first use; the
// lock is held.
func (l *ChangeLog) answerOf(n *api.Note) *answer {
	if l.answers == nil {
		l.answers = map[*api.Note]*answer{}
	}
	a := l.answers[n]
	if a == nil {
		a = &answer{}
		l.answers[n] = a
	}
	return a
}

// answered keeps the server's answer to a change the UI said beforehand.
func (l *ChangeLog) answered(n *api.Note, result any) {
	b, err := api.Recorded(result)
	if err != nil || n == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.answerOf(n).response = b
}

// settle keeps what a lookup found after a change's answer was lost.
func (l *ChangeLog) settle(n *api.Note, then string) {
	if n == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.answerOf(n).then = then
}

// then is what a lookup found for an entry whose answer was lost, read
// under the lock ("" when none was made).
func (l *ChangeLog) then(e *entryOf) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a := l.answers[e.Note]; a != nil {
		return a.then
	}
	return ""
}

// Record adds a finished change, with what a screen said of it.
func (l *ChangeLog) Record(c api.Change) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.changes = append(l.changes, entryOf{Change: c, At: time.Now(), Seq: len(l.changes) + 1})
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
	l.mu.Lock()
	defer l.mu.Unlock()
	if a := l.answers[e.Note]; a != nil {
		return a.response
	}
	return nil
}

// differsText says the fields a create's answer holds otherwise than
// sent: "catalog_tier is "BASE", "FIPS" was sent".
func differsText(fs []api.KeptField) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("%s is %s, %s was sent", f.Path, f.Answered, f.Sent)
	}
	return strings.Join(parts, "; ")
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
	r := c.Change.Request()
	r.Mask = "" // said on its own (mask)
	return safe.String(r.Short())
}

// what is the resource and the change, as the UI said them (the mask
// alone for a change no screen described).
func (c *entryOf) what() string {
	if c.Note == nil {
		if c.Mask != "" {
			return "update_mask=" + c.Mask
		}
		return ""
	}
	s := c.Note.What
	if c.Note.Fields != "" {
		s += " · " + c.Note.Fields
	}
	if c.Note.Change != "" {
		s += " · " + c.Note.Change
	}
	return s
}

// result is "ok (12ms)", the error, or that the answer was lost and
// what a lookup then found (then: "found created").
func (c *entryOf) result(then string) string {
	switch {
	case c.Err == nil && c.Note != nil && len(c.Note.Differs) > 0:
		return "ok, but not as sent: " + safe.String(differsText(c.Note.Differs))
	case c.Err == nil:
		return "ok (" + c.Took.Round(time.Millisecond).String() + ")"
	case api.MaybeMade(c.Err) && then != "":
		return "unknown, then " + then
	case api.MaybeMade(c.Err):
		return "unknown: " + safe.String(api.LostCause(c.Err))
	}
	if apiErr, ok := api.AsError(c.Err); ok {
		return apiErr.Code.String() + ": " + safe.String(apiErr.Message)
	}
	return safe.String(c.Err.Error())
}
