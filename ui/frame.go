package ui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
)

// The frame around the screens: one header line, then the main area, then
// the footer hints and the status line.
const (
	headerLines = 1
	footerLines = 2
)

// bodyHeight is the height of the main area.
func (m *Model) bodyHeight() int {
	h := m.height - headerLines - footerLines - m.footN
	if m.cmd != nil {
		h -= m.cmd.Height() - 1
	}
	return max(h, 1)
}

// layout gives every screen and overlay its size.
func (m *Model) layout() {
	if m.width <= 0 {
		return
	}
	h := m.bodyHeight()
	for _, e := range m.stack {
		e.screen.SetSize(m.width, h)
	}
	if m.help != nil {
		m.help.SetSize(m.width, h)
	}
	if m.cmd != nil {
		m.cmd.SetWidth(m.width)
	}
}

// View draws the frame and the top screen (or the help over it).
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "canopy"
	return v
}

func (m *Model) render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(m.header())
	b.WriteByte('\n')
	body := m.body()
	b.WriteString(body)
	b.WriteByte('\n')
	foot := m.footer()
	for i := range m.footN {
		if i < len(foot) {
			b.WriteString(foot[i])
		}
		b.WriteByte('\n')
	}
	if m.cmd != nil {
		b.WriteString(m.cmd.View())
	} else {
		b.WriteString(m.hints())
	}
	b.WriteByte('\n')
	b.WriteString(m.status())
	return b.String()
}

// body is the main area, exactly bodyHeight lines.
func (m *Model) body() string {
	h := m.bodyHeight()
	th := m.common.Theme
	var content string
	switch {
	case m.help != nil:
		content = m.help.View()
	case m.top() != nil:
		content = m.top().View()
	case m.startErr != nil:
		// The error wraps: its end (the cause) is what matters most.
		msg := strings.Split(ansi.Wrap(safe.String(m.startErr.Error()), max(m.width-4, 10), " /,:"), "\n")
		for i, l := range msg {
			msg[i] = "  " + th.Value.Render(l)
		}
		content = "\n  " + th.Bad.Render("canopy could not open the organization") + "\n\n" +
			strings.Join(msg, "\n") + "\n\n  " + th.Muted.Render(m.common.Key(keymap.Refresh)+" retries · "+m.common.Key(keymap.Quit)+" quits")
	default:
		frames := th.Glyphs.Spinner
		doing := " connecting to "
		if m.preparing() {
			doing = " building the data of " // how far: on the status line
		}
		content = "\n  " + th.Muted.Render(frames[m.frame%len(frames)]+doing+m.host())
	}
	lines := strings.Split(content, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	if _, fits := m.top().(views.Fitted); !fits || m.help != nil {
		for i, l := range lines {
			if text.Width(l) > m.width {
				lines[i] = text.Cut(l, m.width, "")
			}
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

func (m *Model) host() string {
	if m.opts.Host != "" {
		return m.opts.Host
	}
	if m.opts.Client != nil {
		return m.opts.Client.Host()
	}
	return "?"
}

// footered is a screen with lines to show across the whole width above
// the key hints: what an edit in place sends, and what went wrong.
type footered interface{ Footer(width int) []string }

// maxFooter bounds those lines: the screen keeps most of the height.
const maxFooter = 6

// footer is the top screen's footer lines, at most maxFooter.
func (m *Model) footer() []string {
	f, ok := m.top().(footered)
	if !ok || m.width <= 0 || m.help != nil {
		return nil
	}
	lines := f.Footer(m.width)
	if len(lines) > maxFooter {
		lines = append(lines[:maxFooter-1], m.common.Theme.Muted.Render(" …"))
	}
	for i, l := range lines {
		lines[i] = text.Cut(l, m.width, "")
	}
	return lines
}

// header is "canopy  org › table › ..." with the API host at the right.
func (m *Model) header() string {
	th := m.common.Theme
	titles := make([]string, 0, len(m.stack))
	for _, e := range m.stack {
		titles = append(titles, string(e.screen.Title()))
	}
	left := th.HeaderTitle.Render("canopy") + "  " + th.Crumb.Render(breadcrumb(titles, max(m.width-10, 1), th.Glyphs.Ellipsis))
	return text.Fit(left, m.width, false, "")
}

// hints is the footer: the keys that apply to the top screen (disabled ones
// struck through), then the global ones. When the line is short, whole
// screen hints go, from the last; the global ones (: ? q) always stay.
func (m *Model) hints() string {
	var states []keymap.State
	switch {
	case m.help != nil:
		states = m.help.Actions()
	case m.top() != nil:
		states = m.top().Actions()
	}
	memo := hintsKey{width: m.width, typing: m.typing(), help: m.help != nil}
	if memo == m.hintsMemo.key && slices.EqualFunc(states, m.hintsMemo.states, keymap.State.Shows) {
		// The same keys as the frame before: the line is drawn once, not
		// styled again on every key (most keys move a cursor, not the keys).
		return m.hintsMemo.line
	}
	line := m.drawHints(states)
	m.hintsMemo = hintsMemo{key: memo, states: slices.Clone(states), line: line}
	return line
}

// hintsKey and hintsMemo keep the footer's hints line of the last frame,
// with what it was drawn from.
type hintsKey struct {
	width        int
	typing, help bool
}

type hintsMemo struct {
	key    hintsKey
	states []keymap.State
	line   string
}

// drawHints is the hints line for these states: the screen's keys that
// fit, then the global ones.
func (m *Model) drawHints(states []keymap.State) string {
	th := m.common.Theme
	// Each hint is measured as plain text, before it is styled: measuring
	// the styled line took as long as drawing the table.
	hint := func(s keymap.State) (styled string, width int) {
		d, ok := m.common.Keys.Def(s.Action)
		if !ok || s.Hide || len(d.Keys) == 0 { // a key override took its only key
			return "", 0
		}
		key, short := d.KeyLabel(), s.ShortOf(d)
		width = text.Width(key) + 1 + text.Width(short)
		if s.Enabled {
			return th.HintKey.Render(key) + " " + th.HintDesc.Render(short), width
		}
		return th.HintOff.Render(key + " " + short), width
	}
	const gap = "  "
	var global []string
	tailWidth := 0
	switch {
	case m.help != nil:
	case m.typing():
		// Letters type into the input: only ctrl+c still quits.
		global = append(global, th.HintKey.Render("ctrl+c")+" "+th.HintDesc.Render("quit"))
		tailWidth = len("ctrl+c quit")
	default:
		for _, a := range []keymap.Action{keymap.Command, keymap.Help, keymap.Quit} {
			h, w := hint(keymap.On(a))
			if h == "" {
				continue
			}
			if len(global) > 0 {
				tailWidth += len(gap)
			}
			global = append(global, h)
			tailWidth += w
		}
	}
	tail := strings.Join(global, gap)
	room := m.width - 1 - tailWidth
	width := 1 + tailWidth
	// What esc does is kept over the hints before it: room for it is
	// held until it is placed (the footer always says how to go back).
	held := 0
	for _, st := range states {
		if st.Action == keymap.Back {
			if _, w := hint(st); w > 0 && w+len(gap) <= room {
				held = w + len(gap)
			}
			break
		}
	}
	var parts []string
	for _, st := range states {
		h, w := hint(st)
		if h == "" {
			continue
		}
		if st.Action == keymap.Back {
			held = 0 // its own room, placed now
		}
		if w+len(gap) > room-held {
			if held > 0 {
				continue // a later hint may be esc's
			}
			break
		}
		parts = append(parts, h)
		room -= w + len(gap)
		width += w + len(gap)
	}
	if tail != "" {
		parts = append(parts, tail)
	}
	line := " " + strings.Join(parts, gap)
	if width > m.width {
		line = text.Cut(line, m.width, "") // the global keys alone overflow
	}
	return line
}

// status is org · host · identity at the left and the flash (or a
// spinner) at the right.
func (m *Model) status() string {
	th := m.common.Theme
	org := "…" // on its way
	switch {
	case m.env.org != nil:
		org = safe.String(m.env.org.Name)
	case m.env.join != nil:
		org = "no organization" // the join screen says why
	}
	left := " " + th.StatusKey.Render(org) + th.StatusBar.Render(" · "+m.host()+" · "+safe.String(m.opts.Identity))
	if m.opts.ReadOnly {
		left += th.Warn.Render(" · read-only")
	}
	right := ""
	switch {
	case m.flash != "":
		style := th.FlashInfo
		if m.flashErr {
			style = th.FlashError
		}
		right = style.Render(safe.String(m.flash))
	case m.busy():
		frames := th.Glyphs.Spinner
		right = th.Muted.Render(frames[m.frame%len(frames)] + " loading")
	}
	lw := text.Width(left)
	room := m.width - lw - 3
	if room < 10 || m.flash != "" && text.Width(right) > room {
		// Narrow, or a long flash: the flash wins over the identity.
		if right != "" {
			return text.Fit(" "+right, m.width, false, th.Glyphs.Ellipsis)
		}
		return text.Fit(left, m.width, false, th.Glyphs.Ellipsis)
	}
	right = text.Cut(right, room, th.Glyphs.Ellipsis)
	return left + strings.Repeat(" ", max(m.width-lw-text.Width(right)-1, 2)) + right
}

// breadcrumb joins screen titles in w cells. When they do not fit, the
// middle ones go first (the first and the top screen's say the most),
// then the top title is cut at its end.
func breadcrumb(titles []string, w int, ellipsis string) string {
	const sep = " › "
	all := strings.Join(titles, sep)
	if text.Width(all) <= w || len(titles) < 2 {
		return text.Cut(all, w, ellipsis)
	}
	first, rest := titles[0], titles[1:]
	for k := len(rest) - 1; k >= 1; k-- {
		s := first + sep + ellipsis + sep + strings.Join(rest[len(rest)-k:], sep)
		if text.Width(s) <= w {
			return s
		}
	}
	return text.Cut(ellipsis+sep+rest[len(rest)-1], w, ellipsis)
}
