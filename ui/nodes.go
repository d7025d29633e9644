package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/saved"
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
	return e.push(screenAsk{origin: e.collectionView(k, n), build: func(ctx context.Context) views.Screen { return k.table(e, ctx, title, o) }})
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
	var origin *saved.View
	if k.childView != nil {
		origin = k.childView(e, n)
	}
	return e.push(screenAsk{origin: origin, build: func(ctx context.Context) views.Screen { return k.childTable(e, ctx, n) }})
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

// nodeRef is what `Y` copies of a node: its kind's reference (a tag's
// pull reference, its repo the node above it), "" for a kind with none.
func (e *env) nodeRef(n *tree.Node) (string, string) {
	k := e.kinds.of(n.Item)
	if k == nil || k.ref == nil {
		return "", ""
	}
	var parent any
	if n.Parent != nil {
		parent = n.Parent.Item
	}
	return k.ref(e, n.Item, parent)
}

// nodeCopy is what `y` copies of a node: what its kind's page copies (a
// tag's digest), else its uid; nothing for what has no uid (an ecosystem).
func (e *env) nodeCopy(n *tree.Node) (string, string) {
	k := e.kinds.of(n.Item)
	if k == nil {
		return "", ""
	}
	if k.detail.Copy != nil {
		if text, what := k.detail.Copy(n.Item); text != "" {
			return text, what
		}
	}
	if uid := k.uid(n.Item); uid != "" {
		return uid, "uid"
	}
	return "", ""
}
