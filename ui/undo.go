package ui

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/form"
)

// undoMax bounds the edits kept for undo.
const undoMax = 100

// edited keeps an edit that went through, for u: not a secret's, whose
// old value was never known.
func (e *env) edited(msg *editedMsg) {
	if msg.e.secret {
		return
	}
	e.undos = append(e.undos, msg)
	if len(e.undos) > undoMax {
		e.undos = e.undos[len(e.undos)-undoMax:]
	}
}

// undoLast is u: it sends the values before the newest edit not yet
// undone, with the same mask; one at a time, newest first.
func (e *env) undoLast(ctx context.Context) tea.Cmd {
	if st := e.common.Change(keymap.Undo); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	if e.undoing {
		return views.Flash("an undo is on its way: wait for its answer")
	}
	if len(e.undos) == 0 {
		return views.Flash("nothing left to undo")
	}
	last := e.undos[len(e.undos)-1]
	e.undoing = true
	ed, from, to, lookFirst := last.e, last.new, last.old, last.lostUndo != nil
	send := func() tea.Msg {
		if lookFirst {
			// The last undo's answer was lost and could not be looked up:
			// look before sending it again.
			f, err := e.checkEdit(ctx, ed, from, to, nil)
			if err != nil || f.Verdict != form.Absent {
				return lookedUndo(last, nil, f, err)
			}
		}
		n, res, err := e.sendEdit(ctx, ed, from, to, "undo of ")
		if !api.MaybeMade(err) {
			return undoneMsg{edit: last, result: res, err: err}
		}
		f, lookErr := e.checkEdit(ctx, ed, from, to, n)
		return lookedUndo(last, err, f, lookErr)
	}
	return tea.Batch(send, views.Flash(fmt.Sprintf("undoing the edit of %s of %s…", ed.label(), safe.String(ed.name))))
}

// undone takes an undo's answer: reloads and the flash, or why not (a lost
// answer is unknown, and the edit stays to undo). The shell puts the old
// version in place before the flash can show (see Update).
func (e *env) undone(msg undoneMsg) tea.Cmd {
	e.undoing = false
	ed := msg.edit.e
	logged := func() tea.Msg { return views.ChangedMsg{Changes: []views.Change{views.Logged()}} }
	if msg.found != nil || msg.lookErr != nil {
		return tea.Batch(logged, e.undoLookedUp(msg))
	}
	// Done, or refused for good (the resource is gone, the right is
	// lacking): either way it leaves the list, so older edits can be
	// undone.
	e.undos = slices.DeleteFunc(e.undos, func(u *editedMsg) bool { return u == msg.edit })
	if msg.err != nil {
		return tea.Batch(logged, views.FlashError(fmt.Sprintf("undo of %s of %s failed: %s (dropped; %s)", ed.label(),
			safe.String(ed.name), strings.Join(e.failure(msg.err), " "), e.left())))
	}
	return e.undid(msg, "")
}

// undid says an undo went through (how: how it was learnt) and reloads
// what the answer alone does not update.
func (e *env) undid(msg undoneMsg, how string) tea.Cmd {
	ed := msg.edit.e
	reload := append([]views.Change{views.Logged()}, ed.reload...)
	return tea.Batch(func() tea.Msg { return views.ChangedMsg{Changes: reload} },
		views.Flash(fmt.Sprintf("%sundid %s of %s: back to %s · %s", how, ed.label(), safe.String(ed.name), changeValues(msg.edit.old), e.left())))
}

// lookedUndo is the answer to an undo whose own answer was lost (lost;
// nil when it was not sent again), with what a lookup then found.
func lookedUndo(last *editedMsg, lost error, f form.Found, lookErr error) undoneMsg {
	if lost == nil {
		lost = last.lostUndo
	}
	msg := undoneMsg{edit: last, err: lost, lost: lost, found: &f, lookErr: lookErr}
	if lookErr == nil && f.Verdict == form.Made {
		msg.result, _ = unlost(f.Result)
		msg.err = nil // done: the shell shows the resource as the server has it
	}
	return msg
}

// undoLookedUp says what became of an undo whose answer was lost: undone
// (it leaves the list), not undone (u sends it again), overtaken by
// another value (dropped: undoing would overwrite it), or not known (u
// looks again before anything is sent).
func (e *env) undoLookedUp(msg undoneMsg) tea.Cmd {
	ed := msg.edit.e
	head := "undo of " + ed.label() + " of " + safe.String(ed.name) + ": "
	lost := "no answer (" + safe.String(api.LostCause(msg.lost)) + ")"
	msg.edit.lostUndo = nil
	drop := func() { e.undos = slices.DeleteFunc(e.undos, func(u *editedMsg) bool { return u == msg.edit }) }
	switch {
	case msg.lookErr != nil:
		msg.edit.lostUndo = msg.lost
		// One line: the short cause (the flash has no room for a path).
		return views.FlashError(head + unknownLine(msg.lost, "it was undone", "could not look it up ("+
			safe.String(api.LostCause(msg.lookErr))+"); "+e.common.Key(keymap.Undo)+" looks again"))
	case msg.found.Verdict == form.Made:
		drop()
		return e.undid(msg, "no answer, but the server has it: ")
	case msg.found.Verdict == form.Absent:
		return views.FlashError(head + lost + "; the server still has the edited value: " + e.common.Key(keymap.Undo) + " sends the undo again")
	}
	drop()
	return views.FlashError(head + lost + "; " + msg.found.Says + ": not undone (dropped; " + e.left() + ")")
}

// left says how many edits are left to undo.
func (e *env) left() string {
	if n := len(e.undos); n > 0 {
		return fmt.Sprintf("%d more to undo", n)
	}
	return "nothing left to undo"
}

// changeValues is the values of an edit's fields, quoted.
func changeValues(v map[string]string) string {
	keys := slices.Sorted(maps.Keys(v))
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = quoted(v[k])
	}
	return strings.Join(out, ", ")
}
