package ui

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/census"
	"canopy/safe"
	"canopy/views"
	"canopy/views/overview"
	"canopy/views/paging"
)

// Bounds of the overview's listings: an organization past them is counted
// in part, and the overview says so.
const (
	maxOverviewRepos   = 50_000
	maxOverviewFolders = 20_000
	maxOverviewPeople  = 50_000
)

// DefaultStale is how long an identity may go unseen before the overview
// counts it as not seen.
const DefaultStale = 90 * 24 * time.Hour

// overviewScreen is `:overview`: the organization at a glance. Its counts
// are kept per organization between visits.
func (e *env) overviewScreen() tea.Cmd {
	org, caches := e.org, e.caches()
	return e.openCommand(func(ctx context.Context) views.Screen {
		return overview.New(ctx, e.common, overview.Config{Title: "overview of " + safe.Of(org.Name),
			Source: e.overviewSource(org), Caches: caches, Stale: e.stale, Refresh: e.refresh, Open: e.openOverviewLine})
	})
}

// overviewSource is how the overview gets its counts from the client.
func (e *env) overviewSource(org *api.Group) overview.Source {
	c := e.client
	return overview.Source{
		Layout: func(ctx context.Context) (census.Layout, error) {
			l := census.Layout{Org: org.UID, Folders: map[string]string{org.UID: org.Name}}
			groups, cut, err := listUpTo(ctx, c.ListGroups, api.ListOptions{DescendantsOf: org.UID}, api.GroupKey, maxOverviewFolders)
			if err != nil {
				return l, fmt.Errorf("folders: %w", err)
			}
			for _, g := range groups {
				l.Folders[g.UID] = g.Name
			}
			repos, cutRepos, err := listUpTo(ctx, c.ListRepos, api.ListOptions{DescendantsOf: org.UID}, api.RepoKey, maxOverviewRepos)
			if err != nil {
				return l, fmt.Errorf("repos: %w", err)
			}
			for _, r := range repos {
				l.Repos = append(l.Repos, census.Repo{UID: r.UID, Name: r.Name})
			}
			l.Truncated = cut || cutRepos
			return l, nil
		},
		Tags: func(ctx context.Context, scope overview.Scope, token string) ([]api.Tag, string, error) {
			o := api.ListOptions{ChildrenOf: scope.UID, PageToken: token, PageSize: api.MaxPageSize}
			if scope.Subtree {
				o.ChildrenOf, o.DescendantsOf = "", scope.UID
			}
			p, err := c.ListTags(ctx, o)
			if err != nil {
				return nil, "", fmt.Errorf("tags: %w", err)
			}
			return p.Items, p.NextPageToken, nil
		},
		People: func(ctx context.Context) (census.People, error) {
			var p census.People
			ids, cut, err := listUpTo(ctx, c.ListIdentities, api.ListOptions{DescendantsOf: org.UID}, api.IdentityKey, maxOverviewPeople)
			if err != nil {
				return p, fmt.Errorf("identities: %w", err)
			}
			bs, cutBindings, err := listUpTo(ctx, c.ListRoleBindings, api.ListOptions{DescendantsOf: org.UID}, api.RoleBindingKey, maxOverviewPeople)
			if err != nil {
				return p, fmt.Errorf("role bindings: %w", err)
			}
			p.Identities, p.Bindings, p.Truncated = ids, bs, cut || cutBindings
			return p, nil
		},
		Advisories: func(ctx context.Context, names []string, kind, token string) (map[string]int, string, bool, error) {
			// The client keeps only the advisories of that kind: a server
			// that ignores the filter answers every one (p.Ignored).
			p, err := c.ListAdvisories(ctx, api.ListOptions{ArtifactNames: names, LatestEventType: kind, PageToken: token, PageSize: api.MaxPageSize})
			if err != nil {
				return nil, "", false, fmt.Errorf("advisories: %w", err)
			}
			counts := map[string]int{}
			for i := range p.Items {
				counts[p.Items[i].ArtifactName]++
			}
			return counts, p.NextPageToken, len(p.Ignored) > 0, nil
		},
	}
}

// listUpTo lists every item of a collection, at most limit of them
// (cut: there were more).
func listUpTo[T any](ctx context.Context, list api.Lister[T], o api.ListOptions, key func(*T) string, limit int) (out []T, cut bool, err error) {
	o.PageSize = api.MaxPageSize
	for it, err := range api.NewCursor(list, o, key).All(ctx) {
		if err != nil {
			return nil, false, err
		}
		if len(out) == limit {
			return out, true, nil
		}
		out = append(out, it)
	}
	return out, false, nil
}

// openOverviewLine opens the table behind a line of the overview, on top
// of it (esc comes back to the overview).
func (e *env) openOverviewLine(t overview.Target) tea.Cmd {
	org := e.org
	switch t.What {
	case overview.OpenDeprecated:
		if t.Repo {
			return e.open(func(ctx context.Context) views.Screen {
				return tagsTableOf(e, ctx, "tags of "+safe.Of(t.Name), api.ListOptions{ChildrenOf: t.Key}, t.Name, true)
			})
		}
		return e.open(e.deprecatedUnder(t.Key, t.Name))
	case overview.OpenIdentities:
		asks, line := t.Asks, t.Line
		if line == census.Unbound {
			title := "identities " + safe.Of(t.Name) + " in " + safe.Of(org.Name)
			return e.open(func(ctx context.Context) views.Screen { return unboundTable(e, ctx, title, org.UID) })
		}
		return e.open(func(ctx context.Context) views.Screen {
			return identitiesTableWhere(e, ctx, "identities "+safe.Of(t.Name)+" in "+safe.Of(org.Name),
				api.ListOptions{DescendantsOf: org.UID}, func(id *api.Identity) bool { return asks.Is(line, id) })
		})
	case overview.OpenBindings:
		o := api.ListOptions{DescendantsOf: org.UID, Role: t.Role}
		if t.Group != "" {
			o = api.ListOptions{ChildrenOf: t.Group, Role: t.Role}
		}
		title := "role bindings of " + safe.Of(t.Name)
		return e.open(func(ctx context.Context) views.Screen { return bindingsTable(e, ctx, title, o) })
	case overview.OpenAdvisories:
		return e.repoAdvisories(t.Name)
	}
	return nil
}

// repoAdvisories opens the advisories of a repo's image name.
func (e *env) repoAdvisories(name string) tea.Cmd { return e.advisoriesOf(name, []string{name}) }

// advisoriesOf opens the advisories of image names, called label.
func (e *env) advisoriesOf(label string, names []string) tea.Cmd {
	return e.open(func(ctx context.Context) views.Screen {
		return advisoriesTable(e, ctx, "advisories of "+safe.Of(label), api.ListOptions{ArtifactNames: names})
	})
}

// unboundTable is the identities no role binding names, asked of the
// server at each load rather than kept from the overview's count: a bind
// made here loads it again, and the identity bound leaves it.
func unboundTable(e *env, ctx context.Context, title safe.Text, org string) views.Screen {
	c, opts := e.client, api.ListOptions{DescendantsOf: org}
	var bound atomic.Pointer[map[string]bool]
	ids := source(c.ListIdentities, opts)
	src := func(ctx context.Context, req paging.Request) (paging.Result[api.Identity], error) {
		if req.Token == "" && req.Skip == 0 || bound.Load() == nil {
			bs, _, err := listUpTo(ctx, c.ListRoleBindings, opts, api.RoleBindingKey, maxOverviewPeople)
			if err != nil {
				return paging.Result[api.Identity]{}, fmt.Errorf("role bindings: %w", err)
			}
			now := census.Bound(bs)
			bound.Store(&now)
		}
		b := *bound.Load()
		return kept(ids, func(id *api.Identity) bool { return !b[id.UID] })(ctx, req)
	}
	bindings, identities := kindFor[api.RoleBinding](e.kinds), kindFor[api.Identity](e.kinds)
	return identitiesTableFrom(e, ctx, title, opts, src, func(c views.Change) bool { return bindings.watched(c) || identities.watched(c) })
}
