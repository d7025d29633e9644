// Package bind is the keyboard flow that binds a role to identities on a
// group: it asks only for what the starting point does not give (on an
// identity: role, then group; on a group: identity, then role; on a role:
// identity, then group), with fuzzy pickers, `1`..`9` for the first roles,
// the identity's own group preselected, then a one-line confirmation, and
// per-identity results when several are bound at once.
package bind

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/picker"
)

// Identity is one identity to bind: its uid, its name, and its own group.
type Identity struct {
	UID, Name, Group string
}

// Choice is a role or a group already chosen.
type Choice struct {
	UID, Name string
}

// Config says where the flow starts and how it reads and writes.
type Config struct {
	Identities []Identity // who; empty: ask
	Role       *Choice    // which role; nil: ask
	Group      *Choice    // on which group; nil: ask
	// Loaders for the pickers. Options' Values are Identity (identities)
	// or Choice (roles, groups). Roles come in the order they are offered.
	LoadIdentities func(ctx context.Context) ([]picker.Option, error)
	LoadRoles      func(ctx context.Context) ([]picker.Option, error)
	LoadGroups     func(ctx context.Context) ([]picker.Option, error)
	// Bind makes one binding; label names it for people ("viewer → carol
	// on platform", safe to print). A binding returned with an error was
	// made all the same (found after its answer was lost): Outcome says
	// whether the error counts as done.
	Bind    func(ctx context.Context, group, identity, role, label string) (*api.RoleBinding, error)
	Outcome dialog.Outcome
	// Bindings is the change to a group's role bindings (views.ChangedIn),
	// which the screens showing them load again once bound.
	Bindings func(group string) views.Change
	// Many, when set, binds several identities at once (batch.go).
	Many func(role, group Choice, ids []Identity) Batch
	// Current and Edit, when set, change the role of one binding (the
	// one of Identities on Group) instead of binding: the picker starts
	// on Current, and the role chosen opens Edit's form (rebind.go).
	Current *Choice
	Edit    func(role Choice) form.Config
}

type step int

const (
	askIdentity step = iota
	askRole
	askGroup
	confirm
)

// optionsMsg carries a picker's options.
type optionsMsg struct {
	owner *Model
	step  step
	opts  []picker.Option
	err   error
}

// chosenMsg carries what the picker of a step chose.
type chosenMsg struct {
	owner  *Model
	step   step
	option picker.Option
}

// boundMsg carries what the confirmation's bindings did.
type boundMsg struct {
	owner   *Model
	settled dialog.Settled
}

// Model is the flow, as one screen whose inside changes with the step.
type Model struct {
	closed bool // it closed itself (see views.Closer)
	common views.Common
	ctx    context.Context
	cfg    Config
	step   step
	inner  views.Screen // the current picker or dialog
	err    error
	width  int
	height int

	typed []tea.KeyPressMsg // keys typed while the choices load, replayed on the picker
	// said is what the bindings of several say of how they were sent,
	// asked once they are over (Batch.Said); nil: nothing.
	said func() (string, tea.Msg)
}

// New starts a flow; ctx bounds its requests.
func New(ctx context.Context, common views.Common, cfg Config) *Model {
	return &Model{common: common, ctx: ctx, cfg: cfg}
}

// Init asks for the first missing choice.
func (m *Model) Init() tea.Cmd { return m.next() }

// Title names the flow.
func (m *Model) Title() safe.Text {
	if m.cfg.Edit != nil {
		return "change a role"
	}
	return "bind a role"
}

// Busy reports whether options load or bindings run.
func (m *Model) Busy() bool {
	return m.inner == nil && m.err == nil || m.inner != nil && m.inner.Busy()
}

// TakesText reports whether typed keys go to a picker's filter or the dialog.
func (m *Model) TakesText() bool {
	switch m.inner.(type) {
	case *picker.Model, *form.Model:
		return true
	}
	return false
}

// SetSize passes the size on.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	if m.inner != nil {
		m.inner.SetSize(w, h)
	}
}

// Actions are the inner screen's.
func (m *Model) Actions() []keymap.State {
	if m.inner == nil {
		cancel := keymap.On(keymap.Cancel).Does(func() tea.Cmd {
			m.closed = true
			return nil
		})
		if m.err != nil {
			return []keymap.State{keymap.On(keymap.Refresh).Does(m.next), cancel}
		}
		return []keymap.State{cancel}
	}
	return m.inner.Actions()
}

// next moves to the first choice still missing, or to the confirmation.
// It is also the retry after choices failed to load: what was chosen
// stays chosen, and only the missing choice is asked for again.
func (m *Model) next() tea.Cmd {
	switch {
	case len(m.cfg.Identities) == 0:
		m.step = askIdentity
		return m.load(m.cfg.LoadIdentities)
	case m.cfg.Role == nil:
		m.step = askRole
		return m.load(m.cfg.LoadRoles)
	case m.cfg.Group == nil:
		m.step = askGroup
		return m.load(m.cfg.LoadGroups)
	}
	m.step = confirm
	if m.cfg.Edit != nil {
		return m.editForm()
	}
	return m.confirmDialog()
}

func (m *Model) load(f func(context.Context) ([]picker.Option, error)) tea.Cmd {
	m.inner, m.err = nil, nil
	ctx, owner, s := m.ctx, m, m.step
	return func() tea.Msg {
		opts, err := f(ctx)
		return optionsMsg{owner: owner, step: s, opts: opts, err: err}
	}
}

// Update follows the steps.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case optionsMsg:
		if msg.owner != m || msg.step != m.step {
			return nil
		}
		if msg.err != nil {
			m.err = msg.err
			return nil
		}
		return m.showPicker(msg.opts)
	case chosenMsg:
		if msg.owner != m || msg.step != m.step {
			return nil
		}
		switch v := msg.option.Value.(type) {
		case Identity:
			m.cfg.Identities = []Identity{v}
		case Choice:
			if m.step == askRole {
				m.cfg.Role = &v
			} else {
				m.cfg.Group = &v
			}
		}
		return m.next()
	case boundMsg:
		if msg.owner == m {
			m.closed = true
			return tea.Batch(m.done(msg.settled), m.told())
		}
		return nil
	case tea.KeyPressMsg:
		if p, ok := m.inner.(*picker.Model); ok && p.Chosen() {
			m.typed = append(m.typed, msg) // for the next step, on its way
			return nil
		}
		if m.inner == nil {
			if cmd, ok := views.Press(m.common.Keys, msg, m.Actions()); ok {
				return cmd
			}
			if m.err == nil {
				m.typed = append(m.typed, msg) // typed ahead: kept for the picker
			}
			return nil
		}
	}
	if m.inner != nil {
		return m.inner.Update(msg)
	}
	return nil
}

// showPicker puts up the picker of the current step.
func (m *Model) showPicker(opts []picker.Option) tea.Cmd {
	var title string
	switch m.step {
	case askIdentity:
		// Name the role when it is chosen, as the later steps do.
		title = "Bind which identity" + m.where() + "?"
		if m.cfg.Role != nil {
			title = "Bind " + safe.String(m.cfg.Role.Name) + " to which identity" + m.where() + "?"
		}
	case askRole:
		title = "Which role for " + m.who() + m.where() + "?"
		if m.cfg.Current != nil {
			title = "Which role for " + m.who() + m.where() + " instead of " + safe.String(m.cfg.Current.Name) + "?"
		}
	case askGroup:
		title = "Bind " + safe.String(m.cfg.Role.Name) + " to " + m.who() + " on which folder?"
	}
	s := m.step
	p := picker.New(m.common, safe.Of(title), opts, true, func(o picker.Option) tea.Msg {
		return chosenMsg{owner: m, step: s, option: o}
	})
	switch m.step {
	case askRole:
		p.WithDigits()
		if m.cfg.Current != nil {
			p.Preselect(*m.cfg.Current) // the role it has: enter keeps it
		}
	case askGroup:
		// The identity's own group first: the usual answer.
		p.Preselect(Choice{UID: m.cfg.Identities[0].Group, Name: groupName(opts, m.cfg.Identities[0].Group)})
	}
	m.inner = p
	p.SetSize(m.width, m.height)
	cmds := []tea.Cmd{p.Init()}
	typed := m.typed
	m.typed = nil
	for i, k := range typed {
		cmd := p.Update(k)
		cmds = append(cmds, cmd)
		if cmd != nil && i < len(typed)-1 {
			// A choice was made (a digit): the rest goes to the next step,
			// which comes with the choice's message.
			m.typed = typed[i+1:]
			break
		}
	}
	return tea.Batch(cmds...)
}

func groupName(opts []picker.Option, uid string) string {
	for _, o := range opts {
		if c, ok := o.Value.(Choice); ok && c.UID == uid {
			return c.Name
		}
	}
	return ""
}

func (m *Model) who() string {
	if len(m.cfg.Identities) == 1 {
		return safe.String(m.cfg.Identities[0].Name)
	}
	return fmt.Sprintf("%d identities", len(m.cfg.Identities))
}

func (m *Model) where() string {
	if m.cfg.Group != nil {
		return " on " + safe.String(m.cfg.Group.Name)
	}
	return ""
}

// confirmDialog asks once, then binds each identity (in parallel, each with
// its own result).
func (m *Model) confirmDialog() tea.Cmd {
	role, group := *m.cfg.Role, *m.cfg.Group
	bind, lines := m.binder(role, group)
	items := make([]dialog.Item, len(m.cfg.Identities))
	for i, id := range m.cfg.Identities {
		label := safe.Of(role.Name) + " → " + safe.Of(id.Name) + " on " + safe.Of(group.Name)
		items[i] = dialog.Item{Key: id.UID, Label: label,
			Run: func(ctx context.Context) (any, error) {
				// A binding may come with an error: made, though its own
				// answer was lost (the error says how it was learnt). It
				// comes back with the dialog's answer (see done).
				b, err := bind(ctx, group.UID, id.UID, role.UID, string(label))
				if b == nil {
					return nil, err
				}
				return b, err
			}}
	}
	title := "Bind " + safe.Of(role.Name) + " to " + safe.Of(m.who()) + " on " + safe.Of(group.Name) + "?"
	d := dialog.New(m.ctx, m.common, dialog.Config{Title: title, Items: items, Verb: "bind",
		Outcome: m.cfg.Outcome, AutoClose: len(items) == 1,
		Done:  func(s dialog.Settled) tea.Msg { return boundMsg{owner: m, settled: s} },
		Lines: lines})
	m.inner = d
	d.SetSize(m.width, m.height)
	cmds := []tea.Cmd{d.Init()}
	typed := m.typed
	m.typed = nil
	for _, k := range typed { // typed ahead of the question: its answer
		cmds = append(cmds, d.Update(k))
	}
	return tea.Batch(cmds...)
}

// View is the inner screen, or what is loading or failed.
func (m *Model) View() string {
	th := m.common.Theme
	switch {
	case m.err != nil:
		return th.Bad.Render("could not list the choices: "+safe.String(m.err.Error())) + "\n" + th.Muted.Render(m.common.Key(keymap.Refresh)+" to retry · "+m.common.Key(keymap.Cancel)+" closes")
	case m.inner == nil:
		return th.Muted.Render("loading choices…")
	}
	return m.inner.View()
}

// Closed reports whether the flow is over: it closed itself, a picker of
// a step was left (esc), the dialog was cancelled, or its answer came
// (boundMsg). The shell then takes it off.
func (m *Model) Closed() bool {
	switch inner := m.inner.(type) {
	case *picker.Model:
		return m.closed || inner.Closed()
	case *dialog.Model:
		return m.closed || inner.Cancelled()
	case *form.Model:
		return m.closed || inner.Closed()
	}
	return m.closed
}
