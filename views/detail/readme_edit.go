package detail

import (
	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
)

// readmeEdit is `E` on a repo's page whose sources edit readmes: the
// shell lends the terminal to the user's editor (RepoSources.EditReadme).
// A repo synced from another has its source's readme: the key says so.
func (m *Model) readmeEdit() []keymap.State {
	r, ok := m.item.(*api.Repo)
	if !ok {
		return nil
	}
	k := m.kind(m.item)
	if k == nil || k.Page.repo.EditReadme == nil {
		return nil
	}
	st := m.common.Change(keymap.EditReadme)
	if st.Enabled && r.SyncConfig != nil {
		return []keymap.State{keymap.Off(keymap.EditReadme, "this repo syncs from another, whose readme it takes: edit the readme there")}
	}
	edit := k.Page.repo.EditReadme
	return []keymap.State{st.Does(func() tea.Cmd { return edit(r) })}
}
