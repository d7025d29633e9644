package detail

// A page's check: a key that has the service try the resource shown
// against the world outside (an account association's credential
// exchange with its clouds), run in a command, its answer shown on the
// page below the fields until the page reads the resource again (r).

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
)

// Checked is one answer of a check: what was checked, and whether it is
// ready or why not.
type Checked struct {
	// Label is canopy's short word for what was checked ("aws"), What the
	// account checked (server text).
	Label, What string
	Ready       bool
	// Why is why it is not ready (server text); Unknown: the service
	// answered a status canopy does not know.
	Why     string
	Unknown bool
}

// pageCheck is the check of a page's kind.
type pageCheck struct {
	action keymap.Action
	// cannot says why an item has nothing to check, "" when it has.
	cannot func(item any) string
	run    func(ctx context.Context, item any) ([]Checked, error)
}

// checkedMsg carries a check's answer.
type checkedMsg struct {
	owner   *Model
	uid     string
	checked []Checked
	err     error
}

// WithCheck is p with a check of one under action: cannot says why one
// has nothing to check ("" when it has), run checks it (in a command).
func WithCheck[T any](p Page, action keymap.Action, cannot func(*T) string, run func(ctx context.Context, it *T) ([]Checked, error)) Page {
	write := p.write
	p.write = func(m *Model, s *sheet, item any) {
		write(m, s, item)
		m.writeCheck(s)
	}
	p.check = &pageCheck{action: action,
		cannot: func(item any) string {
			if it, ok := item.(*T); ok {
				return cannot(it)
			}
			return "nothing to check here"
		},
		run: func(ctx context.Context, item any) ([]Checked, error) {
			it, ok := item.(*T)
			if !ok {
				return nil, fmt.Errorf("nothing to check: not a %T", it)
			}
			return run(ctx, it)
		}}
	return p
}

// checkKey is the state of the page's check key, none for a page without.
func (m *Model) checkKey() []keymap.State {
	p := m.kindPage()
	if p == nil || p.check == nil || m.item == nil {
		return nil
	}
	if why := p.check.cannot(m.item); why != "" {
		return []keymap.State{keymap.Off(p.check.action, why)}
	}
	if e := m.cache[m.uid]; e != nil && e.checking {
		return []keymap.State{keymap.Off(p.check.action, "the check is on its way")}
	}
	return []keymap.State{keymap.On(p.check.action).Does(m.runCheck)}
}

// runCheck starts the check of what the page shows.
func (m *Model) runCheck() tea.Cmd {
	p := m.kindPage()
	e := m.entry(m.uid)
	e.checking, e.checked, e.checkErr = true, nil, nil
	m.relayout()
	ctx, owner, uid, item, run := m.ctx, m, m.uid, m.item, p.check.run
	return func() tea.Msg {
		out, err := run(ctx, item)
		return checkedMsg{owner: owner, uid: uid, checked: out, err: err}
	}
}

// gotCheck keeps a check's answer.
func (m *Model) gotCheck(msg checkedMsg) {
	if msg.owner != m {
		return
	}
	e := m.entry(msg.uid)
	e.checking, e.wasChecked, e.checked, e.checkErr = false, true, msg.checked, msg.err
	if msg.uid == m.uid {
		m.relayout()
	}
}

// writeCheck writes the check's answer: each account ready or not and
// why, what failed, or that it is on its way; nothing before a check.
func (m *Model) writeCheck(s *sheet) {
	e := m.cache[m.uid]
	if e == nil || !e.checking && !e.wasChecked {
		return
	}
	th := m.common.Theme
	s.section("CHECK")
	if e.checking {
		frames := th.Glyphs.Spinner
		s.muted("  " + frames[m.frame%len(frames)] + " the service is trying each account")
		return
	}
	for _, c := range e.checked {
		state := th.Good.Render("ready")
		switch {
		case c.Unknown:
			state = th.Warn.Render("unknown status: " + safe.String(c.Why))
		case !c.Ready:
			state = th.Bad.Render("not ready")
		}
		s.own(c.Label, safe.String(c.What)+"  "+state)
		if !c.Ready && !c.Unknown && c.Why != "" {
			s.plainWrapped(c.Why, th.Muted.Render)
		}
	}
	if e.checkErr != nil {
		s.wrapped("  ", th.Bad.Render(th.Glyphs.Failed+" "+safe.String(e.checkErr.Error())))
	}
	if p := m.kindPage(); p != nil && p.check != nil {
		s.muted("  " + m.common.Key(p.check.action) + " checks again")
	}
}
