package dialog

// Drawing: the question (or the progress, or the summary) at the top,
// where it is always seen, and the items with their results below it,
// failures first once done, scrolled within bounds.

import (
	"strings"

	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
)

// wrap breaks s into lines of at most w cells, each prefixed by indent:
// what the server said is never cut.
func wrap(s string, w int, indent string) []string {
	w = max(w-text.Width(indent), 10)
	lines := strings.Split(text.Wrap(s, w, " /,"), "\n")
	for i, l := range lines {
		lines[i] = indent + l
	}
	return lines
}

// refresh lays the dialog out again after a change: View only draws what
// is laid out (a dialog of many items costs its layout once per change).
func (m *Model) refresh() {
	m.headLines, m.bodyLines = m.buildHead(), m.buildBody()
}

// head is what stays on top: title, explanation, then the prompt, the
// progress or the summary.
func (m *Model) buildHead() []string {
	th := m.common.Theme
	cut := func(s string) string { return text.Cut(s, m.width, th.Glyphs.Ellipsis) }
	head := []string{cut(th.OverlayTitle.Render(string(m.cfg.Title))), ""}
	for _, l := range m.cfg.Lines {
		head = append(head, wrap(string(l), m.width, "")...)
	}
	switch {
	case m.factsLoading:
		head = append(head, th.Muted.Render("counting what goes with it…"))
	case m.factsErr != nil:
		head = append(head, wrap(th.Muted.Render("could not count what goes with it: "+safe.String(m.factsErr.Error())), m.width, "")...)
	}
	for _, l := range m.facts {
		head = append(head, wrap(string(l), m.width, "")...)
	}
	switch m.state {
	case asking:
		if m.cfg.Confirm != "" {
			if m.cfg.ConfirmWhat != "" {
				head = append(head, "", cut(th.Warn.Render("type "+m.cfg.ConfirmWhat+" to confirm")))
			}
			head = append(head, "")
			if m.askAbove {
				head = append(head, wrap("type "+safe.String(m.cfg.Confirm)+" to confirm:", m.width, "")...)
			}
			head = append(head, cut(m.input.View()), cut(th.Muted.Render(m.common.Key(keymap.Accept)+" "+m.cfg.Verb+"s · "+
				m.common.Key(keymap.Cancel)+" cancels")))
		} else {
			q := strings.ToUpper(m.cfg.Verb[:1]) + m.cfg.Verb[1:]
			if len(m.cfg.Items) > 1 {
				q += " " + text.Count(len(m.cfg.Items))
			}
			head = append(head, "", cut(th.Warn.Render(q+"?")+th.Muted.Render("  "+m.common.Key(keymap.Yes)+" or "+
				m.common.Key(keymap.Accept)+": yes · "+m.common.Key(keymap.Cancel)+": no")))
		}
	case running:
		head = append(head, "", cut(th.Muted.Render("working… "+text.Count(len(m.cfg.Items)-m.left)+"/"+text.Count(len(m.cfg.Items)))))
	default:
		head = append(head, "")
		head = append(head, m.summary()...)
	}
	return append(head, "")
}

// summary counts the results and offers what comes next.
func (m *Model) summary() []string {
	th := m.common.Theme
	ok, failed, unknown := 0, 0, 0
	for i := range m.cfg.Items {
		if !m.ran[i] {
			continue
		}
		switch _, r := m.result(i); r {
		case Done:
			ok++
		case Unknown:
			unknown++
		default:
			failed++
		}
	}
	s := text.Count(ok) + " done"
	if failed > 0 {
		s += ", " + th.Bad.Render(text.Count(failed)+" failed")
	}
	if unknown > 0 {
		s += ", " + th.Warn.Render(text.Count(unknown)+" unknown") + th.Muted.Render(" (no answer: close, then "+m.common.Key(keymap.Refresh)+" in the list shows what the server has)")
	}
	if hint, _ := m.next(); hint != "" {
		return append([]string{text.Cut(s, m.width, "")}, wrap(th.Warn.Render(hint)+th.Muted.Render(" · "+m.common.Key(keymap.Cancel)+" closes"), m.width, "")...)
	}
	return []string{text.Cut(s+th.Muted.Render(" · "+m.common.Key(keymap.Accept)+" or "+m.common.Key(keymap.Cancel)+" closes"), m.width, "")}
}

// order is the order items are listed in: as given, and once finished,
// failures first, then unknown outcomes, then what was done.
func (m *Model) order() []int {
	idx := make([]int, 0, len(m.cfg.Items))
	if m.state != finished {
		for i := range m.cfg.Items {
			idx = append(idx, i)
		}
		return idx
	}
	for _, want := range []Result{Failed, Unknown, Done} {
		for i := range m.cfg.Items {
			if _, r := m.result(i); r == want {
				idx = append(idx, i)
			}
		}
	}
	return idx
}

// body is the list of items with their results.
func (m *Model) buildBody() []string {
	th := m.common.Theme
	var body []string
	for _, i := range m.order() {
		it := m.cfg.Items[i]
		mark := "  "
		var extra []string
		switch {
		case !m.ran[i] && m.state == running:
			mark = th.Muted.Render("… ")
		case !m.ran[i]:
		default:
			lines, r := m.result(i)
			switch r {
			case Done:
				mark = th.Good.Render("ok ")
			case Unknown:
				mark = th.Warn.Render("? ")
				for _, l := range lines {
					extra = append(extra, wrap(th.Warn.Render(l), m.width, "       ")...)
				}
			default:
				mark = th.Bad.Render(th.Glyphs.Failed + " ")
				for _, l := range lines {
					extra = append(extra, wrap(th.Bad.Render(l), m.width, "       ")...)
				}
			}
			if r == Done {
				for _, l := range lines {
					extra = append(extra, wrap(th.Muted.Render(l), m.width, "       ")...)
				}
			}
		}
		body = append(body, text.Cut("  "+mark+string(it.Label), m.width, th.Glyphs.Ellipsis))
		body = append(body, extra...)
	}
	return body
}

// room is how many item lines fit under the head, one kept for "… N more"
// when they do not all fit.
func (m *Model) room() int {
	room := m.height - len(m.headLines)
	if len(m.bodyLines) > room {
		room--
	}
	return max(room, 1)
}

// View draws the head and the visible part of the list.
func (m *Model) View() string {
	th := m.common.Theme
	head, body := append([]string(nil), m.headLines...), m.bodyLines
	room := m.room()
	offset := min(m.offset, max(len(body)-room, 0))
	end := min(offset+room, len(body))
	out := append(head, body[offset:end]...)
	if len(body) > room {
		more := th.Muted.Render("  … " + text.Count(len(body)-end) + " more")
		if end == len(body) {
			more = th.Muted.Render("  (" + text.Count(offset) + " above)")
		}
		out = append(out, more+th.Muted.Render("  "+m.keyLabel(keymap.Up)+" "+m.keyLabel(keymap.Down)+" "+
			m.keyLabel(keymap.PageUp)+" "+m.keyLabel(keymap.PageDown)+" scroll"))
	}
	if len(out) > m.height {
		out = out[:max(m.height, 0)]
	}
	for len(out) < m.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// keyLabel is how the key of an action is shown.
func (m *Model) keyLabel(a keymap.Action) string {
	d, _ := m.common.Keys.Def(a)
	return d.KeyLabel()
}
