package ui

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"canopy/api"
	"canopy/views"
	"canopy/views/paging"
	"canopy/views/safe"
	"canopy/views/table"
	"canopy/views/text"
)

// ChangeLog keeps every change the client made in this session, for
// `:changes`. Record is the client's Observe hook, called from request
// goroutines.
type ChangeLog struct {
	mu      sync.Mutex
	changes []entryOf
}

// entryOf is a change and when it was made.
type entryOf struct {
	api.Change
	At  time.Time
	Seq int
}

// Record adds a finished change.
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

// changesTable lists the log.
func (e *env) changesTable(ctx context.Context) views.Screen {
	log := e.changes
	src := func(context.Context, paging.Request) (paging.Result[entryOf], error) {
		all := log.newestFirst()
		return paging.Result[entryOf]{Items: all, Total: int64(len(all))}, nil
	}
	key := func(c *entryOf) string { return strconv.Itoa(c.Seq) }
	cols := []table.Column[entryOf]{
		{Title: "WHEN", Width: 8, Cell: func(c *entryOf) string { return text.Age(c.At, e.common.Clock()) + " ago" }},
		{Title: "REQUEST", Flex: 3, Min: 30, Cell: func(c *entryOf) string {
			u, err := url.Parse(c.URL)
			if err != nil {
				return safe.String(c.Method + " " + c.URL)
			}
			return safe.String(c.Method + " " + u.RequestURI())
		}},
		{Title: "RESULT", Flex: 2, Min: 12, Drop: 1, Cell: func(c *entryOf) string {
			if c.Err == nil {
				return "ok (" + c.Took.Round(time.Millisecond).String() + ")"
			}
			return safe.String(c.Err.Error())
		}},
	}
	return table.New(e.common, table.Config[entryOf]{Title: "changes made in this session", Columns: cols,
		List: paging.New(ctx, src, key), Key: key, OpenReason: "y copies it as a curl command",
		Copy: func(c *entryOf) (string, string) { return curl(c.Change), "curl command" }})
}
