package bind

import (
	tea "charm.land/bubbletea/v2"

	"canopy/views/form"
)

// Changing one binding's role in place (Config.Edit): the flow asks only
// for the role, its picker on the role the binding has, and the role
// chosen opens the edit's form, which previews the masked request and
// sends it; the flow is over when the form is.

// editForm puts up the form of the role chosen, giving it the keys typed
// ahead of it.
func (m *Model) editForm() tea.Cmd {
	f := form.New(m.common, m.cfg.Edit(*m.cfg.Role))
	m.inner = f
	f.SetSize(m.width, m.height)
	cmds := []tea.Cmd{f.Init()}
	typed := m.typed
	m.typed = nil
	for _, k := range typed {
		cmds = append(cmds, f.Update(k))
	}
	return tea.Batch(cmds...)
}
