package bind

import (
	"context"
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/safe"
)

// Binding several identities at once: where the owner can send them in one
// request (Config.Many), the confirmation says that request and each
// identity's result comes from it; otherwise each identity is bound by a
// request of its own (Config.Bind).

// Batch is how several identities are bound at once.
type Batch struct {
	// Lines say the request the confirmation sends.
	Lines []safe.Text
	// Bind binds one identity of the batch, as Config.Bind does; the
	// identities' Binds share one request (the owner's to arrange). Nil:
	// one request each, with Config.Bind.
	Bind func(ctx context.Context, group, identity, role, label string) (*api.RoleBinding, error)
	// Said, asked once every binding is over (in Update), is what the
	// status line adds of how they were sent (the service had no batch,
	// say), and a message for the owner; "" and nil for nothing.
	Said func() (string, tea.Msg)
}

// binder is how each identity of the confirmation is bound, and the lines
// that say the request.
func (m *Model) binder(role, group Choice) (func(ctx context.Context, group, identity, role, label string) (*api.RoleBinding, error), []safe.Text) {
	one := []safe.Text{safe.Of(api.RoleBindings.Create(group.UID).String()), safe.Of(m.body(role.UID))}
	if m.cfg.Many == nil || len(m.cfg.Identities) < 2 {
		return m.cfg.Bind, one
	}
	b := m.cfg.Many(role, group, m.cfg.Identities)
	if b.Bind == nil {
		return m.cfg.Bind, one
	}
	m.said = b.Said
	return b.Bind, b.Lines
}

// howSent is what the status line adds of how the bindings were sent
// (" · …"), "" for nothing.
func (m *Model) howSent() string {
	if m.said == nil {
		return ""
	}
	if s, _ := m.said(); s != "" {
		return " · " + s
	}
	return ""
}

// told is the owner's message of how the bindings were sent, nil for none.
func (m *Model) told() tea.Cmd {
	if m.said == nil {
		return nil
	}
	if _, msg := m.said(); msg != nil {
		return func() tea.Msg { return msg }
	}
	return nil
}

// body is the request's body: the same for each identity but its uid.
func (m *Model) body(role string) string {
	who := fmt.Sprintf("<each of %d>", len(m.cfg.Identities))
	if len(m.cfg.Identities) == 1 {
		who = strconv.Quote(safe.String(m.cfg.Identities[0].UID))
	}
	return `{"identityUid": ` + who + `, "roleUid": ` + strconv.Quote(safe.String(role)) + `}`
}
