// Package cmdline is the `:` command line: a text input with completion
// over the shell's commands, k9s style (":repos", ":tags", ":org").
package cmdline

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"canopy/keymap"
	"canopy/text"
	"canopy/views"
)

// Command is one command the line knows.
type Command struct {
	Name    string
	Aliases []string
	Args    string // usage of the arguments, "" for none
	Desc    string
}

// RunMsg asks the shell to run a command.
type RunMsg struct {
	Name string
	Args []string
}

// CloseMsg says the line was closed without running anything.
type CloseMsg struct{}

// maxSuggestions bounds the list shown above the line.
const maxSuggestions = 8

// Model is the command line.
type Model struct {
	common   views.Common
	input    textinput.Model
	commands []Command
	matches  []int // indexes into commands, best first
	sel      int
	// prefixed is how many of the matches (the first) begin with the
	// name typed, or have an alias that does; chose: the user moved the
	// highlight (enter runs what is highlighted then).
	prefixed int
	chose    bool
	width    int
	closing  bool                     // a RunMsg or CloseMsg is on its way
	why      func(name string) string // see Explaining
	fill     views.Fill
	// last is the last line run (this session's, or the one before's):
	// on an empty line the complete key brings it back.
	last string
}

// New makes a command line over commands.
func New(common views.Common, commands []Command) *Model {
	in := views.NewInput(common, ":", "command ("+common.Key(keymap.Complete)+" completes)")
	m := &Model{common: common, input: in, commands: commands}
	m.refilter()
	return m
}

// Explaining has the line say why a name that is no command is none
// (":versions": a library's versions are its own), where why knows.
func (m *Model) Explaining(why func(name string) string) { m.why = why }

// explain is why name is no command, "" when nothing says.
func (m *Model) explain(name string) string {
	if m.why == nil {
		return ""
	}
	return m.why(name)
}

// SetLast offers line, the last one run, on an empty line: the
// placeholder names it and the complete key brings it back.
func (m *Model) SetLast(line string) {
	m.last = strings.TrimSpace(line)
	if m.last != "" {
		m.input.Placeholder = "command (" + m.common.Key(keymap.Complete) + " brings back :" + m.last + ")"
	}
}

// Closing reports whether the line has run or closed and its message is on
// its way: keys typed now are for what comes next, not for the line.
func (m *Model) Closing() bool { return m.closing }

// Open focuses an empty line.
func (m *Model) Open() tea.Cmd {
	m.closing = false
	m.input.SetValue("")
	m.refilter()
	return m.input.Focus()
}

// SetWidth sets the line's width.
func (m *Model) SetWidth(w int) {
	m.width = w
	m.input.SetWidth(max(w-2, 1))
}

// Actions are the keys of a text input.
func (m *Model) Actions() []keymap.State {
	return []keymap.State{keymap.On(keymap.Accept).Does(m.run), keymap.On(keymap.Cancel).Does(m.cancel),
		keymap.On(keymap.Complete).Does(m.complete), keymap.Quiet(keymap.Prev).Does(func() tea.Cmd { return m.choose(-1) }),
		keymap.Quiet(keymap.Next).Does(func() tea.Cmd { return m.choose(1) })}
}

// cancel closes the line.
func (m *Model) cancel() tea.Cmd {
	m.closing = true
	return func() tea.Msg { return CloseMsg{} }
}

// complete brings back the last line on an empty one, else completes the
// highlighted suggestion.
func (m *Model) complete() tea.Cmd {
	if m.last != "" && strings.TrimSpace(m.input.Value()) == "" {
		m.input.SetValue(m.last)
		m.input.CursorEnd()
		m.refilter()
		return nil
	}
	if c, ok := m.current(); ok {
		m.input.SetValue(c.Name + " ")
		m.input.CursorEnd()
		m.refilter()
	}
	return nil
}

// choose highlights the suggestion d after the current one, round.
func (m *Model) choose(d int) tea.Cmd {
	if n := len(m.matches); n > 0 {
		m.sel, m.chose = (m.sel+n+d)%n, true
	}
	return nil
}

// Update edits the line, moves in the suggestions, runs or closes.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if cmd, ok := views.Press(m.common.Keys, k, m.Actions()); ok {
			return cmd
		}
	}
	over, full := views.Overflow(m.input, msg)
	if full {
		return m.fill.Update(m.input, true, "the command line")
	}
	var cmd tea.Cmd
	before := m.input.Value()
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() != before {
		m.refilter()
	}
	return tea.Batch(cmd, m.fill.Update(m.input, over, "the command line"))
}

// run resolves the typed name (exactly, by alias, or the highlighted
// suggestion) and asks the shell to run it.
func (m *Model) run() tea.Cmd {
	fields := strings.Fields(m.input.Value())
	if len(fields) == 0 {
		m.closing = true
		return func() tea.Msg { return CloseMsg{} }
	}
	name := strings.TrimPrefix(fields[0], ":")
	if jump, ok := parseJump(name); ok && len(fields) == 1 {
		m.closing = true
		return tea.Batch(func() tea.Msg { return CloseMsg{} }, func() tea.Msg { return jump })
	}
	resolved := ""
	for _, c := range m.commands {
		if c.Name == name || contains(c.Aliases, name) {
			resolved = c.Name
		}
	}
	if why := m.explain(name); resolved == "" && why != "" {
		return views.FlashError(":" + name + " is no command: " + why)
	}
	if resolved == "" {
		// The suggestion highlighted, when the name typed begins it or the
		// user chose it: a typo is not taken for a command it only
		// resembles (":abc" is not ":libraries").
		if c, ok := m.current(); ok && (m.sel < m.prefixed || m.chose) {
			resolved = c.Name
		} else if ok {
			return views.FlashError("unknown command :" + name + " (did you mean :" + c.Name + "? " + m.common.Key(keymap.Complete) + " completes it)")
		}
	}
	if resolved == "" {
		return views.FlashError("unknown command :" + name + " (" + m.common.Key(keymap.Complete) + " shows the commands)")
	}
	args := fields[1:]
	m.closing = true
	return func() tea.Msg { return RunMsg{Name: resolved, Args: args} }
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (m *Model) current() (Command, bool) {
	if m.sel < len(m.matches) {
		return m.commands[m.matches[m.sel]], true
	}
	return Command{}, false
}

// refilter ranks the commands against the typed name: the list is a dozen
// entries, so this stays well under a microsecond per keystroke.
func (m *Model) refilter() {
	m.sel, m.chose, m.prefixed = 0, false, 0
	m.matches = m.matches[:0]
	name, _, _ := strings.Cut(strings.TrimSpace(m.input.Value()), " ")
	if _, jump := parseJump(strings.TrimPrefix(name, ":")); jump {
		return // a row to go to, not a command
	}
	if name == "" {
		for i := range m.commands {
			m.matches = append(m.matches, i)
		}
		return
	}
	names := make([]string, len(m.commands))
	for i, c := range m.commands {
		names[i] = c.Name + " " + strings.Join(c.Aliases, " ")
	}
	// Prefix matches first, then fuzzy ones.
	begins := func(c Command) bool {
		return strings.HasPrefix(c.Name, name) || slices.ContainsFunc(c.Aliases, func(a string) bool { return strings.HasPrefix(a, name) })
	}
	for i, c := range m.commands {
		if begins(c) {
			m.matches = append(m.matches, i)
		}
	}
	// The command named exactly first: enter runs it, so it is the one
	// highlighted (a plugin "re" before :repos).
	exact := func(i int) bool { c := m.commands[i]; return c.Name == name || slices.Contains(c.Aliases, name) }
	slices.SortStableFunc(m.matches, func(a, b int) int {
		switch ea, eb := exact(a), exact(b); {
		case ea && !eb:
			return -1
		case eb && !ea:
			return 1
		}
		return 0
	})
	m.prefixed = len(m.matches)
	// Then what the name misspells (":reops"), before what it happens
	// to be a subsequence of.
	for _, i := range near(m.commands, name) {
		if !slices.Contains(m.matches, i) {
			m.matches = append(m.matches, i)
		}
	}
	for _, f := range fuzzy.Find(name, names) {
		if !slices.Contains(m.matches, f.Index) {
			m.matches = append(m.matches, f.Index)
		}
	}
}

// Height is the number of lines View draws.
func (m *Model) Height() int { return min(len(m.matches), maxSuggestions) + 1 }

// View draws the suggestions above the input line.
func (m *Model) View() string {
	th := m.common.Theme
	var b strings.Builder
	name, _, _ := strings.Cut(strings.TrimSpace(m.input.Value()), " ")
	if jump, ok := parseJump(strings.TrimPrefix(name, ":")); ok {
		where := "go to row " + text.Count(jump.Row)
		if jump.Row <= 1 && !jump.Percent {
			where = "go to the first row"
		}
		if jump.Percent {
			where = "go " + strconv.Itoa(jump.Row) + "% of the way down"
		}
		b.WriteString(th.Selected.Render(text.Fit(" "+text.Fit(":"+name, 22, false, "")+" "+where, m.width, false, th.Glyphs.Ellipsis)))
		b.WriteByte('\n')
	}
	shown := m.matches[:min(len(m.matches), maxSuggestions)]
	// The names' column is as wide as the longest name shown (at least
	// the jump line's), up to half the width; a longer name is cut.
	col := 22
	for _, idx := range shown {
		col = max(col, text.Width(usage(m.commands[idx])))
	}
	col = min(col, max(m.width/2, 22))
	for i, idx := range shown {
		c := m.commands[idx]
		line := text.Fit(" "+text.Fit(usage(c), col, false, th.Glyphs.Ellipsis)+" "+c.Desc, m.width, false, th.Glyphs.Ellipsis)
		if i == m.sel {
			b.WriteString(th.Selected.Render(line))
		} else {
			b.WriteString(th.Muted.Render(line))
		}
		b.WriteByte('\n')
	}
	b.WriteString(m.input.View())
	return b.String()
}

// usage is a command as the suggestions name it: ":name args".
func usage(c Command) string {
	if c.Args != "" {
		return ":" + c.Name + " " + c.Args
	}
	return ":" + c.Name
}

// parseJump reads a row to jump to: "2500" or "2,500" (the row, from 1;
// 0 is the first too, as in vim), "50%" (of the way down).
func parseJump(s string) (views.JumpMsg, bool) {
	digits, percent := strings.CutSuffix(s, "%")
	digits = strings.NewReplacer(",", "", "_", "").Replace(digits)
	if digits == "" || len(digits) > 12 {
		return views.JumpMsg{}, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || percent && n > 100 {
		return views.JumpMsg{}, false
	}
	return views.JumpMsg{Row: n, Percent: percent}, true
}

// Resolve is what a command line run from outside the UI (canopy -c)
// asks: a jump (":2500"), or a command by its name, an alias or a prefix
// that names one command only, with its arguments.
func Resolve(commands []Command, line string) (tea.Msg, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil, errors.New("no command given")
	}
	name := strings.TrimPrefix(fields[0], ":")
	if jump, ok := parseJump(name); ok && len(fields) == 1 {
		return jump, nil
	}
	var prefixed []string
	for _, c := range commands {
		if c.Name == name || contains(c.Aliases, name) {
			return RunMsg{Name: c.Name, Args: fields[1:]}, nil
		}
		if strings.HasPrefix(c.Name, name) {
			prefixed = append(prefixed, c.Name)
		}
	}
	switch len(prefixed) {
	case 1:
		return RunMsg{Name: prefixed[0], Args: fields[1:]}, nil
	case 0:
		if typo := near(commands, name); len(typo) > 0 {
			return nil, fmt.Errorf("unknown command :%s (did you mean :%s?)", name, commands[typo[0]].Name)
		}
		return nil, fmt.Errorf("unknown command :%s", name)
	}
	return nil, fmt.Errorf(":%s could be :%s", name, strings.Join(prefixed, " or :"))
}
