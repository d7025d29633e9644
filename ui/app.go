// Package ui is canopy's shell: the root Bubble Tea model. It owns the
// layout (header, main area, footer hints, status line), the stack of
// screens and their request contexts, the `:` command line, the help
// overlay, flash messages and spinner ticks, and it builds every screen's
// data sources from the API client. Views never see the client.
package ui

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/dialog"
	"canopy/views/explorer"
	"canopy/views/help"
	"canopy/views/picker"
	"canopy/views/safe"
)

// Options configure the shell.
type Options struct {
	Client *api.Client
	// Org is the organization's uid or name; "" lists the caller's
	// organizations and asks when there are several.
	Org      string
	Host     string // API host, for the status line
	Identity string // who the token acts as, for the status line
	Theme    theme.Options
	Keys     *keymap.KeyMap // nil: defaults
	Now      func() time.Time
	// ReadOnly disables every change (edits, creates, deletes, bindings).
	ReadOnly bool
	// Changes is the log the client records its changes in (its Observe
	// hook); nil keeps none.
	Changes *ChangeLog
}

// entry is a screen on the stack and the cancel of its requests.
type entry struct {
	screen views.Screen
	ctx    context.Context
	cancel context.CancelFunc
}

// Model is the root model.
type Model struct {
	opts   Options
	common views.Common
	env    *env
	ctx    context.Context
	stop   context.CancelFunc

	stack         []entry
	help          *help.Model
	cmd           *cmdline.Model
	width, height int

	flash    string
	flashErr bool
	flashSeq int
	frame    int
	ticking  bool
	starting bool
	startErr error
	lastEdit *editedMsg // what u undoes
}

// Messages of the shell itself.
type (
	orgsMsg struct {
		orgs []api.Group
		err  error
	}
	orgMsg struct {
		org *api.Group
		err error
	}
	tickMsg       struct{}
	clearFlashMsg struct{ seq int }
)

// New makes the shell.
func New(opts Options) *Model {
	keys := opts.Keys
	if keys == nil {
		keys = keymap.Default()
	}
	ctx, stop := context.WithCancel(context.Background())
	common := views.Common{Theme: theme.New(opts.Theme), Keys: keys, Now: opts.Now, ReadOnly: opts.ReadOnly}
	m := &Model{opts: opts, common: common, ctx: ctx, stop: stop, starting: true,
		env: &env{client: opts.Client, common: common, names: map[string]string{}, ctx: ctx, changes: opts.Changes}}
	if m.env.changes == nil {
		m.env.changes = &ChangeLog{}
	}
	m.cmd = nil
	return m
}

// Init resolves the organization and asks for the terminal's background.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.resolveOrg(), tea.RequestBackgroundColor)
}

func (m *Model) resolveOrg() tea.Cmd {
	client, ctx, org := m.opts.Client, m.ctx, m.opts.Org
	if api.IsGroupUID(org) {
		return func() tea.Msg {
			g, err := client.GetGroup(ctx, org)
			if err != nil {
				return orgMsg{err: fmt.Errorf("organization %s: %w", org, err)}
			}
			return orgMsg{org: g}
		}
	}
	return func() tea.Msg {
		var orgs []api.Group
		cur := api.NewCursor(client.ListGroups, api.ListOptions{InRoot: true, PageSize: api.MaxPageSize}, api.GroupKey)
		for g, err := range cur.All(ctx) {
			if err != nil {
				return orgsMsg{err: fmt.Errorf("list organizations: %w", err)}
			}
			if org == "" || g.Name == org { // --org may name the organization
				orgs = append(orgs, g)
			}
		}
		if org != "" && len(orgs) == 0 {
			return orgsMsg{err: fmt.Errorf("no organization named %q is visible to this token", org)}
		}
		return orgsMsg{orgs: orgs}
	}
}

// top is the screen on top of the stack, or nil.
func (m *Model) top() views.Screen {
	if len(m.stack) == 0 {
		return nil
	}
	return m.stack[len(m.stack)-1].screen
}

// push opens a screen under a fresh context.
func (m *Model) push(build func(ctx context.Context) views.Screen) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	s := build(ctx)
	m.stack = append(m.stack, entry{screen: s, ctx: ctx, cancel: cancel})
	m.layout()
	return s.Init()
}

// pop closes the top screen and cancels its requests.
func (m *Model) pop() {
	if len(m.stack) <= 1 {
		return
	}
	last := m.stack[len(m.stack)-1]
	last.cancel()
	m.stack = m.stack[:len(m.stack)-1]
	m.layout()
}

// close closes the screen that asked (a BackMsg's From) wherever it is
// in the stack: esc on a table, then : and another table before the
// message arrived, closes the first table, not the new one. A sender that
// is not a screen (a component inside one), or none, closes the top.
func (m *Model) close(from any) {
	for i, e := range m.stack {
		if from != nil && i > 0 && any(e.screen) == from {
			e.cancel()
			m.stack = append(m.stack[:i], m.stack[i+1:]...)
			m.layout()
			return
		}
	}
	m.pop()
}

// popAll closes every screen but the first.
func (m *Model) popAll() {
	for len(m.stack) > 1 {
		m.pop()
	}
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	return m, tea.Batch(cmd, m.maybeTick())
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return nil
	case tea.BackgroundColorMsg:
		if m.opts.Theme.Name == "" || m.opts.Theme.Name == theme.Auto {
			o := m.opts.Theme
			o.Dark = msg.IsDark()
			*m.common.Theme = *theme.New(o)
			m.layout()
		}
		return nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseMsg:
		return m.mouse(msg)
	case tickMsg:
		m.frame++
		m.ticking = false
		return m.broadcast(views.TickMsg{Frame: m.frame})
	case clearFlashMsg:
		if msg.seq == m.flashSeq {
			m.flash = ""
		}
		return nil
	case views.FlashMsg:
		return m.setFlash(msg.Text, msg.Error)
	case views.CopyMsg:
		return tea.Batch(tea.SetClipboard(msg.Text),
			m.setFlash(fmt.Sprintf("copied %s %s to the clipboard", msg.What, shorten(msg.Text)), false))
	case views.BackMsg:
		m.close(msg.From)
		return nil
	case views.PushMsg:
		return m.push(func(context.Context) views.Screen { return msg.Screen })
	case openMsg:
		return m.push(msg.build)
	case namesMsg:
		for k, v := range msg.names {
			m.env.names[k] = v
		}
		if msg.err != nil {
			m.env.naming = false
			return m.setFlash(msg.err.Error(), true)
		}
		return nil
	case dialog.DoneMsg:
		cmd := m.broadcast(msg)
		if strings.HasPrefix(msg.ID, "delete:") || strings.HasPrefix(msg.ID, "table-") {
			cmd = tea.Batch(cmd, afterDelete(msg))
		}
		return cmd
	case gotoMsg:
		m.popAll()
		if ex, ok := m.top().(*explorer.Model); ok {
			return ex.Tree().Goto(msg.uid)
		}
		return nil
	case editedMsg:
		m.lastEdit = &msg
		return tea.Batch(m.broadcast(views.UpdatedMsg{Item: msg.result}),
			m.setFlash(fmt.Sprintf("%s of %s changed (u undoes): %s", msg.e.mask, safe.String(msg.e.name), changeText(msg.old, msg.new)), false))
	case undoneMsg:
		if msg.err != nil {
			lines, _ := failure(msg.err)
			return m.setFlash("undo failed: "+strings.Join(lines, " "), true)
		}
		m.lastEdit = nil
		return tea.Batch(m.broadcast(views.UpdatedMsg{Item: msg.result}),
			m.setFlash(fmt.Sprintf("undid the edit of %s of %s", msg.e.mask, safe.String(msg.e.name)), false))
	case orgsMsg:
		return m.gotOrgs(msg)
	case orgMsg:
		if msg.err != nil {
			m.startErr = msg.err
			return nil
		}
		return m.openOrg(msg.org)
	case picker.ChosenMsg:
		switch msg.ID {
		case "org":
			g := msg.Option.Value.(api.Group)
			return m.openOrg(&g)
		case "group":
			m.popAll()
			if ex, ok := m.top().(*explorer.Model); ok {
				return ex.Tree().Goto(msg.Option.Value.(string))
			}
			return nil
		}
		return m.broadcast(msg) // a picker inside a screen (the binding flow)
	case groupsMsg:
		if msg.err != nil {
			return m.setFlash(msg.err.Error(), true)
		}
		p := picker.New(m.common, "group", "Jump to which folder?", groupOptions(msg.groups), true)
		m.flash = ""
		return m.push(func(context.Context) views.Screen { return p })
	case cmdline.CloseMsg:
		m.cmd = nil
		m.layout()
		return nil
	case cmdline.RunMsg:
		m.cmd = nil
		m.layout()
		return m.run(msg)
	case help.CloseMsg:
		m.help = nil
		return nil
	}
	return m.broadcast(msg)
}

// broadcast gives a message to every screen: answers to requests belong to
// whichever screen sent them, and each screen ignores what is not its own.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.stack))
	for _, e := range m.stack {
		cmds = append(cmds, e.screen.Update(msg))
	}
	return tea.Batch(cmds...)
}

// maybeTick starts the spinner clock while a screen waits.
func (m *Model) maybeTick() tea.Cmd {
	if m.ticking || !m.busy() {
		return nil
	}
	m.ticking = true
	return tea.Tick(120*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *Model) busy() bool {
	if m.starting && m.startErr == nil {
		return true
	}
	for _, e := range m.stack {
		if e.screen.Busy() {
			return true
		}
	}
	return false
}

func (m *Model) setFlash(text string, isErr bool) tea.Cmd {
	m.flash, m.flashErr = text, isErr
	m.flashSeq++
	seq := m.flashSeq
	d := 4 * time.Second
	if isErr {
		d = 8 * time.Second
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return clearFlashMsg{seq: seq} })
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Close cancels every request; call it when the program ends.
func (m *Model) Close() { m.stop() }

// changeText is `"old" → "new"` for the fields that changed.
func changeText(old, new map[string]string) string {
	keys := make([]string, 0, len(old))
	for k := range old {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		if old[k] != new[k] {
			parts = append(parts, strconv.Quote(short(safe.String(old[k])))+" → "+strconv.Quote(short(safe.String(new[k]))))
		}
	}
	if len(parts) == 0 {
		return "unchanged"
	}
	return strings.Join(parts, ", ")
}
