// Package capabilities is a full-screen multi-select of capabilities (a
// role's), grouped by domain: type to narrow them fuzzily by name or
// domain, space to choose or drop the one under the cursor, enter to take
// what is chosen. Each domain's header counts what is chosen of it. It is
// fed plain data (Option) by its owner, and gives back the names chosen.
package capabilities

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
)

// Option is one capability: Name is what is given back (the name a role
// carries), Short the name people read, Domain what it is grouped under,
// Allows what it lets its holder do ("" for nothing to say). They are
// made safe where they are drawn.
type Option struct {
	Name, Short, Domain, Allows string
}

// Config is a picker.
type Config struct {
	Title   safe.Text
	Options []Option
	// Chosen are the names chosen to begin with (a role's capabilities).
	Chosen []string
	// Accept is given the names chosen, in the options' order, on enter;
	// what it returns runs as the picker closes.
	Accept func(chosen []string) tea.Cmd
	// AtLeast is the fewest that may be taken (a role grants one at least).
	AtLeast int
}

// row is a line of the list: a domain's header, or an option.
type row struct {
	header bool
	group  int // index into groups
	opt    int // index into options, for an option's row
}

// Model is the picker.
type Model struct {
	closed bool
	common views.Common
	cfg    Config
	// groups are the domains in the order the options first name them;
	// inGroup the options of each.
	groups  []string
	inGroup [][]int
	chosen  map[string]bool
	input   textinput.Model
	fill    views.Fill
	// rows are the headers and options the filter shows; items the
	// positions in rows of options (where the cursor goes).
	rows          []row
	items         []int
	cursor        int // index into items
	offset        int // first row shown
	width, height int
}

// New makes a picker.
func New(common views.Common, cfg Config) *Model {
	m := &Model{common: common, cfg: cfg, chosen: map[string]bool{}}
	at := map[string]int{}
	for i, o := range cfg.Options {
		g, ok := at[o.Domain]
		if !ok {
			g = len(m.groups)
			at[o.Domain] = g
			m.groups = append(m.groups, o.Domain)
			m.inGroup = append(m.inGroup, nil)
		}
		m.inGroup[g] = append(m.inGroup[g], i)
	}
	for _, n := range cfg.Chosen {
		m.chosen[n] = true
	}
	m.input = views.NewInput(common, "filter: ", "type to narrow by name or domain")
	m.refilter()
	return m
}

// Init focuses the filter.
func (m *Model) Init() tea.Cmd { return m.input.Focus() }

// Title names the picker.
func (m *Model) Title() safe.Text { return m.cfg.Title }

// Busy: the options are all there.
func (m *Model) Busy() bool { return false }

// TakesText: what is typed narrows the list.
func (m *Model) TakesText() bool { return true }

// Closed reports whether it closed itself.
func (m *Model) Closed() bool { return m.closed }

// SetSize sets its size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.input.SetWidth(max(w-10, 1))
	m.follow()
}

// Chosen are the names chosen, in the options' order (names chosen to
// begin with that no option has come last, as given).
func (m *Model) Chosen() []string {
	var out []string
	known := map[string]bool{}
	for _, o := range m.cfg.Options {
		known[o.Name] = true
		if m.chosen[o.Name] {
			out = append(out, o.Name)
		}
	}
	for _, n := range m.cfg.Chosen {
		if !known[n] && m.chosen[n] && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// Actions: take, cancel (or clear the filter), toggle, move.
func (m *Model) Actions() []keymap.State {
	accept := keymap.On(keymap.Accept).Saying("take chosen").Does(m.accept)
	if n := len(m.Chosen()); n < m.cfg.AtLeast {
		accept = keymap.Off(keymap.Accept, "choose "+countWord(m.cfg.AtLeast)+" at least: "+m.common.Key(keymap.Mark)+" chooses the one under the cursor")
	}
	cancel := keymap.On(keymap.Cancel).Does(func() tea.Cmd {
		m.closed = true
		return nil
	})
	if m.input.Value() != "" {
		cancel = keymap.On(keymap.Cancel).Saying("clear filter").Does(func() tea.Cmd {
			m.input.SetValue("")
			m.refilter()
			return nil
		})
	}
	toggle := keymap.On(keymap.Mark).Saying("toggle").Does(m.toggle)
	if len(m.items) == 0 {
		toggle = keymap.Off(keymap.Mark, "nothing shown to choose: change the filter")
	}
	page := max(m.height-headLines, 1)
	return []keymap.State{accept, cancel, toggle,
		keymap.Quiet(keymap.Prev).Does(func() tea.Cmd { return m.moveTo(m.cursor - 1) }),
		keymap.Quiet(keymap.Next).Does(func() tea.Cmd { return m.moveTo(m.cursor + 1) }),
		keymap.Quiet(keymap.PageUp).Does(func() tea.Cmd { return m.moveTo(m.cursor - page) }),
		keymap.Quiet(keymap.PageDown).Does(func() tea.Cmd { return m.moveTo(m.cursor + page) })}
}

// countWord is "one" for 1, else the number.
func countWord(n int) string {
	if n == 1 {
		return "one"
	}
	return strconv.Itoa(n)
}

// accept gives the owner what is chosen, and closes.
func (m *Model) accept() tea.Cmd {
	m.closed = true
	if m.cfg.Accept == nil {
		return nil
	}
	return m.cfg.Accept(m.Chosen())
}

// toggle chooses or drops the option under the cursor.
func (m *Model) toggle() tea.Cmd {
	if m.cursor >= len(m.items) {
		return nil
	}
	n := m.cfg.Options[m.rows[m.items[m.cursor]].opt].Name
	m.chosen[n] = !m.chosen[n]
	return nil
}

// moveTo puts the cursor on the option i (clamped), the list following.
func (m *Model) moveTo(i int) tea.Cmd {
	m.cursor = min(max(i, 0), max(len(m.items)-1, 0))
	m.follow()
	return nil
}

// Update narrows, moves, toggles and takes.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
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

// refilter lists the options the filter matches, by domain in the
// options' order: a few hundred at most, matched in microseconds.
func (m *Model) refilter() {
	shown := make([]bool, len(m.cfg.Options))
	q := strings.TrimSpace(m.input.Value())
	if q == "" {
		for i := range shown {
			shown[i] = true
		}
	} else {
		labels := make([]string, len(m.cfg.Options))
		for i, o := range m.cfg.Options {
			labels[i] = o.Short + " " + o.Domain
		}
		for _, f := range fuzzy.Find(q, labels) {
			shown[f.Index] = true
		}
	}
	m.rows, m.items = m.rows[:0], m.items[:0]
	for g, opts := range m.inGroup {
		head := false
		for _, i := range opts {
			if !shown[i] {
				continue
			}
			if !head {
				m.rows = append(m.rows, row{header: true, group: g})
				head = true
			}
			m.items = append(m.items, len(m.rows))
			m.rows = append(m.rows, row{group: g, opt: i})
		}
	}
	m.cursor, m.offset = 0, 0
	m.follow()
}

// follow scrolls so that the cursor's row shows, with its domain's header
// when it is the domain's first.
func (m *Model) follow() {
	if len(m.items) == 0 {
		m.offset = 0
		return
	}
	at := m.items[m.cursor]
	if at > 0 && m.rows[at-1].header {
		at--
	}
	room := max(m.height-headLines, 1)
	switch {
	case at < m.offset:
		m.offset = at
	case m.items[m.cursor] >= m.offset+room:
		m.offset = m.items[m.cursor] - room + 1
	}
}
