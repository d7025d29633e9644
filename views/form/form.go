// Package form edits and creates resources: fields validated as the user
// types (the patterns of API.md), a preview of the exact request, sending
// in a command, and on failure the server's reasons beside the fields they
// name — with everything typed kept. It draws full-screen (a create form)
// or in place of a row or a detail line (an edit).
package form

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
)

// Field is one input.
type Field struct {
	Key         string // the API field it sets ("description", "claimMatch.issuer")
	Label       string
	Value       string // initial value
	Placeholder string
	// Choices, when set, are the only values: ←/→ cycle through them.
	// ChoiceLabel (optional) is how a choice reads ("application" for
	// CATALOG_TIER_APPLICATION, as tables show it).
	Choices     []string
	ChoiceLabel func(string) string
	// Validate checks the value as it is typed; nil accepts anything.
	Validate func(string) error
	// Secret hides what is typed (a client secret): each character shows
	// as a dot.
	Secret bool
	// Max is the most characters the field takes (0: DefaultMax). A key
	// past it is refused at once, and the field says so: a value too long
	// is never typed (every keystroke validates the whole value, so taking
	// a flood of keys and complaining afterwards cost its square).
	Max int
}

// DefaultMax is the most characters a field without a Max takes.
const DefaultMax = 4096

// Config is a form.
type Config struct {
	Title  safe.Text
	Fields []Field
	// Preview is the request the values would send ("PATCH /registry/v2/
	// repos/<uid>?update_mask=description"), shown before it is sent.
	Preview func(values map[string]string) string
	// Submit sends the request; it runs in a command under Ctx.
	Ctx    context.Context
	Submit func(ctx context.Context, values map[string]string) (any, error)
	// Explain sorts a failure's reasons: those about a field (by Key) and
	// those about the form.
	Explain func(err error) (fields map[string]string, form []string)
	// Done is what follows a success (a flash, an update to the screens).
	Done func(result any) tea.Cmd
	// Page: the form is a screen of its own, closed on success or esc;
	// otherwise it is drawn in place and its owner closes it.
	Page bool
	// Lookup fetches, in a command once typing rests, what the values
	// would change (the tag of the name typed, when it exists); LookupKey
	// is the part of the values it depends on ("": nothing to look up).
	Lookup    func(ctx context.Context, values map[string]string) (any, error)
	LookupKey func(values map[string]string) string
	// Warn says what the thing looked up (nil: none) means for the values
	// ("v1 exists at …: this moves it to …"), and whether sending takes a
	// second enter.
	Warn func(values map[string]string, found any) (note string, confirm bool)
	// Lost reports whether a failure lost the answer (the change may or
	// may not have been made). Check then looks up what the server has
	// for the values sent, before anything is sent again (see lost.go);
	// without Check, enter never sends again. Rebase is told the values
	// the fields start from when the user edits from the server's.
	Lost  func(err error) bool
	Check func(ctx context.Context, values map[string]string) (Found, error)
	// Unreadable, for a change no call reads back (no Check), says what
	// follows a lost answer instead of "esc, then r to see what the
	// server has".
	Unreadable string
	// Begin, when set, is called in Update as values are sent (with what
	// the lookup found for them, see Looked): what it returns (a note of what the change means) reaches Submit, and Check
	// after a lost answer, through their context (Attempt), so that
	// neither keeps anything of its own across commands.
	Begin  func(values map[string]string, looked any) any
	Rebase func(values map[string]string)
	// Flow, when set, is an edit made on a screen of its own (a binding's
	// role chosen in a picker, then the form): who would draw this form
	// in place (a row, a tree node, a page's field) runs Flow instead, and
	// the fields above only name what it changes.
	Flow func() tea.Cmd
}

// ClosedMsg tells an in-place form's owner it is done (sent or cancelled).
type ClosedMsg struct {
	Form *Model
	Sent bool
}

// resultMsg carries the answer to Submit.
type resultMsg struct {
	owner  *Model
	values map[string]string // as sent
	looked any               // what the lookup had found for them (see Looked)
	began  any               // what Begin said of this send (see Attempt)
	result any
	err    error
}

// Model is a form.
type Model struct {
	closed bool // it closed itself (see views.Closer)
	common views.Common
	cfg    Config
	inputs []textinput.Model
	focus  int
	// shown[i] is field i's initial value as its input shows it: server
	// text is made safe (controls as visible markers) before it is edited,
	// and an input left as shown gives back the original value, so opening
	// and sending a form loses nothing.
	shown   []string
	invalid map[string]string // as typed
	full    map[string]string // fields that refused a key (not sent until edited): what they say
	server  map[string]string // from the last failure, by field key
	formErr []string
	sending bool
	width   int
	height  int
	look    lookup
	lost    *lost // a change sent whose answer was lost, until settled
	// ver counts the updates that may have changed the form; foot is the
	// footer drawn at a version: the shell asks for it after every
	// message, and a flood of refused keys must not redraw it each time.
	ver  int
	foot footCache
}

// footCache is Footer's last answer.
type footCache struct {
	ver, width int
	withFields bool
	ok         bool
	lines      []string
}

// New makes a form.
func New(common views.Common, cfg Config) *Model {
	m := &Model{common: common, cfg: cfg, invalid: map[string]string{}, server: map[string]string{}, full: map[string]string{}}
	for _, f := range cfg.Fields {
		in := views.NewInput(common, "", f.Placeholder)
		shown := safe.String(f.Value)
		// The value given is shown whole, however long: the limit is on
		// what is typed (a value over it is marked by Validate).
		in.CharLimit = 0
		in.SetValue(shown)
		in.CharLimit = cmp.Or(f.Max, DefaultMax)
		in.CursorEnd()
		if f.Secret {
			in.EchoMode, in.EchoCharacter = textinput.EchoPassword, '•'
		}
		m.inputs = append(m.inputs, in)
		m.shown = append(m.shown, shown)
	}
	for i := range m.inputs {
		m.check(i)
	}
	return m
}

// Init focuses the first field.
func (m *Model) Init() tea.Cmd {
	m.ver++
	return tea.Batch(m.inputs[0].Focus(), m.changed())
}

// Title names the form.
func (m *Model) Title() safe.Text { return m.cfg.Title }

// Busy reports whether the request, or the lookup after a lost answer,
// is on its way.
func (m *Model) Busy() bool { return m.sending || m.checking() }

// TakesText: a form types into its fields.
func (m *Model) TakesText() bool { return true }

// SetSize sets the form's size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	// The input leaves room beside it for the reason a value is refused.
	for i := range m.inputs {
		m.inputs[i].SetWidth(min(max(w/2-14, 16), 64))
	}
}

// FitInputs widens (or narrows) the inputs of a form drawn in place to the
// room its owner has for them, so the text scrolls only when it must: an
// in-place line has no column beside the input to keep for a reason (the
// owner wraps it under the field or shows it in the footer).
func (m *Model) FitInputs(w int) {
	for i := range m.inputs {
		m.inputs[i].SetWidth(max(w, 10))
	}
}

// Values are the fields' values by key.
func (m *Model) Values() map[string]string {
	out := make(map[string]string, len(m.inputs))
	for i, f := range m.cfg.Fields {
		out[f.Key] = m.value(i)
	}
	return out
}

// value is field i's value: the original when its input is as shown.
func (m *Model) value(i int) string {
	if v := m.inputs[i].Value(); v != m.shown[i] {
		return v
	}
	return m.cfg.Fields[i].Value
}

// Actions: send, cancel, move between fields.
func (m *Model) Actions() []keymap.State {
	send := keymap.On(keymap.Accept)
	switch {
	case m.sending:
		send = keymap.Off(keymap.Accept, "sending: wait for the answer")
	case m.checking():
		send = keymap.Off(keymap.Accept, "no answer came: checking what the server has")
	case m.unfit():
		send = keymap.Off(keymap.Accept, "fix the fields marked first")
	}
	states := []keymap.State{send.Does(m.accept), keymap.On(keymap.Cancel).Does(func() tea.Cmd { return m.close(false) })}
	if n := len(m.inputs); n > 1 {
		next := func() tea.Cmd { return m.moveTo((m.focus + 1) % n) }
		states = append(states, keymap.On(keymap.Complete).Saying("next field").Does(next), keymap.Quiet(keymap.Next).Does(next),
			keymap.Quiet(keymap.Prev).Does(func() tea.Cmd { return m.moveTo((m.focus + n - 1) % n) }))
	}
	return states
}

// Update edits, moves, sends and takes the answer.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	m.ver++ // what follows may change what Footer draws
	switch msg := msg.(type) {
	case lookDueMsg, lookedMsg:
		return m.updateLookup(msg)
	case checkedMsg:
		return m.checked(msg)
	case resultMsg:
		if msg.owner != m {
			return nil
		}
		if msg.err != nil && m.cfg.Lost != nil && m.cfg.Lost(msg.err) {
			m.sending = false
			return m.lose(msg.err, msg.values, msg.looked, msg.began)
		}
		if msg.err != nil {
			m.sending = false
			m.server, m.formErr = m.explain(msg.err)
			for i, f := range m.cfg.Fields {
				if _, ok := m.server[f.Key]; ok {
					m.moveTo(i)
					break
				}
			}
			return nil
		}
		// Closed before done: by the time the answer is told, keys go to
		// the owner again (u right after an edit undoes it). Until then the
		// form stays "sending" and drops keys.
		return tea.Sequence(m.close(true), m.cfg.Done(msg.result))
	case tea.KeyPressMsg:
		if cmd, ok := views.Press(m.common.Keys, msg, m.Actions()); ok {
			return cmd
		}
		if f := m.cfg.Fields[m.focus]; f.Choices != nil {
			m.cycle(msg.String())
			return nil
		}
	}
	if m.sending || m.checking() {
		return nil
	}
	key := m.cfg.Fields[m.focus].Key
	over, full := views.Overflow(m.inputs[m.focus], msg)
	_, said := m.full[key]
	if over {
		m.full[key] = fmt.Sprintf("at most %s characters: the rest was not typed", text.Count(m.inputs[m.focus].CharLimit))
	}
	if full {
		// Refused before it costs anything; when it was already said,
		// nothing changed and the footer drawn still stands.
		if said {
			m.ver--
		}
		return nil
	}
	var cmd tea.Cmd
	before := m.inputs[m.focus].Value()
	m.inputs[m.focus], cmd = m.inputs[m.focus].Update(msg)
	if m.inputs[m.focus].Value() != before {
		if !over {
			delete(m.full, key)
		}
		m.check(m.focus)
		delete(m.server, key)
		cmd = tea.Batch(cmd, m.changed())
	}
	return cmd
}

// cycle moves a choice field to the next (→) or previous (←) value.
func (m *Model) cycle(key string) {
	f := m.cfg.Fields[m.focus]
	i := slices.Index(f.Choices, m.inputs[m.focus].Value())
	switch key {
	case "right", "l", "space":
		i = (i + 1) % len(f.Choices)
	case "left", "h":
		i = (i + len(f.Choices) - 1) % len(f.Choices)
	default:
		return
	}
	m.inputs[m.focus].SetValue(f.Choices[i])
	m.check(m.focus)
	delete(m.server, f.Key)
	m.look.armed = ""
}

func (m *Model) moveTo(i int) tea.Cmd {
	m.inputs[m.focus].Blur()
	m.focus = i
	return m.inputs[i].Focus()
}

// unfit reports whether a field is not to be sent as it is: invalid, or
// cut at its limit (a paste of 13 digits into a 12-digit account keeps
// 12: sent, they would name another account). A cut field is sendable
// again once it is edited.
func (m *Model) unfit() bool { return len(m.invalid) > 0 || len(m.full) > 0 }

// check validates field i as typed.
func (m *Model) check(i int) {
	f := m.cfg.Fields[i]
	v := m.value(i)
	var err error
	switch {
	case f.Choices != nil && !slices.Contains(f.Choices, v):
		err = errChoice(f.Choices)
	case f.Validate != nil:
		err = f.Validate(v)
	}
	if err != nil {
		m.invalid[f.Key] = err.Error()
	} else {
		delete(m.invalid, f.Key)
	}
}

// send submits the values in a command; nothing typed is dropped whatever
// the answer.
func (m *Model) send() tea.Cmd {
	m.sending = true
	m.formErr = nil
	clear(m.server)
	owner, values, looked, submit := m, m.Values(), m.looked(), m.cfg.Submit
	var began any
	if m.cfg.Begin != nil {
		began = m.cfg.Begin(values, looked)
	}
	ctx := m.withSent(m.cfg.Ctx, looked, began)
	return func() tea.Msg {
		res, err := submit(ctx, values)
		return resultMsg{owner: owner, values: values, looked: looked, began: began, result: res, err: err}
	}
}

// close ends the form at once: an in-place form's owner sees Closed before
// the next key, so keys typed right after esc (`:` for the command line)
// reach the owner, not a form that is no longer there; ClosedMsg follows
// for an owner that waits for it.
func (m *Model) close(sent bool) tea.Cmd {
	m.closed = true
	if m.cfg.Page {
		return nil
	}
	return func() tea.Msg { return ClosedMsg{Form: m, Sent: sent} }
}

func (m *Model) explain(err error) (map[string]string, []string) {
	if m.cfg.Explain != nil {
		f, general := m.cfg.Explain(err)
		if f == nil {
			f = map[string]string{}
		}
		// A reason about a field that is not in this form goes to the form.
		for k, v := range f {
			if !slices.ContainsFunc(m.cfg.Fields, func(x Field) bool { return x.Key == k }) {
				general = append(general, k+": "+v)
				delete(f, k)
			}
		}
		return f, general
	}
	return map[string]string{}, []string{safe.String(err.Error())}
}

// reason is what to say beside field i: the server's word first.
func (m *Model) reason(i int) (string, bool) {
	k := m.cfg.Fields[i].Key
	if r, ok := m.server[k]; ok {
		return r, true
	}
	if r, ok := m.invalid[k]; ok {
		return r, true
	}
	r, ok := m.full[k]
	return r, ok
}

type choiceError []string

func (e choiceError) Error() string { return "one of " + strings.Join(e, ", ") + " (← →)" }

func errChoice(c []string) error { return choiceError(c) }

// Closed reports whether it closed itself: the shell then takes a page
// form off, and the owner of an in-place one lets it go.
func (m *Model) Closed() bool { return m.closed }
