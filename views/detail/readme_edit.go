package detail

import (
	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
)

// readmeEdit is `E` on a repo's page whose sources edit readmes: the
// shell lends the terminal to the user's editor (RepoSources.EditReadme).
func (m *Model) readmeEdit() []keymap.State {
	r, ok := m.item.(*api.Repo)
	if !ok {
		return nil
	}
	k := m.kind(m.item)
	if k == nil || k.Page.repo.EditReadme == nil {
		return nil
	}
	edit := k.Page.repo.EditReadme
	return []keymap.State{m.common.Change(keymap.EditReadme).Does(func() tea.Cmd { return edit(r) })}
}
