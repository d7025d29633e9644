// Package help is the `?` overlay. It is generated from the key map and the
// focused screen's action states, so it shows exactly the keys that work
// here, the ones that are disabled and why, and everything else dimmed.
package help

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/text"
	"canopy/views"
	"canopy/views/cmdline"
)

// CloseMsg asks the shell to hide the help; Command asks it to open the
// command line in its place (`:` typed over the help).
type CloseMsg struct{ Command bool }

// Model is the help overlay.
type Model struct {
	common        views.Common
	states        []keymap.State
	commands      []cmdline.Command // listed after the keys: every `:` command
	title         string
	lines         []string
	offset        int
	width, height int
	closing       bool // a CloseMsg is on its way
}

// Closing reports whether the overlay asked to close and the message is on
// its way: keys typed now are for the screen under it, not for the help.
func (m *Model) Closing() bool { return m.closing }

// New makes the overlay for the actions of a screen.
func New(common views.Common, title string, states []keymap.State) *Model {
	m := &Model{common: common, states: states, title: title}
	return m
}

// Listing has the help list the `:` commands too, after the keys.
func (m *Model) Listing(commands []cmdline.Command) {
	m.commands = commands
	m.layout()
}

// SetSize lays the help out.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

// Actions of the overlay: scrolling and closing.
func (m *Model) Actions() []keymap.State {
	states := []keymap.State{keymap.On(keymap.Back).Saying("close").Does(m.close), keymap.On(keymap.Help).Saying("close").Does(m.close)}
	for _, s := range views.Moves(m.offset, len(m.lines), m.rows(), func(to int) tea.Cmd {
		m.scroll(to - m.offset)
		return nil
	}) {
		// The footer says that j and pgdown scroll.
		switch s.Action {
		case keymap.Down:
			s.Hide, s.Short = false, "scroll"
		case keymap.PageDown:
			s.Hide = false
		}
		states = append(states, s)
	}
	return append(states, keymap.On(keymap.Command).Does(func() tea.Cmd {
		m.closing = true
		return func() tea.Msg { return CloseMsg{Command: true} }
	}), keymap.Quiet(keymap.Quit).Does(func() tea.Cmd { return tea.Quit }))
}

// close asks the shell to hide the help.
func (m *Model) close() tea.Cmd {
	m.closing = true
	return func() tea.Msg { return CloseMsg{} }
}

// Update scrolls (keys and the mouse wheel) or closes.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if w, ok := msg.(tea.MouseWheelMsg); ok {
		switch w.Button {
		case tea.MouseWheelUp:
			m.scroll(-3)
		case tea.MouseWheelDown:
			m.scroll(3)
		}
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _ := views.Press(m.common.Keys, k, m.Actions())
	return cmd
}

func (m *Model) scroll(d int) {
	m.offset = min(max(m.offset+d, 0), max(len(m.lines)-m.rows(), 0))
}

// rows is the number of help lines shown: the height, less the line that
// says where the view is when the help is longer than the screen.
func (m *Model) rows() int {
	if len(m.lines) > m.height {
		return max(m.height-1, 1)
	}
	return m.height
}

// layout builds the lines once per size: one entry per action, grouped,
// long descriptions wrapped under themselves.
func (m *Model) layout() {
	th := m.common.Theme
	m.lines = m.lines[:0]
	add := func(s string) { m.lines = append(m.lines, text.Cut(s, m.width, th.Glyphs.Ellipsis)) }
	add(th.OverlayTitle.Render("Keys in "+m.title) + th.Muted.Render("   ("+m.common.Key(keymap.Help)+" or "+m.common.Key(keymap.Back)+
		" closes; bold keys work here)"))
	defs := m.common.Keys.Defs()
	keyW := 8
	for _, d := range defs {
		keyW = max(keyW, text.Width(strings.Join(labels(d.Keys), " "))+2)
	}
	// The keys that do something here: a def that does not apply, whose
	// keys all do something else here (esc closing a dialog, not a
	// screen), is left out rather than shown dimmed, as if they did not.
	live := map[string]bool{}
	for _, d := range defs {
		if st, ok := keymap.Find(m.states, d.Action); ok && st.Enabled {
			for _, k := range d.Keys {
				live[k] = true
			}
		}
	}
	for _, g := range keymap.Groups() {
		first := true
		for _, d := range defs {
			if d.Group != g {
				continue
			}
			if _, applies := keymap.Find(m.states, d.Action); !applies && len(d.Keys) > 0 && !slices.ContainsFunc(d.Keys, func(k string) bool { return !live[k] }) {
				continue
			}
			if first {
				add("")
				add(th.Section.Render(string(g)))
				first = false
			}
			st, applies := keymap.Find(m.states, d.Action)
			keys := text.Fit(strings.Join(labels(d.Keys), " "), keyW, false, "")
			desc := d.Desc
			if applies && !st.Enabled {
				desc += " — " + st.Reason
			}
			// The description wraps under itself, after the keys.
			w := max(m.width-keyW-3, 12)
			for i, l := range strings.Split(text.Wrap(desc, w, " /,"), "\n") {
				k := keys
				if i > 0 {
					k = strings.Repeat(" ", keyW)
				}
				switch {
				case applies && st.Enabled:
					add("  " + th.HintKey.Render(k) + " " + th.Value.Render(l))
				case applies:
					add("  " + th.HintOff.Render(k) + " " + th.Bad.Render(l))
				default:
					add("  " + th.Dim.Render(k+" "+l))
				}
			}
		}
	}
	if len(m.commands) > 0 {
		add("")
		add(th.Section.Render("Commands") + th.Muted.Render("   ("+m.common.Key(keymap.Command)+" then the name, or the start of it)"))
		nameW := 8
		for _, c := range m.commands {
			nameW = max(nameW, text.Width(":"+c.Name)+2)
		}
		nameW = min(nameW, 24)
		for _, c := range m.commands {
			desc := c.Desc
			if c.Args != "" {
				desc = c.Args + " · " + desc
			}
			if len(c.Aliases) > 0 {
				desc += " (also :" + strings.Join(c.Aliases, ", :") + ")"
			}
			name := text.Fit(":"+c.Name, nameW, false, "")
			for i, l := range strings.Split(text.Wrap(desc, max(m.width-nameW-3, 12), " /,"), "\n") {
				if i > 0 {
					name = strings.Repeat(" ", nameW)
				}
				add("  " + th.HintKey.Render(name) + " " + th.Value.Render(l))
			}
		}
	}
	add("")
	add(th.Section.Render("Mouse"))
	for _, l := range Mouse() {
		k := text.Fit(l[0], keyW, false, "")
		for _, d := range strings.Split(text.Wrap(l[1], max(m.width-keyW-3, 12), " /,"), "\n") {
			add("  " + th.HintKey.Render(k) + " " + th.Value.Render(d))
			k = strings.Repeat(" ", keyW)
		}
	}
	m.scroll(0)
}

// Mouse is what the mouse does, as the help and docs/keys.md say it: each
// gesture and what it does.
func Mouse() [][2]string {
	return [][2]string{{"wheel", "scroll the list, table, pane or this help under the pointer"},
		{"click", "put the cursor on a row; in the explorer, also focus that pane"}}
}

// labels are the keys as the help shows them; "(none)" when the config
// gave the action's keys to others, as `canopy config` says.
func labels(keys []string) []string {
	if len(keys) == 0 {
		return []string{"(none)"}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = keymap.Def{Keys: []string{k}}.KeyLabel()
	}
	return out
}

// View draws the visible part and, when the help is longer than the
// screen, where it is: "lines 1-20 of 44 · j/k pgdn scroll".
func (m *Model) View() string {
	rows := m.rows()
	end := min(m.offset+rows, len(m.lines))
	out := make([]string, 0, m.height)
	out = append(out, m.lines[m.offset:end]...)
	for len(out) < rows {
		out = append(out, "")
	}
	if rows < m.height {
		th := m.common.Theme
		more := "end"
		if end < len(m.lines) {
			more = "more below"
		}
		// pgdn: the line is narrow, and says pgup beside it.
		pgdn := strings.Replace(m.common.Key(keymap.PageDown), "pgdown", "pgdn", 1)
		where := fmt.Sprintf(" lines %d-%d of %d (%s) · %s/%s %s/%s or the wheel scroll", m.offset+1, end, len(m.lines), more,
			m.common.Key(keymap.Down), m.common.Key(keymap.Up), m.common.Key(keymap.PageUp), pgdn)
		out = append(out, th.Muted.Render(text.Cut(where, m.width, th.Glyphs.Ellipsis)))
	}
	return strings.Join(out, "\n")
}
