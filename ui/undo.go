package ui

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/safe"
)

// undoMax bounds the edits kept for undo.
const undoMax = 100

// edited keeps an edit that went through, for u.
func (e *env) edited(msg *editedMsg) {
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
	ed, from, to := last.e, last.new, last.old
	send := func() tea.Msg {
		_, res, err := e.sendEdit(ctx, ed, from, to, "undo of ")
		return undoneMsg{edit: last, result: res, err: err}
	}
	return tea.Batch(send, views.Flash(fmt.Sprintf("undoing the edit of %s of %s…", ed.mask, safe.String(ed.name))))
}

// undone takes an undo's answer: reloads and the flash, or why not (a lost
// answer is unknown, and the edit stays to undo). The shell puts the old
// version in place before the flash can show (see Update).
func (e *env) undone(msg undoneMsg) tea.Cmd {
	e.undoing = false
	ed := msg.edit.e
	logged := func() tea.Msg { return views.ChangedMsg{IDs: []string{changesID}} }
	switch {
	case msg.err != nil && unknownOutcome(msg.err):
		return tea.Batch(logged, views.FlashError("undo of "+ed.mask+" of "+safe.String(ed.name)+": "+
			unknownLine(msg.err, "it was undone", "r to refresh to see; u tries again")))
	}
	// Done, or refused for good (the resource is gone, the right is
	// lacking): either way it leaves the list, so older edits can be
	// undone.
	e.undos = slices.DeleteFunc(e.undos, func(u *editedMsg) bool { return u == msg.edit })
	if msg.err != nil {
		return tea.Batch(logged, views.FlashError(fmt.Sprintf("undo of %s of %s failed: %s (dropped; %s)", ed.mask,
			safe.String(ed.name), strings.Join(e.failure(msg.err), " "), e.left())))
	}
	left := e.left()
	reload := append([]string{changesID}, ed.reload...)
	return tea.Batch(func() tea.Msg { return views.ChangedMsg{IDs: reload} },
		views.Flash(fmt.Sprintf("undid %s of %s: back to %s · %s", ed.mask, safe.String(ed.name), changeValues(msg.edit.old), left)))
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
