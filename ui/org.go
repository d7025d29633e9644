package ui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/safe"
	"canopy/views"
	"canopy/views/picker"
)

// The organization canopy explores is resolved at start (and by :org) from
// --org, from the organizations the token sees, or, when it sees none,
// from the top-most folders it sees.

// resolveOrg lists what can be opened, or gets the --org group.
func (m *Model) resolveOrg() tea.Cmd {
	client, ctx, org := m.opts.Client, m.ctx, m.opts.Org
	if api.IsGroupUID(org) {
		return func() tea.Msg {
			g, err := client.GetGroup(ctx, org)
			if err != nil {
				return orgMsg{err: fmt.Errorf("organization %s: %w", org, err)}
			}
			return orgMsg{org: g}
		}
	}
	return func() tea.Msg {
		var orgs []api.Group
		cur := api.NewCursor(client.ListGroups, api.ListOptions{InRoot: true, PageSize: api.MaxPageSize}, api.GroupKey)
		for g, err := range cur.All(ctx) {
			if err != nil {
				return orgsMsg{err: fmt.Errorf("list organizations: %w", err)}
			}
			if org == "" || g.Name == org { // --org may name the organization
				orgs = append(orgs, g)
			}
		}
		if len(orgs) > 0 {
			return orgsMsg{orgs: orgs}
		}
		// No organization: an identity bound only on folders still sees
		// them (the groups list answers with what the caller may see).
		tops, err := topFolders(ctx, client, org)
		switch {
		case err != nil:
			return orgsMsg{err: err}
		case org != "" && len(tops) == 0:
			return orgsMsg{err: notVisible{name: org}}
		}
		return orgsMsg{orgs: tops, folders: true}
	}
}

// topFolders lists the groups the caller sees and keeps the top-most ones
// (those whose parent it does not see), or those named name.
func topFolders(ctx context.Context, client *api.Client, name string) ([]api.Group, error) {
	var all []api.Group
	seen := map[string]bool{}
	cur := api.NewCursor(client.ListGroups, api.ListOptions{PageSize: api.MaxPageSize, OrderBy: api.OrderName}, api.GroupKey)
	for g, err := range cur.All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("list the folders this token sees: %w", err)
		}
		all = append(all, g)
		seen[g.UID] = true
	}
	var out []api.Group
	for _, g := range all {
		if name != "" && g.Name != name {
			continue
		}
		if name != "" || !seen[api.ParentUID(g.UID)] {
			out = append(out, g)
		}
	}
	return out, nil
}

// groupWord is "organization" or "folder" for a group.
func groupWord(g *api.Group) string {
	if api.ParentUID(g.UID) == "" {
		return "organization"
	}
	return "folder"
}

// resolveOrgPicker lists the organizations again to switch between them.
func (m *Model) resolveOrgPicker() tea.Cmd {
	m.opts.Org = ""
	return m.resolveOrg()
}

// gotOrgs opens the only organization, or asks which one.
func (m *Model) gotOrgs(msg orgsMsg) tea.Cmd {
	if cmd, ok := m.noOrgs(msg); ok {
		return cmd
	}
	switch {
	case msg.err != nil:
		m.startErr = msg.err
		return nil
	case len(msg.orgs) == 0:
		m.startErr = errors.New("this token sees no organization and no folder: it has no role binding on any group")
		return nil
	case len(msg.orgs) == 1:
		return m.openOrg(&msg.orgs[0])
	}
	opts := make([]picker.Option, len(msg.orgs))
	choices := make(map[string]api.Group, len(msg.orgs))
	for i, g := range msg.orgs {
		detail := safe.Of(g.Description)
		if msg.folders {
			detail = "folder · " + detail
		}
		opts[i] = picker.Option{Label: safe.Of(g.Name), Detail: detail, Value: g.UID}
		choices[g.UID] = g
	}
	var title safe.Text = "Which organization?"
	if msg.folders {
		title = "Which folder? (this token sees no organization, only these folders)"
	}
	cancellable := m.env.org != nil
	p := picker.New(m.common, title, opts, cancellable, func(o picker.Option) tea.Msg {
		g := choices[o.Value.(string)]
		return orgMsg{org: &g}
	})
	if m.env.org != nil {
		p.Preselect(m.env.org.UID) // the cursor starts on the current one
	} else if last := m.opts.Resume.LastOrg; last != "" {
		p.Preselect(last) // or on the one open last time
	}
	m.starting = false
	return m.push(func(context.Context) views.Screen { return p })
}

// openOrg replaces every screen with the explorer of org.
func (m *Model) openOrg(org *api.Group) tea.Cmd {
	for len(m.stack) > 0 {
		m.stack[len(m.stack)-1].cancel()
		m.stack = m.stack[:len(m.stack)-1]
	}
	m.starting, m.startErr = false, nil
	m.env.org = org
	m.env.repoNamer, m.env.folderNamer = newNamer(repoNames), newNamer(folderNames)
	m.env.tags = newTagSets()
	flash := m.setFlash(fmt.Sprintf("%s %s", groupWord(org), safe.String(org.Name)), false)
	if m.notice != "" {
		// Said at start, and again once the organization is open, over
		// the line naming it: it is what the user must act on.
		flash, m.notice = m.setFlash(m.notice, true), ""
	}
	push := m.push(m.explorer)
	if m.opts.Start == (Start{}) {
		return tea.Batch(push, flash, m.resume())
	}
	return tea.Batch(push, flash, m.begin())
}
