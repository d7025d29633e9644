package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/pager"
	"canopy/views/paging"
	"canopy/views/table"
)

// changesTable lists the log: each request short (method, short path,
// mask), what it changed (resource, fields, old → new) and its result;
// enter opens one in full, y copies it as curl.
func (e *env) changesTable(ctx context.Context) views.Screen {
	log := e.changes
	src := func(context.Context, paging.Request) (paging.Result[entryOf], error) {
		all := log.newestFirst()
		return paging.Result[entryOf]{Items: all, Total: int64(len(all))}, nil
	}
	key := func(c *entryOf) string { return strconv.Itoa(c.Seq) }
	cols := []table.Column[entryOf]{
		{Title: "WHEN", Width: 8, Cell: func(c *entryOf) safe.Text { return safe.Of(text.Age(c.At, e.common.Clock())) + " ago" }},
		{Title: "REQUEST", Width: 46, Cell: func(c *entryOf) safe.Text { return safe.Of(c.request()) }},
		{Title: "WHAT", Flex: 2, Min: 20, Drop: 2, Cell: func(c *entryOf) safe.Text { return safe.Of(c.what()) }},
		{Title: "RESULT", Flex: 1, Min: 20, Max: 40, Drop: 1, Cell: func(c *entryOf) safe.Text { return safe.Of(c.result(log.then(c))) }},
	}
	return table.New(e.common, table.Config[entryOf]{Title: "changes made in this session", Columns: cols,
		List: paging.New(ctx, src, key), Key: key, Watch: func(views.Change) bool { return true }, // any change is logged

		Open: func(c *entryOf) tea.Cmd {
			page := e.changePage(*c)
			return e.open(func(context.Context) views.Screen { return page })
		},
		Copy: func(c *entryOf) (string, string) { return curl(c.Change), curlWhat(c.Change) }})
}

// changePage is one change in full: the request, the body sent, and the
// answer or the error.
func (e *env) changePage(c entryOf) views.Screen {
	sections := []pager.Section{
		{Label: "request", Text: safe.String(c.Method + " " + c.URL)},
		{Label: "sends", Text: c.request() + maskOf(&c)},
	}
	if w := c.what(); w != "" {
		sections = append(sections, pager.Section{Label: "what", Text: safe.String(w)})
	}
	sections = append(sections, pager.Section{Label: "when", Text: text.Stamp(c.At) + " · took " + c.Took.Round(time.Millisecond).String()})
	if c.Body != nil {
		sections = append(sections, pager.Section{Label: "body", Text: safe.Lines(indentJSON(c.Body))})
	}
	switch {
	case c.Err == nil:
		sections = append(sections, pager.Section{Label: "result", Text: "ok"})
		if r := e.changes.response(&c); r != nil {
			sections = append(sections, pager.Section{Label: "response", Text: safe.Lines(string(r))})
		}
	case api.MaybeMade(c.Err):
		how := "refresh the screen that shows it to see"
		if then := e.changes.then(&c); then != "" {
			how = "looked up after: " + then
		}
		sections = append(sections, pager.Section{Label: "result", Text: unknownLine(c.Err, "the change was made", how)},
			pager.Section{Label: "error", Text: safe.String(c.Err.Error())})
	default:
		sections = append(sections, pager.Section{Label: "result", Text: "failed"},
			pager.Section{Label: "error", Text: strings.Join(e.failure(c.Err), "\n")})
	}
	sections = append(sections, pager.Section{Label: "curl", Text: safe.String(curl(c.Change))},
		pager.Section{Label: "", Text: e.common.Theme.Muted.Render(e.common.Key(keymap.Copy) +
			" copies the curl command (the token stays in $CANOPY_TOKEN) · " + e.common.Key(keymap.Back) + " goes back")})
	return pager.New(e.common, pager.Config{Title: safe.Of("change " + strconv.Itoa(c.Seq) + ": " + c.request()), Sections: sections,
		Copy: func() (string, string) { return curl(c.Change), curlWhat(c.Change) }})
}

// indentJSON pretty-prints a request body (as sent when it is not JSON).
func indentJSON(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(b)
	}
	return string(out)
}

func maskOf(c *entryOf) string {
	if c.Mask != "" {
		return " · update_mask=" + safe.String(c.Mask)
	}
	return ""
}

// curlWhat says what was copied: a curl command, and that a secret the
// record does not keep must be put back in it before it is run.
func curlWhat(c api.Change) string {
	if bytes.Contains(c.Body, []byte(api.Redacted)) {
		return "curl command (its secret is " + api.Redacted + ": put it back before running it)"
	}
	return "curl command"
}
