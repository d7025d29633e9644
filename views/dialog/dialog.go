// Package dialog asks before a change is made, runs it, and shows what
// happened to each part: a confirmation that lists what will be changed
// (and, for what cannot be undone lightly, asks the user to type a name),
// then per-item results, where a refusal is explained, not hidden, and a
// change whose answer was lost is said to be unknown, not failed.
package dialog

import (
	"context"
	"slices"
	"unicode/utf8"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
)

// Item is one change: what it is, and how to make it.
type Item struct {
	Key   string // the owner's id for the item (a uid)
	Label safe.Text
	// Run makes the change, in a command. What it returns beside the
	// error (the server's answer, or nil) comes back to the owner in
	// Settled.Answers: a command keeps nothing of its own.
	Run func(ctx context.Context) (any, error)
}

// Result is what became of an item whose Run returned an error.
type Result int

const (
	// Failed: the server said no; nothing changed.
	Failed Result = iota
	// Done: what was asked is so (a delete of something already gone).
	Done
	// Unknown: the answer was lost (a timeout, a reset connection): the
	// change may or may not have been made.
	Unknown
)

// Outcome turns a failed Run's error into what the dialog says and what
// became of the item: the shell gives one that knows the API's errors.
type Outcome func(err error) (lines []string, r Result)

// Config is a dialog.
type Config struct {
	Title safe.Text
	// Lines explain what will happen.
	Lines []safe.Text
	// Facts, when set, are more lines that need a request (how many tags
	// go with a repo); they load when the dialog opens.
	Facts func(ctx context.Context) ([]safe.Text, error)
	Items []Item
	// Confirm, when set, must be typed before the change is made (a
	// folder's name, for deleting it); ConfirmWhat says what it is when
	// that is not obvious ("the last part of its uid").
	Confirm     string
	ConfirmWhat string
	// Verb names the change in the prompt ("delete").
	Verb    string
	Outcome Outcome
	// Parallel is how many items run at once; 0 means 4.
	Parallel int
	// AutoClose closes the dialog by itself when every item succeeded (a
	// single binding needs no "close" key).
	AutoClose bool
	// Next offers the next step after a refusal ("delete its 3 repos
	// first — enter opens them"; the hint says what enter does): enter
	// takes it (cmd runs once the dialog is closed).
	Next func(err error) (hint string, cmd tea.Cmd)
	// Done turns what became of the items, once the dialog closes after
	// running them, into its owner's own message: the owner gets its
	// answer by type, not by a name every screen compares. nil: nobody
	// is told.
	Done func(Settled) tea.Msg
}

// Settled is which items were done, and which have an unknown outcome.
type Settled struct {
	Done    []string // keys of the items done
	Unknown []string // keys of the items whose answer was lost
	// Answers are what the Runs returned beside their errors, by key
	// (only the non-nil ones).
	Answers map[string]any
}

// resultMsg carries one item's result.
type resultMsg struct {
	owner  *Model
	index  int
	answer any
	err    error
}

// factsMsg carries the lines Facts loaded.
type factsMsg struct {
	owner *Model
	lines []safe.Text
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
	closed bool // it closed itself (see views.Closer)
	// cancelled: it closed before anything was sent; Done is not called.
	cancelled bool
	common    views.Common
	ctx       context.Context
	cfg       Config
	state     state
	input     textinput.Model
	fill      views.Fill
	errs      []error
	answers   []any
	ran       []bool
	left      int
	sem       chan struct{}
	offset    int
	width     int
	height    int

	facts        []safe.Text
	factsErr     error
	factsLoading bool
	// askAbove puts "type <name> to confirm" on its own (wrapped) line
	// when the name is too long to prompt with on the input's line.
	askAbove bool

	headLines, bodyLines []string // as laid out by refresh
}

// New makes a dialog; ctx bounds the changes it runs.
func New(ctx context.Context, common views.Common, cfg Config) *Model {
	if cfg.Parallel <= 0 {
		cfg.Parallel = 4
	}
	m := &Model{common: common, ctx: ctx, cfg: cfg, errs: make([]error, len(cfg.Items)), answers: make([]any, len(cfg.Items)),
		ran: make([]bool, len(cfg.Items)),
		sem: make(chan struct{}, cfg.Parallel)}
	if cfg.Confirm != "" {
		m.input = views.NewInput(common, "type "+safe.String(cfg.Confirm)+" to confirm: ", "")
		// The name to type always fits, however long the server made it.
		m.input.CharLimit = max(views.InputMax, utf8.RuneCountInString(cfg.Confirm))
	}
	return m
}

// Init focuses the confirmation input, if there is one, and loads the
// facts.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.cfg.Confirm != "" {
		cmds = append(cmds, m.input.Focus())
	}
	if m.cfg.Facts != nil {
		m.factsLoading = true
		ctx, facts, owner := m.ctx, m.cfg.Facts, m
		cmds = append(cmds, func() tea.Msg {
			lines, err := facts(ctx)
			return factsMsg{owner: owner, lines: lines, err: err}
		})
	}
	m.refresh()
	return tea.Batch(cmds...)
}

// Title names the dialog.
func (m *Model) Title() safe.Text { return m.cfg.Title }

// Busy reports whether changes are running or facts loading.
func (m *Model) Busy() bool { return m.state == running || m.factsLoading }

// TakesText reports whether typed keys go to the confirmation input.
func (m *Model) TakesText() bool { return m.state == asking && m.cfg.Confirm != "" }

// SetSize sets the dialog's size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	if m.cfg.Confirm != "" {
		ask := "type " + safe.String(m.cfg.Confirm) + " to confirm: "
		m.askAbove = text.Width(ask)+16 > w
		m.input.Prompt = ask
		if m.askAbove {
			m.input.Prompt = "> "
		}
	}
	// The input pads itself to its width after the prompt (and a cell for
	// the cursor): fitted to the dialog, it is never cut with an ellipsis.
	m.input.SetWidth(max(w-text.Width(m.input.Prompt)-1, 1))
	m.refresh()
	m.scroll(0)
}

// scrollKeys move the list of items (not by half pages: ctrl+d deletes
// in the confirmation input).
func (m *Model) scrollKeys() []keymap.State {
	moves := views.Moves(m.offset, len(m.bodyLines), m.room(), func(to int) tea.Cmd {
		m.scroll(to - m.offset)
		return nil
	})
	return slices.DeleteFunc(moves, func(s keymap.State) bool { return s.Action == keymap.HalfUp || s.Action == keymap.HalfDown })
}

// Actions: confirm or cancel while asking; close when finished.
func (m *Model) Actions() []keymap.State {
	switch m.state {
	case asking:
		accept := keymap.On(keymap.Accept).Does(m.run)
		if m.cfg.Confirm != "" && m.input.Value() != m.cfg.Confirm {
			accept = keymap.Off(keymap.Accept, "type "+m.confirmWhat()+" exactly to confirm")
		}
		// The footer says what the question says: "y or enter: yes · esc: no".
		states := []keymap.State{accept.Saying("yes"), keymap.On(keymap.Cancel).Saying("no").Does(func() tea.Cmd {
			m.closed, m.cancelled = true, true
			return nil
		})}
		if m.cfg.Confirm == "" {
			states = append([]keymap.State{keymap.On(keymap.Yes).Does(m.run)}, states...)
		}
		return append(states, m.scrollKeys()...)
	case running:
		return append([]keymap.State{keymap.Off(keymap.Cancel, "wait: changes are being made")}, m.scrollKeys()...)
	}
	// The results: enter or esc closes them; enter takes the next step
	// when a refusal offers one (it says which).
	accept := keymap.On(keymap.Accept).Saying("close").Does(m.close)
	if _, next := m.next(); next != nil {
		accept = accept.Saying("open").Does(func() tea.Cmd { return tea.Sequence(m.close(), next) })
	}
	states := []keymap.State{accept, keymap.On(keymap.Cancel).Saying("close").Does(m.close)}
	if len(m.failed()) > 0 {
		// What the server refused changed nothing: it may be sent again.
		// What has an unknown outcome is never sent again from here.
		states = append(states, keymap.On(keymap.Refresh).Saying("retry failed").Does(m.retry))
	}
	return append(states, m.scrollKeys()...)
}

func (m *Model) confirmWhat() string {
	if m.cfg.ConfirmWhat != "" {
		return m.cfg.ConfirmWhat + " (" + safe.String(m.cfg.Confirm) + ")"
	}
	return safe.String(m.cfg.Confirm)
}

// Update confirms, runs, takes results and closes.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	cmd := m.update(msg)
	m.refresh()
	m.scroll(0)
	return cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case factsMsg:
		if msg.owner == m {
			m.facts, m.factsErr, m.factsLoading = msg.lines, msg.err, false
		}
		return nil
	case resultMsg:
		if msg.owner != m {
			return nil
		}
		m.errs[msg.index], m.answers[msg.index], m.ran[msg.index] = msg.err, msg.answer, true
		m.left--
		if m.left == 0 {
			m.state = finished
			m.offset = 0 // failures come first: show them
			if m.cfg.AutoClose && m.allDone() {
				return m.close()
			}
		}
		return nil
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	states := m.Actions()
	if m.TakesText() && msg.Text != "" {
		// A letter of the name being typed, not a scroll key.
		states = slices.DeleteFunc(states, func(s keymap.State) bool { return s.Action != keymap.Accept && s.Action != keymap.Cancel })
	}
	if cmd, ok := views.Press(m.common.Keys, msg, states); ok {
		return cmd
	}
	if m.TakesText() {
		over, full := views.Overflow(m.input, msg)
		if full {
			return m.fill.Update(m.input, true, "the confirmation")
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return tea.Batch(cmd, m.fill.Update(m.input, over, "the confirmation"))
	}
	return nil
}

// scroll moves the list of items by d lines, within bounds.
func (m *Model) scroll(d int) {
	m.offset = min(max(m.offset+d, 0), max(len(m.bodyLines)-m.room(), 0))
}

// run starts every item, at most Parallel at a time.
func (m *Model) run() tea.Cmd {
	all := make([]int, len(m.cfg.Items))
	for i := range all {
		all[i] = i
	}
	return m.start(all)
}

// retry sends again the items the server refused (r on the results):
// nothing changed for them. An item whose answer was lost is not among
// them: it is never sent again without a look.
func (m *Model) retry() tea.Cmd { return m.start(m.failed()) }

// failed are the items that ran and that the server refused.
func (m *Model) failed() []int {
	if m.state != finished {
		return nil
	}
	var out []int
	for i := range m.cfg.Items {
		if m.ran[i] && m.errs[i] != nil {
			if _, r := m.result(i); r == Failed {
				out = append(out, i)
			}
		}
	}
	return out
}

// start runs the items at these indexes.
func (m *Model) start(items []int) tea.Cmd {
	m.state = running
	m.left = len(items)
	if m.left == 0 {
		m.state = finished
		return nil
	}
	cmds := make([]tea.Cmd, len(items))
	for n, i := range items {
		it, ctx, sem, owner := m.cfg.Items[i], m.ctx, m.sem, m
		cmds[n] = func() tea.Msg {
			sem <- struct{}{}
			defer func() { <-sem }()
			answer, err := it.Run(ctx)
			return resultMsg{owner: owner, index: i, answer: answer, err: err}
		}
	}
	return tea.Batch(cmds...)
}

// result is what became of item i (which ran).
func (m *Model) result(i int) ([]string, Result) {
	if m.errs[i] == nil {
		return nil, Done
	}
	return m.outcome(m.errs[i])
}

// close leaves the dialog and tells the owner what was done.
func (m *Model) close() tea.Cmd {
	m.closed = true
	if m.cfg.Done == nil {
		return nil
	}
	var s Settled
	for i, it := range m.cfg.Items {
		if !m.ran[i] {
			continue
		}
		if a := m.answers[i]; a != nil {
			if s.Answers == nil {
				s.Answers = map[string]any{}
			}
			s.Answers[it.Key] = a
		}
		switch _, r := m.result(i); r {
		case Done:
			s.Done = append(s.Done, it.Key)
		case Unknown:
			s.Unknown = append(s.Unknown, it.Key)
		}
	}
	msg := m.cfg.Done(s)
	// The dialog goes now; its owner, below it, hears what was done.
	return func() tea.Msg { return msg }
}

// next is the step offered after the first refusal that has one.
func (m *Model) next() (string, tea.Cmd) {
	if m.cfg.Next == nil || m.state != finished {
		return "", nil
	}
	for i := range m.cfg.Items {
		if m.ran[i] && m.errs[i] != nil {
			if _, r := m.result(i); r != Failed {
				continue
			}
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

// outcome explains an error, with the default for a shell that gave none.
func (m *Model) outcome(err error) ([]string, Result) {
	if m.cfg.Outcome != nil {
		return m.cfg.Outcome(err)
	}
	return []string{safe.String(err.Error())}, Failed
}

// Closed reports whether it closed itself: the shell then takes it off.
func (m *Model) Closed() bool { return m.closed }

// Cancelled reports whether it closed before anything was sent: its owner
// then hears nothing.
func (m *Model) Cancelled() bool { return m.cancelled }
