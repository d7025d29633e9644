package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views"
	"canopy/views/tree"
)

// collectionTable opens a tree collection node as a table: its parent
// folder's resources of that kind, or the scope its kind gives.
func (e *env) collectionTable(n *tree.Node) tea.Cmd {
	k := e.kinds.byCollection[n.Kind]
	if k == nil || k.table == nil {
		return nil
	}
	title, o := n.Label, api.ListOptions{}
	if n.Parent != nil {
		title, o = n.Label+" of "+n.Parent.Label, api.ListOptions{ChildrenOf: n.Parent.ID}
	}
	if k.scoped != nil {
		title, o = k.scoped(n)
	}
	return e.open(func(ctx context.Context) views.Screen { return k.table(e, ctx, title, o) })
}

// nodeTable opens the children of an expandable node as a table (`t`):
// a repo's tags, a folder's repos (at any depth), an artifact's versions.
func (e *env) nodeTable(n *tree.Node) tea.Cmd {
	if n.Kind.IsCollection() {
		return e.collectionTable(n)
	}
	k := e.kinds.of(n.Item)
	if k == nil || k.childTable == nil {
		return nil
	}
	return e.open(func(ctx context.Context) views.Screen { return k.childTable(e, ctx, n) })
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

// nodeRef is a tag node's pull reference, its repo's name as every screen
// makes it (tagRepo; the node above it is its repo).
func (e *env) nodeRef(n *tree.Node) (string, string) {
	t, ok := n.Item.(*api.Tag)
	if !ok || t.Digest == "" {
		return "", ""
	}
	var parent any
	if n.Parent != nil {
		parent = n.Parent.Item
	}
	if repo := e.tagRepo(t, parent); repo != "" {
		return pullRef(e.org.Name, repo, t)
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
