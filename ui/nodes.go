package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views"
	"canopy/views/tree"
)

// collectionTable opens a tree collection node as a table of that scope.
func (e *env) collectionTable(n *tree.Node) tea.Cmd {
	scope := ""
	if n.Parent != nil {
		scope = n.Parent.ID
	}
	where := ""
	if n.Parent != nil {
		where = " of " + n.Parent.Label
	}
	title := n.Label + where
	o := api.ListOptions{ChildrenOf: scope}
	return e.open(func(ctx context.Context) views.Screen {
		switch n.Kind {
		case tree.KindRepos:
			return e.reposTable(ctx, title, o)
		case tree.KindIdentities:
			return e.identitiesTable(ctx, title, o)
		case tree.KindBindings:
			return e.bindingsTable(ctx, title, o)
		case tree.KindSubscriptions:
			return e.subscriptionsTable(ctx, title, o)
		case tree.KindAdvisories:
			return e.advisoriesTable(ctx, "advisories", api.ListOptions{})
		default:
			if ec, ok := n.Item.(*api.EcosystemCount); ok {
				return e.artifactsTable(ctx, "libraries: "+n.Label, api.ListOptions{Ecosystems: []string{ec.Ecosystem}})
			}
			return e.artifactsTable(ctx, "libraries", api.ListOptions{})
		}
	})
}

// nodeTable opens the children of an expandable node as a table (`t`):
// a repo's tags, a folder's repos (at any depth), an artifact's versions.
func (e *env) nodeTable(n *tree.Node) tea.Cmd {
	if n.Kind.IsCollection() {
		return e.collectionTable(n)
	}
	uid, label := n.ID, n.Label
	return e.open(func(ctx context.Context) views.Screen {
		switch n.Kind {
		case tree.KindRepo:
			return e.tagsTable(ctx, "tags of "+label, api.ListOptions{ChildrenOf: uid}, label)
		case tree.KindArtifact:
			return e.versionsTable(ctx, "versions of "+label, uid)
		default:
			return e.reposTable(ctx, "repos under "+label, api.ListOptions{DescendantsOf: uid})
		}
	})
}

// nodeOpen is enter in the tree: a collection opens as a table, a
// resource as a detail page.
func (e *env) nodeOpen(n *tree.Node) tea.Cmd {
	if n.Kind.IsCollection() {
		return e.collectionTable(n)
	}
	if n.Item != nil {
		return e.page(n.Item)
	}
	return nil
}

// registryHost serves the organization's images.
const registryHost = "cgr.dev"

// pullRef is what `docker pull` takes for a tag, pinned to its digest.
func pullRef(org, repo string, t *api.Tag) (string, string) {
	return registryHost + "/" + org + "/" + repo + ":" + t.Name + "@" + t.Digest, "pull reference"
}

// nodeRef is a tag node's pull reference; its repo is an ancestor node.
func nodeRef(org string, n *tree.Node) (string, string) {
	t, ok := n.Item.(*api.Tag)
	if !ok || t.Digest == "" {
		return "", ""
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if r, ok := p.Item.(*api.Repo); ok {
			return pullRef(org, r.Name, t)
		}
	}
	return "", ""
}

// nodeCopy is what `y` copies for a node.
func nodeCopy(n *tree.Node) (string, string) {
	if t, ok := n.Item.(*api.Tag); ok {
		return t.Digest, "digest"
	}
	if n.Item == nil {
		return "", ""
	}
	return n.ID, "uid"
}
