package bind

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/safe"
	"canopy/views"
	"canopy/views/dialog"
)

// done reports the hydrated bindings and tells the other screens.
func (m *Model) done(msg dialog.Settled) tea.Cmd {
	var said []string
	var made []any
	focus := "" // a table of the bindings puts its cursor on the first made
	for _, uid := range msg.Done {
		if b, _ := msg.Answers[uid].(*api.RoleBinding); b != nil {
			said = append(said, hydrated(b, m.cfg.Group.Name))
			made = append(made, b)
			if focus == "" {
				focus = b.UID
			}
		}
	}
	var ids []views.Change
	if m.cfg.Bindings != nil {
		ids = append(ids, m.cfg.Bindings(m.cfg.Group.UID))
	}
	for _, uid := range msg.Done {
		ids = append(ids, views.Changed(uid))
	}
	// The identities bound are unmarked where they were marked (the
	// failed ones stay marked, to be bound again), as a bulk delete does.
	bound := append([]string(nil), msg.Done...)
	// What was made is counted before the screens load again.
	changed := tea.Batch(tea.Sequence(views.Created(made...), func() tea.Msg { return views.ChangedMsg{Changes: ids, Focus: focus} }),
		func() tea.Msg { return views.UnmarkMsg{UIDs: bound} })
	unknown := ""
	if n := len(msg.Unknown); n > 0 {
		unknown = fmt.Sprintf(" · %d unknown (no answer): r on the bindings to see", n)
	}
	unknown += m.howSent()
	switch {
	case len(said) == 1:
		return tea.Batch(changed, views.Flash("bound "+said[0]+unknown))
	case len(said) > 1:
		return tea.Batch(changed, views.Flash(fmt.Sprintf("bound %d identities: %s", len(said), strings.Join(said, "; "))+unknown))
	case unknown != "":
		return views.FlashError(strings.TrimPrefix(unknown, " · "))
	}
	return nil
}

// hydrated is "viewer → ci-bot on platform", from the server's answer.
func hydrated(b *api.RoleBinding, path string) string {
	role, who, group := "?", "?", "?"
	if b.Role != nil {
		role = b.Role.Name
	}
	if b.Identity != nil {
		who = b.Identity.Name
	}
	if b.Group != nil {
		group = b.Group.Name
		if strings.HasSuffix(path, "/"+group) {
			group = path // the folder's path, as the question said it
		}
	}
	return safe.String(role) + " → " + safe.String(who) + " on " + safe.String(group)
}
