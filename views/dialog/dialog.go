// Package dialog asks before a change is made, runs it, and shows what
// happened to each part: a confirmation that lists what will be changed
// (and, for what cannot be undone lightly, asks the user to type a name),
// then per-item results, where a refusal is explained, not hidden.
package dialog

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/safe"
	"canopy/views/text"
)

// Item is one change: what it is, and how to make it.
type Item struct {
	Key   string // the owner's id for the item (a uid)
	Label string // safe to print
	Run   func(ctx context.Context) error
}

// Outcome turns a failed Run's error into what the dialog says and
// whether the item counts as done anyway (a delete of something already
// gone): the shell gives one that knows the API's errors.
type Outcome func(err error) (lines []string, done bool)

// Config is a dialog.
type Config struct {
	ID    string // tells the owner which dialog answered
	Title string
	// Lines explain what will happen (safe to print).
	Lines []string
	Items []Item
	// Confirm, when set, must be typed before the change is made (a
	// folder's name, for deleting it).
	Confirm string
	// Verb names the change in the prompt ("delete").
	Verb    string
	Outcome Outcome
	// Parallel is how many items run at once; 0 means 4.
	Parallel int
	// AutoClose closes the dialog by itself when every item succeeded (a
	// single binding needs no "close" key).
	AutoClose bool
	// Next offers the next step after a refusal ("delete its 3 repos
	// first"): enter takes it (cmd runs once the dialog is closed).
	Next func(err error) (hint string, cmd tea.Cmd)
}

// DoneMsg tells the owner which items were done once the dialog closes.
type DoneMsg struct {
	ID   string
	Done []string // keys of the items done
}

// resultMsg carries one item's result.
type resultMsg struct {
	owner *Model
	index int
	err   error
}

type state int

const (
	asking state = iota
	running
	finished
)

// Model is a dialog screen.
type Model struct {
	common views.Common
	ctx    context.Context
	cfg    Config
	state  state
	input  textinput.Model
	errs   []error
	ran    []bool
	left   int
	sem    chan struct{}
	offset int
	width  int
	height int
}

// New makes a dialog; ctx bounds the changes it runs.
func New(ctx context.Context, common views.Common, cfg Config) *Model {
	if cfg.Parallel <= 0 {
		cfg.Parallel = 4
	}
	m := &Model{common: common, ctx: ctx, cfg: cfg, errs: make([]error, len(cfg.Items)), ran: make([]bool, len(cfg.Items)),
		sem: make(chan struct{}, cfg.Parallel)}
	if cfg.Confirm != "" {
		m.input = views.NewInput(common, "type "+safe.String(cfg.Confirm)+" to confirm: ", "")
	}
	return m
}

// Init focuses the confirmation input, if there is one.
func (m *Model) Init() tea.Cmd {
	if m.cfg.Confirm != "" {
		return m.input.Focus()
	}
	return nil
}

// Title names the dialog.
func (m *Model) Title() string { return m.cfg.Title }

// Busy reports whether changes are running.
func (m *Model) Busy() bool { return m.state == running }

// TakesText reports whether typed keys go to the confirmation input.
func (m *Model) TakesText() bool { return m.state == asking && m.cfg.Confirm != "" }

// SetSize sets the dialog's size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.input.SetWidth(max(w-10, 10))
}

// Actions: confirm or cancel while asking; close when finished.
func (m *Model) Actions() []keymap.State {
	switch m.state {
	case asking:
		accept := keymap.On(keymap.Accept)
		if m.cfg.Confirm != "" && m.input.Value() != m.cfg.Confirm {
			accept = keymap.Off(keymap.Accept, "type "+safe.String(m.cfg.Confirm)+" exactly to confirm")
		}
		return []keymap.State{accept, keymap.On(keymap.Cancel), keymap.Quiet(keymap.Up), keymap.Quiet(keymap.Down)}
	case running:
		return []keymap.State{keymap.Off(keymap.Cancel, "wait: changes are being made"), keymap.Quiet(keymap.Up), keymap.Quiet(keymap.Down)}
	}
	return []keymap.State{keymap.On(keymap.Accept), keymap.On(keymap.Cancel), keymap.Quiet(keymap.Up), keymap.Quiet(keymap.Down)}
}

// Update confirms, runs, takes results and closes.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case resultMsg:
		if msg.owner != m {
			return nil
		}
		m.errs[msg.index], m.ran[msg.index] = msg.err, true
		m.left--
		if m.left == 0 {
			m.state = finished
			if m.cfg.AutoClose && m.allDone() {
				return m.close()
			}
		}
		return nil
	case tea.KeyPressMsg:
		st, ok := m.common.Keys.Lookup(msg, m.Actions())
		if ok && !st.Enabled {
			return views.Disabled(st)
		}
		if ok {
			switch st.Action {
			case keymap.Accept:
				if m.state == asking {
					return m.run()
				}
				if _, next := m.next(); next != nil {
					return tea.Sequence(m.close(), next)
				}
				return m.close()
			case keymap.Cancel:
				if m.state == asking {
					return views.Back(m)
				}
				return m.close()
			case keymap.Up:
				m.offset = max(m.offset-1, 0)
				return nil
			case keymap.Down:
				m.offset++
				return nil
			}
		}
		if m.state == asking && m.cfg.Confirm == "" && (msg.String() == "y" || msg.String() == "Y") {
			return m.run()
		}
		if m.TakesText() {
			var cmd tea.Cmd
			m.input, cmd = m.input.Update(msg)
			return cmd
		}
	}
	return nil
}

// run starts every item, at most Parallel at a time.
func (m *Model) run() tea.Cmd {
	m.state = running
	m.left = len(m.cfg.Items)
	if m.left == 0 {
		m.state = finished
		return nil
	}
	cmds := make([]tea.Cmd, len(m.cfg.Items))
	for i, it := range m.cfg.Items {
		ctx, sem, owner := m.ctx, m.sem, m
		cmds[i] = func() tea.Msg {
			sem <- struct{}{}
			defer func() { <-sem }()
			return resultMsg{owner: owner, index: i, err: it.Run(ctx)}
		}
	}
	return tea.Batch(cmds...)
}

// close leaves the dialog and tells the owner what was done.
func (m *Model) close() tea.Cmd {
	var done []string
	for i, it := range m.cfg.Items {
		if !m.ran[i] {
			continue
		}
		if m.errs[i] == nil {
			done = append(done, it.Key)
		} else if m.cfg.Outcome != nil {
			if _, ok := m.cfg.Outcome(m.errs[i]); ok {
				done = append(done, it.Key)
			}
		}
	}
	id := m.cfg.ID
	// The owner hears what was done before the dialog goes (it may be the
	// dialog's own screen that closes).
	return tea.Sequence(func() tea.Msg { return DoneMsg{ID: id, Done: done} }, views.Back(m))
}

// next is the step offered after the first refusal that has one.
func (m *Model) next() (string, tea.Cmd) {
	if m.cfg.Next == nil || m.state != finished {
		return "", nil
	}
	for i := range m.cfg.Items {
		if m.ran[i] && m.errs[i] != nil {
			if hint, cmd := m.cfg.Next(m.errs[i]); hint != "" {
				return hint, cmd
			}
		}
	}
	return "", nil
}

// allDone reports whether every item ran without an error.
func (m *Model) allDone() bool {
	for i := range m.cfg.Items {
		if !m.ran[i] || m.errs[i] != nil {
			return false
		}
	}
	return true
}

// View draws the question (or the progress, or the summary) at the top,
// where it is always seen, and the items with their results below it,
// scrolled with ↑/↓.
func (m *Model) View() string {
	th := m.common.Theme
	var head, body []string
	cut := func(s string) string { return text.Cut(s, m.width, th.Glyphs.Ellipsis) }
	head = append(head, cut(th.OverlayTitle.Render(m.cfg.Title)), "")
	for _, l := range m.cfg.Lines {
		head = append(head, cut(l))
	}
	ok, failed := 0, 0
	for i, it := range m.cfg.Items {
		mark := "  "
		var extra []string
		switch {
		case !m.ran[i] && m.state == running:
			mark = th.Muted.Render("… ")
		case !m.ran[i]:
		case m.errs[i] == nil:
			mark = th.Good.Render("ok ")
			ok++
		default:
			lines, done := m.outcome(m.errs[i])
			if done {
				mark = th.Good.Render("ok ")
				ok++
			} else {
				mark = th.Bad.Render(th.Glyphs.Failed + " ")
				failed++
			}
			extra = lines
		}
		body = append(body, cut("  "+mark+it.Label))
		for _, e := range extra {
			body = append(body, cut("       "+th.Bad.Render(e)))
		}
	}
	switch m.state {
	case asking:
		if m.cfg.Confirm != "" {
			head = append(head, "", cut(m.input.View()), cut(th.Muted.Render("enter "+m.cfg.Verb+"s · esc cancels")))
		} else {
			q := strings.ToUpper(m.cfg.Verb[:1]) + m.cfg.Verb[1:]
			if len(m.cfg.Items) > 1 {
				q += " " + text.Count(len(m.cfg.Items))
			}
			head = append(head, "", cut(th.Warn.Render(q+"?")+th.Muted.Render("  y or enter: yes · esc: no")))
		}
	case running:
		head = append(head, "", cut(th.Muted.Render("working… "+text.Count(len(m.cfg.Items)-m.left)+"/"+text.Count(len(m.cfg.Items)))))
	default:
		summary := text.Count(ok) + " done"
		if failed > 0 {
			summary += ", " + th.Bad.Render(text.Count(failed)+" failed")
		}
		if hint, _ := m.next(); hint != "" {
			head = append(head, "", cut(summary), cut(th.Warn.Render(hint)+th.Muted.Render("  enter: go there · esc closes")))
		} else {
			head = append(head, "", cut(summary+th.Muted.Render(" · enter or esc closes")))
		}
	}
	head = append(head, "")
	room := max(m.height-len(head), 1)
	offset := min(m.offset, max(len(body)-room, 0))
	out := append(head, body[offset:min(offset+room, len(body))]...)
	if len(out) > m.height {
		out = out[:m.height]
	}
	for len(out) < m.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// outcome explains an error, with the default for a shell that gave none.
func (m *Model) outcome(err error) ([]string, bool) {
	if m.cfg.Outcome != nil {
		return m.cfg.Outcome(err)
	}
	return []string{safe.String(err.Error())}, false
}
