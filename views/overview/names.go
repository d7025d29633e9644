package overview

import (
	"canopy/api"
	"canopy/census"
)

// label is how a repo's line names it: its name, and its folder's path
// when another repo has the same name.
func (m *Model) label(r census.Repo) string {
	if !m.dups[r.Name] {
		return r.Name
	}
	path := m.layout.Path(api.ParentUID(r.UID))
	if path == "" {
		path = "top"
	}
	return r.Name + " (" + path + ")"
}

// named gives repo bars their labels (see label).
func (m *Model) named(bars []census.Bar) []census.Bar {
	if len(m.dups) == 0 {
		return bars
	}
	out := make([]census.Bar, len(bars))
	for i, b := range bars {
		out[i] = b
		out[i].Label = m.label(census.Repo{UID: b.Key, Name: b.Label})
	}
	return out
}

// repoName is a repo's name by its uid ("" when the layout lacks it).
func (m *Model) repoName(uid string) string {
	if m.layout == nil {
		return ""
	}
	for _, r := range m.layout.Repos {
		if r.UID == uid {
			return r.Name
		}
	}
	return ""
}

// duplicates are the repo names more than one repo has.
func duplicates(repos []census.Repo) map[string]bool {
	seen := make(map[string]bool, len(repos))
	dups := map[string]bool{}
	for _, r := range repos {
		if seen[r.Name] {
			dups[r.Name] = true
		}
		seen[r.Name] = true
	}
	return dups
}
