// Package picker is a full-screen choice among a bounded set of options
// (organizations, later roles and groups): type to narrow them fuzzily,
// move, and enter to choose.
package picker

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
)

// Option is one choice; Label and Detail must be safe to print.
type Option struct {
	Label, Detail safe.Text
	Value         any
}

// Model is a picker.
type Model struct {
	closed bool // it closed itself (see views.Closer)
	common views.Common
	title  safe.Text
	// choose turns the option chosen into the owner's own message: the
	// owner hears its answer by type, not by a name it compares.
	choose        func(Option) tea.Msg
	options       []Option
	matches       []int
	cursor        int
	input         textinput.Model
	width, height int
	cancel        bool // esc closes (false for a choice that must be made)
	digits        bool // 1..9 choose the first options while the filter is empty
	// details: the filter searches an option's detail too (where it
	// lives, for options that are alike by name).
	details bool
	chosen  bool // the owner's message is on its way
	fill    views.Fill
	// loading says what the picker waits for while its options load (see
	// Load); typed are the keys typed meanwhile, given to it once they came.
	loading string
	load    tea.Cmd
	typed   []tea.KeyPressMsg
}

// typedMost bounds the keys kept while the options load.
const typedMost = 256

// optionsMsg carries the options Load listed.
type optionsMsg struct {
	owner   *Model
	options []Option
	err     error
}

// Load makes the picker list its options itself, in a command under ctx,
// saying what it does meanwhile ("listing folders…"). Keys typed before
// they come are kept and given to it then (`:group base⏎⏎` typed at once
// goes to the first match); esc closes it at once. A failure closes it
// with the error on the status line.
func (m *Model) Load(ctx context.Context, what string, list func(context.Context) ([]Option, error)) *Model {
	m.loading = what
	m.load = func() tea.Msg {
		opts, err := list(ctx)
		return optionsMsg{owner: m, options: opts, err: err}
	}
	return m
}

// loaded takes the options listed and the keys typed while they came.
func (m *Model) loaded(msg optionsMsg) tea.Cmd {
	if msg.owner != m || m.loading == "" {
		return nil
	}
	if msg.err != nil {
		m.closed = true
		return views.FlashError(msg.err.Error())
	}
	m.loading, m.options = "", msg.options
	m.refilter()
	typed := m.typed
	m.typed = nil
	cmds := make([]tea.Cmd, 0, len(typed))
	for _, k := range typed {
		cmds = append(cmds, m.Update(k))
	}
	return tea.Batch(cmds...)
}

// waiting keeps a key typed while the options load; esc closes.
func (m *Model) waiting(k tea.KeyPressMsg) tea.Cmd {
	if cancel, _ := keymap.Find(m.Actions(), keymap.Cancel); cancel.Enabled && m.common.Keys.Is(k, keymap.Cancel) {
		return cancel.Run()
	}
	if len(m.typed) < typedMost {
		m.typed = append(m.typed, k)
	}
	return nil
}

// Chosen reports whether a choice was made and its message is on its way:
// keys typed now are for the next step, not for this picker.
func (m *Model) Chosen() bool { return m.chosen }

// WithDigits lets 1..9 choose the first nine options directly while the
// filter is empty (role pickers: `b 1` binds the first role).
func (m *Model) WithDigits() *Model {
	m.digits = true
	return m
}

// Preselect puts the cursor on the first option whose value is v.
func (m *Model) Preselect(v any) *Model {
	for i, idx := range m.matches {
		if m.options[idx].Value == v {
			m.cursor = i
			break
		}
	}
	return m
}

// Filter starts the picker narrowed by q, as if typed (`:group platform`).
func (m *Model) Filter(q string) *Model {
	m.input.SetValue(q)
	m.input.CursorEnd()
	m.refilter()
	return m
}

// SearchDetails has the filter search each option's detail with its
// label.
func (m *Model) SearchDetails() *Model {
	m.details = true
	m.refilter()
	return m
}

// New makes a picker; cancellable pickers close on esc. choose makes the
// owner's message of the option chosen.
func New(common views.Common, title safe.Text, options []Option, cancellable bool, choose func(Option) tea.Msg) *Model {
	in := views.NewInput(common, "filter: ", "type to narrow")
	m := &Model{common: common, title: title, options: options, input: in, cancel: cancellable, choose: choose}
	m.refilter()
	return m
}

// Init focuses the filter and, for a picker that lists its options, lists
// them.
func (m *Model) Init() tea.Cmd { return tea.Batch(m.input.Focus(), m.load) }

// Title names the picker.
func (m *Model) Title() safe.Text { return m.title }

// Busy reports whether the options are loading.
func (m *Model) Busy() bool { return m.loading != "" }

// SetSize sets the picker's size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.input.SetWidth(max(w-10, 1))
}

// Actions are a text input's plus moving.
func (m *Model) Actions() []keymap.State {
	cancel := keymap.On(keymap.Cancel).Does(func() tea.Cmd {
		m.closed = true
		return nil
	})
	if !m.cancel {
		cancel = keymap.Off(keymap.Cancel, "choose one to go on (ctrl+c quits)")
	}
	return []keymap.State{keymap.On(keymap.Accept).Does(m.accept), cancel,
		keymap.Quiet(keymap.Prev).Does(func() tea.Cmd {
			m.cursor = max(m.cursor-1, 0)
			return nil
		}),
		keymap.Quiet(keymap.Next).Does(func() tea.Cmd {
			m.cursor = min(m.cursor+1, max(len(m.matches)-1, 0))
			return nil
		})}
}

// accept chooses the option under the cursor.
func (m *Model) accept() tea.Cmd {
	if m.cursor < len(m.matches) {
		return m.chose(m.options[m.matches[m.cursor]])
	}
	return nil
}

// Update filters, moves, chooses.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if o, ok := msg.(optionsMsg); ok {
		return m.loaded(o)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.loading != "" {
		return m.waiting(k)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if d := k.String(); m.digits && m.input.Value() == "" && len(d) == 1 && d[0] >= '1' && d[0] <= '9' {
			if i := int(d[0] - '1'); i < len(m.options) {
				return m.chose(m.options[i])
			}
			return nil
		}
		if cmd, ok := views.Press(m.common.Keys, k, m.Actions()); ok {
			return cmd
		}
	}
	over, full := views.Overflow(m.input, msg)
	if full {
		return m.fill.Update(m.input, true, "the filter")
	}
	var cmd tea.Cmd
	before := m.input.Value()
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() != before {
		m.refilter()
	}
	return tea.Batch(cmd, m.fill.Update(m.input, over, "the filter"))
}

// chose tells the owner which option was chosen.
func (m *Model) chose(opt Option) tea.Cmd {
	m.chosen = true
	msg := m.choose(opt)
	return func() tea.Msg { return msg }
}

// refilter narrows the options: the set is bounded (organizations one can
// see, roles), so matching in Update costs microseconds.
func (m *Model) refilter() {
	m.cursor = 0
	m.matches = m.matches[:0]
	q := strings.TrimSpace(m.input.Value())
	if q == "" {
		for i := range m.options {
			m.matches = append(m.matches, i)
		}
		return
	}
	labels := make([]string, len(m.options))
	for i, o := range m.options {
		labels[i] = string(o.Label)
		if m.details {
			labels[i] += " " + string(o.Detail)
		}
	}
	for _, f := range fuzzy.Find(q, labels) {
		m.matches = append(m.matches, f.Index)
	}
}

// View draws the title, the filter and the visible options.
func (m *Model) View() string {
	th := m.common.Theme
	lines := []string{th.OverlayTitle.Render(text.Cut(string(m.title), m.width, th.Glyphs.Ellipsis)), m.input.View()}
	if m.digits {
		// Digits choose only while the filter is empty; after that they
		// are letters of the filter, and the hint says so.
		keys := " · " + m.common.Key(keymap.Accept) + " chooses · " + m.common.Key(keymap.Cancel) + " cancels"
		hint := "1-9 choose · type to narrow" + keys
		if m.input.Value() != "" {
			hint = "digits now narrow too (1-9 choose once the filter is empty)" + keys
		}
		lines = append(lines, th.Muted.Render(text.Cut(hint, m.width, th.Glyphs.Ellipsis)))
	}
	lines = append(lines, "")
	rows := max(m.height-len(lines), 1)
	start := max(0, m.cursor-rows+1)
	for i := start; i < min(len(m.matches), start+rows); i++ {
		o := m.options[m.matches[i]]
		num, digit := "  ", ""
		if m.digits && m.input.Value() == "" && m.matches[i] < 9 {
			digit = string(rune('1' + m.matches[i]))
		}
		rest := text.Fit(text.Fit(string(o.Label), 28, false, th.Glyphs.Ellipsis)+"  "+string(o.Detail), max(m.width-2, 0), false, th.Glyphs.Ellipsis)
		var line string
		if i == m.cursor {
			// One style over the whole row: a styled digit inside would end
			// the selection bar after itself.
			if digit != "" {
				num = digit + " "
			}
			line = th.Selected.Render(num + rest)
		} else {
			if digit != "" {
				num = th.HintKey.Render(digit) + th.Row.Render(" ")
			}
			line = num + th.Row.Render(rest)
		}
		lines = append(lines, line)
	}
	switch {
	case m.loading != "":
		lines = append(lines, th.Muted.Render("  "+m.loading))
	case len(m.matches) == 0:
		lines = append(lines, th.Muted.Render("  no match"))
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:m.height], "\n")
}

// Closed reports whether it closed itself: the shell then takes it off.
func (m *Model) Closed() bool { return m.closed }
