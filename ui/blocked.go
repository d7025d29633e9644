package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
)

// blocker is one collection that keeps a folder from being deleted: how
// the server names it in a refusal, and the table that shows it.
type blocker struct {
	word  string // in the violation's description: "group has 2 subgroups"
	title string // "subfolders"
	table func(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen
}

func blockers() []blocker {
	return []blocker{
		{"subgroup", "subfolders", groupsTable},
		{"repo", "repos", reposTable},
		{"identit", "identities", identitiesTable},
		{"role binding", "role bindings", bindingsTable},
		{"subscription", "subscriptions", subscriptionsTable},
		{"custom role", "roles", rolesTable},
	}
}

// blockedNext is the next step after a refused folder delete: what to
// delete first, and enter opens the first collection in the way (the
// folder's subfolders, repos, identities, bindings...). names are the
// folders being deleted, by uid; the refusal's subject says which one.
func blockedNext(e *env, names map[string]string) func(error) (string, tea.Cmd) {
	return func(err error) (string, tea.Cmd) {
		vs := api.PreconditionViolations(err)
		if len(vs) == 0 {
			return "", nil
		}
		uid := vs[0].Subject
		name, ok := names[uid]
		if !ok && len(names) == 1 {
			for u, n := range names {
				uid, name = u, n // a refusal that does not name its subject
			}
		}
		if name == "" {
			return "", nil
		}
		// The server's reasons show as it gave them, with the item that
		// failed; the hint is canopy's own next step, in its own words.
		var first *blocker
		for _, v := range vs {
			for _, b := range blockers() {
				if first == nil && strings.Contains(strings.ToLower(v.Description), b.word) {
					first = &b
				}
			}
		}
		hint := "the server deletes only an empty folder: "
		if first == nil {
			return hint + e.common.Key(keymap.Accept) + " shows " + name + " in the tree", func() tea.Msg { return gotoMsg{uid: uid} }
		}
		b := *first
		title := safe.Of(b.title + " of " + name)
		return hint + e.common.Key(keymap.Accept) + " opens its " + b.title, openLater(func(ctx context.Context) views.Screen {
			return b.table(e, ctx, title, api.ListOptions{ChildrenOf: uid})
		})
	}
}

// folderContents counts what a folder holds (one small request per
// collection): the server deletes only an empty folder.
func folderContents(e *env, ctx context.Context, uid string) ([]string, error) {
	c := e.client
	o := api.ListOptions{ChildrenOf: uid}
	counts := []struct {
		one, many string
		count     func() (api.Count, error)
	}{
		{"subfolder", "subfolders", func() (api.Count, error) { return total(ctx, c.ListGroups, o) }},
		{"repo", "repos", func() (api.Count, error) { return total(ctx, c.ListRepos, o) }},
		{"identity", "identities", func() (api.Count, error) { return total(ctx, c.ListIdentities, o) }},
		{"role binding", "role bindings", func() (api.Count, error) { return total(ctx, c.ListRoleBindings, o) }},
		{"subscription", "subscriptions", func() (api.Count, error) { return total(ctx, c.ListSubscriptions, o) }},
	}
	var held []string
	for _, k := range counts {
		n, err := k.count()
		if err != nil {
			return nil, fmt.Errorf("count its %s: %w", k.many, err)
		}
		if n.N > 0 {
			held = append(held, counted(n, k.one, k.many))
		}
	}
	if len(held) == 0 {
		return []string{"It holds no subfolders, repos, identities, role bindings or subscriptions."}, nil
	}
	return []string{"It holds " + strings.Join(held, ", ") + ": the server deletes only an empty folder, so it will refuse until they are gone."}, nil
}
